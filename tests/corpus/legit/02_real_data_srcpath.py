# The article's second legitimate sample: real data read through srcpath.
data = np.loadtxt(srcpath("measurements.txt"), delimiter=",", skiprows=1)
t, v = data[:, 0], data[:, 1]
fig, ax = plt.subplots(figsize=(8, 4))
ax.plot(t, v, "o-", markersize=3)
ax.set_xlabel("time [s]")
ax.set_ylabel("voltage [V]")
ax.grid(True)
fig.savefig(OUT, dpi=150)
