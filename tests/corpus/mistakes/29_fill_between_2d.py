# expect: (2, 301)
spec = np.load('spectrum.npy')
plt.fill_between(np.arange(301), spec)
plt.savefig(OUT)
