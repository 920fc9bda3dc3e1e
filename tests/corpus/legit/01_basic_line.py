# The article's first legitimate sample: a basic plot saved to OUT.
x = np.linspace(0, 2 * np.pi, 200)
plt.plot(x, np.sin(x), label="sin")
plt.plot(x, np.cos(x), label="cos")
plt.legend()
plt.title("Basic plot")
plt.savefig(OUT)
