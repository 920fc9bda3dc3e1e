# expect: dangerous-rcparam
plt.style.use(srcpath("innocent.mplstyle"))
plt.plot([1, 2])
plt.savefig(OUT)
