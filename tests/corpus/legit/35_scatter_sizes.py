import random

random.seed(4)
xs = [random.gauss(0, 1) for _ in range(300)]
ys = [x * 0.8 + random.gauss(0, 0.5) for x in xs]
sizes = [abs(x * y) * 40 + 5 for x, y in zip(xs, ys)]
sc = plt.scatter(xs, ys, s=sizes, c=ys, cmap="Spectral", edgecolors="k", linewidths=0.3)
plt.colorbar(sc)
plt.savefig(OUT)
