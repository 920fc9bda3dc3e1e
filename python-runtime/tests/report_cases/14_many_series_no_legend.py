# expect: many-series-no-legend
x = np.linspace(0, 1, 100)
fig, ax = plt.subplots()
for temperature in (2, 5, 10, 20, 50, 100, 200, 300):
    ax.plot(x, np.tanh(x * 300 / temperature), label=f"{temperature} K")
ax.set_xlabel("B (T)")
ax.set_ylabel("M / Ms")
plt.savefig(OUT)
