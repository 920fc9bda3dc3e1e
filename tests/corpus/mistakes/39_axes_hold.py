# expect: drop the call
fig, ax = plt.subplots()
ax.hold(True)
ax.plot([1, 2, 3])
fig.savefig(OUT)
