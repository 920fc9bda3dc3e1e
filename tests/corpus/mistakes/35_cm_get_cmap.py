# expect: matplotlib.colormaps
import matplotlib.cm as cm

colors = cm.get_cmap('viridis')(np.linspace(0, 1, 3))
for i, c in enumerate(colors):
    plt.plot([0, 1], [i, i + 1], color=c)
plt.savefig(OUT)
