# expect: missing-labels
# Left: an x label and no y label. Right: an image with its ticks and no labels.
fig, (a, b) = plt.subplots(1, 2, figsize=(9, 3.5))
f = np.linspace(1, 100, 200)
a.plot(f, 1 / f)
a.set_xlabel("frequency (Hz)")
b.imshow(np.outer(np.arange(20), np.arange(30)), cmap="gray")
fig.tight_layout()
plt.savefig(OUT)
