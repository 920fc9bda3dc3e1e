# expect: missing-labels
# A busy four-axes figure: twelve series with NaNs and a reference line, a mesh with contours
# and a colorbar, three histograms, a scatter with error bars, a band and a boxplot. Its text
# report stays within 2,000 characters.
rng = np.random.default_rng(3)
fig, axs = plt.subplots(2, 2, figsize=(11, 8), layout="constrained")
t = np.linspace(0, 20, 400)
for k in range(12):
    y = np.sin(t + k / 3) * (1 + k / 10)
    y[k * 10 : k * 10 + 4] = np.nan
    axs[0, 0].plot(t, y, label=f"channel {k + 1}")
axs[0, 0].axhline(0, color="k")
axs[0, 0].legend(ncols=3, fontsize=6)
axs[0, 0].set_xlabel("time (s)")
axs[0, 0].set_ylabel("amplitude (mV)")
yy, xx = np.mgrid[-2:2:50j, -3:3:70j]
zz = np.exp(-(xx**2 + yy**2))
mesh = axs[0, 1].pcolormesh(xx, yy, zz, cmap="viridis", shading="auto")
axs[0, 1].contour(xx, yy, zz, levels=6, colors="w")
fig.colorbar(mesh, ax=axs[0, 1], label="density")
axs[0, 1].set_title("Density")
for mu in (0, 1, 2):
    axs[1, 0].hist(rng.normal(mu, 1, 500), bins=25, alpha=0.5, label=f"mu={mu}")
axs[1, 0].axvline(1, color="k", ls=":")
axs[1, 0].set_xlabel("value")
axs[1, 0].set_ylabel("count")
axs[1, 0].legend()
x = np.arange(10)
axs[1, 1].scatter(x, x**1.5, c=x, cmap="cividis")
axs[1, 1].errorbar(x, x**1.5, yerr=0.1 * x + 0.5, fmt="none", ecolor="grey")
axs[1, 1].fill_between(x, x**1.5 - 2, x**1.5 + 2, alpha=0.2)
axs[1, 1].boxplot([rng.normal(20, 3, 50), rng.normal(25, 3, 50)], positions=[2, 7])
plt.savefig(OUT)
