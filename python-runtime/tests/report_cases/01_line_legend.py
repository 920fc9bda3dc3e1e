# expect: none
x = np.linspace(0, 2 * np.pi, 200)
plt.plot(x, np.sin(x), label="sin")
plt.plot(x, np.cos(x), label="cos")
plt.xlabel("phase (rad)")
plt.ylabel("amplitude")
plt.title("Sine and cosine")
plt.legend()
plt.savefig(OUT)
