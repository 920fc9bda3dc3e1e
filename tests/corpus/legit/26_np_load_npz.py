with np.load(srcpath("results.npz")) as data:
    x = data["x"]
    y = data["y"]
plt.scatter(x, y, s=4, c=y, cmap="cividis")
plt.savefig(OUT)
