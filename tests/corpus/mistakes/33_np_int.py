# expect: np.int64
idx = np.array([0.2, 1.7]).astype(np.int)
plt.plot(idx)
plt.savefig(OUT)
