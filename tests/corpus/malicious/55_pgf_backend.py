# expect: dangerous-keyword
plt.plot([1, 2])
plt.savefig(OUT, backend='pgf')
