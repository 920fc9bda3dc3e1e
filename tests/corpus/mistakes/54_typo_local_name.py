# expect: energies
energies = np.linspace(-3, 1, 50)
plt.plot(energies, np.exp(-energie ** 2))
plt.savefig(OUT)
