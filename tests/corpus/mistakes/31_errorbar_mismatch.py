# expect: (3,)
x = np.arange(10)
plt.errorbar(x, x ** 2, yerr=np.ones(3))
plt.savefig(OUT)
