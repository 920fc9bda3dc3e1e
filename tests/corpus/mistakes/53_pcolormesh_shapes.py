# expect: (5, 5)
plt.pcolormesh(np.arange(5), np.arange(4), np.zeros((5, 5)))
plt.savefig(OUT)
