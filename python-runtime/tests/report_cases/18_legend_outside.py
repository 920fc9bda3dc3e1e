# expect: text-outside
x = np.linspace(0, 10, 100)
fig, ax = plt.subplots(figsize=(6, 4))
for k in range(4):
    ax.plot(x, np.sin(x + k), label=f"phase offset {k} rad")
ax.set_xlabel("x")
ax.set_ylabel("y")
ax.legend(
    loc="upper left", bbox_to_anchor=(1.02, 1)
)  # outside the axes, and the figure
plt.savefig(OUT)
