# expect: none
y, x = np.mgrid[-2:2:120j, -3:3:180j]
z = np.exp(-(x**2 + y**2)) * np.cos(3 * x)
fig, ax = plt.subplots(figsize=(6, 4))
im = ax.imshow(z, extent=(-3, 3, -2, 2), origin="lower", cmap="viridis")
fig.colorbar(im, ax=ax, label="intensity (a.u.)")
ax.set_xlabel("x (mm)")
ax.set_ylabel("y (mm)")
ax.set_title("Beam profile")
plt.savefig(OUT)
