# expect: text-outside
x = np.linspace(0, 1, 50)
fig, ax = plt.subplots(figsize=(4, 3))
ax.plot(x, np.sqrt(x))
ax.set_xlabel("x")
ax.set_ylabel("sqrt(x)")
ax.set_title(
    "The square root of x over the unit interval, sampled at fifty points", fontsize=14
)
plt.savefig(OUT)
