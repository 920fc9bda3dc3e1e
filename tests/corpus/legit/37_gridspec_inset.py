from matplotlib.gridspec import GridSpec
from mpl_toolkits.axes_grid1.inset_locator import inset_axes

fig = plt.figure(figsize=(8, 6))
gs = GridSpec(2, 3, figure=fig)
ax_main = fig.add_subplot(gs[:, :2])
ax_side = fig.add_subplot(gs[0, 2])
ax_low = fig.add_subplot(gs[1, 2])
x = np.linspace(0, 1, 100)
ax_main.plot(x, x**3)
ins = inset_axes(ax_main, width="30%", height="30%", loc="upper left")
ins.plot(x, x)
ax_side.bar(["a", "b"], [3, 5])
ax_low.pie([1, 2, 3], labels=["x", "y", "z"], autopct="%1.0f%%")
plt.savefig(OUT)
