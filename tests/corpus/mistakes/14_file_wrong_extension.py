# expect: 'bands.csv'
data = np.loadtxt('bands.txt', delimiter=',', skiprows=1)
plt.plot(data[:, 0], data[:, 1])
plt.savefig(OUT)
