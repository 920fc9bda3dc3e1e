# expect: empty-axes, outside-limits, missing-labels
fig, axes = plt.subplots(1, 3, figsize=(11, 3.5))
x = np.linspace(0, 10, 100)
axes[0].plot(x, np.sin(x))
axes[0].set_xlabel("t (s)")
axes[0].set_ylabel("V")
axes[1].scatter(x, np.cos(x) + 5)
axes[1].set_ylim(-1, 1)  # the data sits around 5
axes[1].set_title("cosine")
# axes[2]: nothing
fig.tight_layout()
plt.savefig(OUT)
