# expect: none
# Axes whose ticks name themselves or that show no ticks need no label there: categories,
# dates, words set as tick labels, a pie, a picture with its axis off, the inner panels of
# shared axes labelled by supxlabel/supylabel.
import pandas as pd

fig = plt.figure(figsize=(12, 7), layout="constrained")
top = fig.subfigures(2, 1)
a, b, c, d = top[0].subplots(1, 4)
a.bar(["north", "south", "east", "west"], [3, 5, 2, 4])
a.set_ylabel("sales (kEUR)")
days = pd.date_range("2024-01-01", periods=30, freq="D")
b.plot(days, np.arange(30) % 7)
b.set_ylabel("orders")
b.tick_params(axis="x", labelrotation=45)
c.plot([1, 2, 3], [3, 1, 2])
c.set_xticks([1, 2, 3], ["low", "mid", "high"])
c.set_ylabel("score")
d.pie([1, 2, 3], labels=["a", "b", "c"])
grid = top[1].subplots(1, 3, sharey=True)
grid[0].imshow(np.eye(8))
grid[0].axis("off")
for k, ax in enumerate(grid[1:], 1):
    ax.plot(np.arange(10), np.arange(10) * k)
top[1].supxlabel("step")
grid[1].set_ylabel("value (a.u.)")
plt.savefig(OUT)
