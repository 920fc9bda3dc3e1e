# expect: no-data
x = np.linspace(0, 1, 50)
with np.errstate(divide="ignore"):
    y = np.ones_like(x) / 0.0  # inf everywhere
fig, ax = plt.subplots()
ax.plot(x, x, label="ok")
ax.plot(x, y, label="ratio")
ax.set_xlabel("x")
ax.set_ylabel("y")
ax.legend()
plt.savefig(OUT)
