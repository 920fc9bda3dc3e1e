# expect: 'spectrum.npy'
spec = np.load('spectrum_data.npy')
plt.plot(spec[0], spec[1])
plt.savefig(OUT)
