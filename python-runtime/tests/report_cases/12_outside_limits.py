# expect: outside-limits
wavelength = np.linspace(400, 700, 200)  # nm
counts = np.exp(-(((wavelength - 550) / 30) ** 2))
plt.plot(wavelength, counts)
plt.xlim(0.4, 0.7)  # limits in micrometres, data in nanometres
plt.xlabel("wavelength (um)")
plt.ylabel("counts")
plt.savefig(OUT)
