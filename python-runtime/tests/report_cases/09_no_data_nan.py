# expect: no-data
t = np.linspace(0, 10, 100)
good = np.sin(t)
bad = np.log(-1 - np.abs(good))  # a wrong formula: NaN everywhere
plt.plot(t, good, label="signal")
plt.plot(t, bad, label="log signal")
plt.xlabel("t (s)")
plt.ylabel("V")
plt.legend()
plt.savefig(OUT)
