# expect: none
# Many runs of the same thing in one colour, and their mean: nothing for a legend to tell apart.
rng = np.random.default_rng(3)
t = np.arange(100)
walks = np.cumsum(rng.normal(size=(20, 100)), axis=1)
fig, ax = plt.subplots()
for w in walks:
    ax.plot(t, w, color="grey", alpha=0.4, lw=0.8)
ax.set_xlabel("step")
ax.set_ylabel("position")
ax.set_title("20 random walks")
plt.savefig(OUT)
