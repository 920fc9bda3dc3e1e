# expect: np.float64
x = np.arange(5).astype(np.float)
plt.plot(x)
plt.savefig(OUT)
