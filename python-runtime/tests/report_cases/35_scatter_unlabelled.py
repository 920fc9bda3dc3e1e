# expect: missing-labels
# A scatter whose colour and size map data, with a colorbar, but no axis labels: the one
# axes of the figure still needs them (no other panel has labels to compare with).
x = np.linspace(0, 1, 50)
fig, ax = plt.subplots()
sc = ax.scatter(x, x**2, c=np.arange(50), s=10 + 2 * np.arange(50), cmap="plasma")
fig.colorbar(sc, ax=ax, label="sample index")
plt.savefig(OUT)
