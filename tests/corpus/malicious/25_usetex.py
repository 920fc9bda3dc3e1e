# expect: dangerous-rcparam
plt.rcParams['text.usetex'] = True
plt.title('x')
plt.savefig(OUT)
