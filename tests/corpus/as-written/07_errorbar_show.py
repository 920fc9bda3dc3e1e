import numpy as np
import matplotlib.pyplot as plt

x = np.arange(1, 11)
y = 2.5 * x + np.random.default_rng(1).normal(0, 2, x.size)
yerr = np.full_like(y, 1.5)

plt.errorbar(x, y, yerr=yerr, fmt="o", capsize=4, label="measurements")
coef = np.polyfit(x, y, 1)
plt.plot(x, np.polyval(coef, x), "--", label=f"fit: {coef[0]:.2f}x + {coef[1]:.2f}")
plt.xlabel("x")
plt.ylabel("y")
plt.legend()
plt.title("Linear fit with error bars")
plt.show()
