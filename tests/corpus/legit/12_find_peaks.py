from scipy.signal import find_peaks, savgol_filter

x = np.linspace(0, 6 * np.pi, 500)
y = np.sin(x) + 0.3 * np.sin(7 * x)
smooth = savgol_filter(y, 31, 3)
peaks, props = find_peaks(smooth, height=0.5)
plt.plot(x, y, lw=0.8)
plt.plot(x, smooth)
plt.plot(x[peaks], smooth[peaks], "x", ms=10)
plt.savefig(OUT)
