delta = 0.025
x = np.arange(-3.0, 3.0, delta)
X, Y = np.meshgrid(x, x)
Z = np.exp(-X**2 - Y**2) - np.exp(-(X - 1) ** 2 - (Y - 1) ** 2)
fig, ax = plt.subplots()
cs = ax.contour(X, Y, Z, levels=10, cmap="RdGy")
ax.clabel(cs, inline=True, fontsize=8, fmt="%.2f")
ax.set_aspect("equal")
plt.savefig(OUT)
