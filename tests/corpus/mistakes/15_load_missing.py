# expect: 'spectrum.npy'
spec = load('spectra.npy')
plt.plot(spec[0], spec[1])
plt.savefig(OUT)
