import itertools

x = np.arange(12)
ys = np.random.default_rng(5).integers(1, 10, size=(3, 12))
colors = itertools.cycle(["#1b9e77", "#d95f02", "#7570b3"])
fig, (a, b) = plt.subplots(2, 1)
a.stackplot(x, ys, colors=[next(colors) for _ in range(3)], labels=list("PQR"))
a.legend(loc="upper left")
b.step(x, ys[0], where="mid")
plt.savefig(OUT)
