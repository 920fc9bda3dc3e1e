import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

x = np.linspace(0, 4 * np.pi, 400)
plt.plot(x, np.sin(x) * np.exp(-x / 8))
plt.title("Damped oscillation")
plt.xlabel("t")
plt.ylabel("amplitude")
plt.savefig("damped.png")
