# expect: none
fig, axes = plt.subplots(2, 2, figsize=(8, 6), sharex=True)
t = np.linspace(0, 1, 300)
for i, ax in enumerate(axes.flat):
    ax.plot(t, np.sin(2 * np.pi * (i + 1) * t))
    ax.set_ylabel(f"channel {i + 1} (mV)")
    ax.set_title(f"Channel {i + 1}")
for ax in axes[1]:
    ax.set_xlabel("time (s)")
fig.tight_layout()
plt.savefig(OUT)
