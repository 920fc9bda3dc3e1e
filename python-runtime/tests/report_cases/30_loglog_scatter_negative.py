# expect: log-nonpositive
rng = np.random.default_rng(5)
x = rng.normal(10, 5, size=200)  # a few values below zero
y = x**2 + 1
fig, ax = plt.subplots()
ax.scatter(x, y, s=6)
ax.set_xscale("log")
ax.set_yscale("log")
ax.set_xlabel("size (um)")
ax.set_ylabel("area (um^2)")
plt.savefig(OUT)
