import numpy as np
import matplotlib.pyplot as plt

spectrum = np.loadtxt("spectrum.txt")
wavelength, counts = spectrum[:, 0], spectrum[:, 1]

fig1, ax1 = plt.subplots()
ax1.plot(wavelength, counts)
ax1.set_title("Raw spectrum")
ax1.set_xlabel("wavelength (nm)")
ax1.set_ylabel("counts")

fig2, ax2 = plt.subplots()
ax2.plot(wavelength, counts / counts.max())
ax2.set_title("Normalised spectrum")
ax2.set_xlabel("wavelength (nm)")
ax2.set_ylabel("relative intensity")

fig3, ax3 = plt.subplots()
ax3.plot(wavelength[1:], np.diff(counts))
ax3.set_title("Derivative")
ax3.set_xlabel("wavelength (nm)")
ax3.set_ylabel("d counts")

plt.show()
