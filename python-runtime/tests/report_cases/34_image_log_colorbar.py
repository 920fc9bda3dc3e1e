# expect: none
# An image on a log colour scale with a labelled colorbar; five pixels are NaN.
from matplotlib.colors import LogNorm

y, x = np.mgrid[0:1:60j, 0:2:80j]
flux = 10 ** (1 + 1.5 * x)  # 10 .. 10,000
flux[0, :5] = np.nan
fig, ax = plt.subplots()
im = ax.imshow(
    flux, norm=LogNorm(), cmap="magma", extent=(0, 2, 0, 1), origin="lower", aspect="auto"
)
fig.colorbar(im, ax=ax, label="flux (counts/s)")
ax.set_xlabel("x (mm)")
ax.set_ylabel("y (mm)")
plt.savefig(OUT)
