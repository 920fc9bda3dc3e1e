# expect: none
# Empty lines made only to be legend entries are not a data problem.
x = np.linspace(0, 1, 100)
fig, ax = plt.subplots()
for k in range(3):
    ax.plot(x, x + k, color="black", ls=["-", "--", ":"][k])
ax.plot([], [], color="black", ls="-", label="run A")
ax.plot([], [], color="black", ls="--", label="run B")
ax.plot([], [], color="black", ls=":", label="run C")
ax.legend()
ax.set_xlabel("x")
ax.set_ylabel("y")
plt.savefig(OUT)
