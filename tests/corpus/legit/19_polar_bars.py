N = 16
theta = np.linspace(0.0, 2 * np.pi, N, endpoint=False)
radii = 10 * np.random.default_rng(7).random(N)
width = np.pi / 4 * np.ones(N) / 2
ax = plt.subplot(projection="polar")
bars = ax.bar(theta, radii, width=width, bottom=0.0, color=plt.cm.viridis(radii / 10.0), alpha=0.5)
plt.savefig(OUT)
