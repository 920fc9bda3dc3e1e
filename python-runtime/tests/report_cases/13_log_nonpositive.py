# expect: log-nonpositive
t = np.linspace(0, 5, 200)
signal = np.exp(-t) * np.cos(6 * t)  # oscillates through zero
plt.semilogy(t, signal)
plt.xlabel("t (s)")
plt.ylabel("amplitude")
plt.savefig(OUT)
