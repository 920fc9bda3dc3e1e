# expect: 'intensity'
# expect: 'energy'
d = np.load('scans.npz')
plt.plot(d['counts'][0])
plt.savefig(OUT)
