# expect: none
rng = np.random.default_rng(11)
fig, ax = plt.subplots()
ax.hist(rng.normal(0, 1, 2000), bins=40, alpha=0.7, label="control")
ax.hist(rng.normal(0.8, 1.2, 2000), bins=40, alpha=0.7, label="treated")
ax.set_xlabel("score")
ax.set_ylabel("count")
ax.legend()
plt.savefig(OUT)
