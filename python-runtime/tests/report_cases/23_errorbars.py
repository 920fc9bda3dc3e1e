# expect: none
# Error-bar caps are lines too: they must not count as series.
x = np.arange(1, 6)
fig, ax = plt.subplots()
for k in range(3):
    ax.errorbar(
        x, x * (k + 1), yerr=0.3 * x, capsize=3, marker="o", label=f"sample {k + 1}"
    )
ax.set_xlabel("dose (mg)")
ax.set_ylabel("response")
ax.legend()
plt.savefig(OUT)
