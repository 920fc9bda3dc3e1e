# expect: density=True
x = np.random.default_rng(1).normal(size=500)
plt.hist(x, bins=30, normed=True)
plt.savefig(OUT)
