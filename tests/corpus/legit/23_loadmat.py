m = loadmat(srcpath("recording.mat"))
sig = np.squeeze(m["signal"])
fs = float(np.squeeze(m["fs"]))
t = np.arange(sig.size) / fs
plt.plot(t, sig, lw=0.5)
plt.xlabel("t [s]")
plt.savefig(OUT)
