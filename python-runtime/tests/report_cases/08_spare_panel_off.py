# expect: none
fig, axes = plt.subplots(2, 2, figsize=(8, 6))
x = np.linspace(0, 1, 50)
for k, ax in enumerate(axes.flat[:3]):
    ax.plot(x, x ** (k + 1))
    ax.set_xlabel("x")
    ax.set_ylabel(f"x^{k + 1}")
axes[1, 1].axis("off")
fig.tight_layout()
plt.savefig(OUT)
