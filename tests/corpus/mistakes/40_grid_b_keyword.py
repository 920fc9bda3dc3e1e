# expect: visible=True
fig, ax = plt.subplots()
ax.plot([1, 2, 3])
ax.grid(b=True, which='major', linestyle='--')
fig.savefig(OUT)
