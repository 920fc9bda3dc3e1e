import pandas as pd

df = pd.read_csv(srcpath("matrix.csv"))
pivot = df.pivot_table(index="row", columns="col", values="value", aggfunc="mean")
fig, ax = plt.subplots()
im = ax.imshow(pivot.values, cmap="YlGnBu")
ax.set_xticks(range(len(pivot.columns)), labels=pivot.columns)
ax.set_yticks(range(len(pivot.index)), labels=pivot.index)
for (i, j), v in np.ndenumerate(pivot.values):
    ax.text(j, i, f"{v:.1f}", ha="center", va="center", fontsize=7)
fig.colorbar(im)
plt.savefig(OUT)
