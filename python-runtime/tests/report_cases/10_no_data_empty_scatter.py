# expect: no-data
rng = np.random.default_rng(0)
x = rng.normal(size=300)
y = rng.normal(size=300)
outliers = np.abs(y) > 10  # a threshold nothing passes
plt.scatter(x, y, s=5)
plt.scatter(x[outliers], y[outliers], color="red")
plt.xlabel("x")
plt.ylabel("y")
plt.savefig(OUT)
