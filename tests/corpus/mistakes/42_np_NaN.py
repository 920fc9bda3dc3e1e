# expect: np.nan
y = np.array([1.0, 2.0, np.NaN, 4.0])
plt.plot(y)
plt.savefig(OUT)
