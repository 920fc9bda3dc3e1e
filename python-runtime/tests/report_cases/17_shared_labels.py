# expect: none
# The right panel shares y with a labelled one: a y label there would repeat it (its x axis is
# its own, so it has its own x label).
fig, (a, b) = plt.subplots(1, 2, sharey=True, figsize=(8, 3.5))
x = np.linspace(0, 3, 100)
a.plot(x, np.exp(-x))
a.set_xlabel("time (s)")
a.set_ylabel("signal (V)")
b.plot(x, np.exp(-2 * x))
b.set_xlabel("time (s)")
b.set_title("faster decay")
fig.tight_layout()
plt.savefig(OUT)
