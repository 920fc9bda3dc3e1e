import matplotlib.pyplot as plt
from matplotlib import cm, colors

z = np.random.default_rng(0).normal(size=(50, 50)).cumsum(axis=0)
fig, ax = plt.subplots()
norm = colors.TwoSlopeNorm(vcenter=0.0)
im = ax.imshow(z, cmap=cm.RdBu_r, norm=norm, origin="lower")
cbar = fig.colorbar(im, ax=ax, shrink=0.8)
cbar.set_label("anomaly")
plt.savefig(OUT)
