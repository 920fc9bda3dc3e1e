from scipy import signal

fs = 1000.0
t = np.arange(0, 1, 1 / fs)
x = np.sin(2 * np.pi * 5 * t) + 0.5 * np.sin(2 * np.pi * 120 * t)
b, a = signal.butter(4, 30, fs=fs)
y = signal.filtfilt(b, a, x)
f, pxx = signal.welch(x, fs=fs, nperseg=256)
fig, (ax1, ax2) = plt.subplots(2, 1)
ax1.plot(t, x, alpha=0.5)
ax1.plot(t, y)
ax2.semilogy(f, pxx)
plt.savefig(OUT)
