from mpl_toolkits.mplot3d import Axes3D  # noqa: F401
from matplotlib import cm

fig = plt.figure()
ax = fig.add_subplot(projection="3d")
X, Y = np.meshgrid(np.arange(-5, 5, 0.25), np.arange(-5, 5, 0.25))
R = np.sqrt(X**2 + Y**2)
Z = np.sin(R)
surf = ax.plot_surface(X, Y, Z, cmap=cm.coolwarm, linewidth=0, antialiased=False)
ax.set_zlim(-1.01, 1.01)
fig.colorbar(surf, shrink=0.5, aspect=5)
plt.savefig(OUT)
