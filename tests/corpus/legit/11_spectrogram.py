import scipy.signal as sig

fs = 8000
t = np.arange(0, 2, 1 / fs)
chirp = sig.chirp(t, f0=100, f1=2000, t1=2, method="quadratic")
f, tt, Sxx = sig.spectrogram(chirp, fs)
plt.pcolormesh(tt, f, 10 * np.log10(Sxx + 1e-12), shading="gouraud")
plt.ylabel("Frequency [Hz]")
plt.xlabel("Time [s]")
plt.savefig(OUT)
