# expect: missing-labels
fig, (a, b) = plt.subplots(1, 2, figsize=(9, 3.5))
f = np.linspace(1, 100, 200)
a.plot(f, 1 / f)
a.set_xlabel("frequency (Hz)")
a.set_ylabel("gain")
b.plot(f, -np.degrees(np.arctan(f / 10)))
fig.tight_layout()
plt.savefig(OUT)
