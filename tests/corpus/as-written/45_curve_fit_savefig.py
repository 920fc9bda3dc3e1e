import numpy as np
import matplotlib.pyplot as plt
from scipy.optimize import curve_fit

data = np.loadtxt("spectrum.txt")
wl, counts = data[:, 0], data[:, 1]


def gaussian(x, a, mu, sigma):
    return a * np.exp(-((x - mu) ** 2) / (2 * sigma ** 2))


popt, _ = curve_fit(gaussian, wl, counts, p0=[1000, 550, 30])
plt.plot(wl, counts, ".", label="data")
plt.plot(wl, gaussian(wl, *popt), "-", label=f"fit: μ={popt[1]:.1f} nm, σ={popt[2]:.1f} nm")
plt.xlabel("Wavelength (nm)")
plt.ylabel("Counts")
plt.legend()
plt.savefig("fit_result.png", dpi=300, bbox_inches="tight")
plt.show()
