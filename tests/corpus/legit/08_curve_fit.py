from scipy.optimize import curve_fit

def model(t, a, tau, c):
    return a * np.exp(-t / tau) + c

t = np.linspace(0, 5, 60)
rng = np.random.default_rng(1)
y = model(t, 2.5, 1.3, 0.4) + 0.05 * rng.normal(size=t.size)
popt, pcov = curve_fit(model, t, y, p0=(1, 1, 0))
perr = np.sqrt(np.diag(pcov))
plt.plot(t, y, ".", label="data")
plt.plot(t, model(t, *popt), "-", label=f"fit: tau={popt[1]:.2f}±{perr[1]:.2f}")
plt.legend()
plt.savefig(OUT)
