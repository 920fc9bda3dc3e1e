# expect-ok
# expect: 'spectrum.npy'
spec = np.load('~/data/spectrum.npy')
plt.plot(spec[0], spec[1])
plt.savefig(OUT)
