import numpy as np
import matplotlib.pyplot as plt

x = np.linspace(-3, 3, 200)
for s in (0.5, 1.0, 2.0):
    plt.plot(x, np.exp(-x**2 / (2 * s**2)) / (s * np.sqrt(2 * np.pi)), label=f"σ = {s}")
plt.legend()
plt.xlabel("x")
plt.ylabel("density")
plt.title("Gaussians")
plt.savefig("gaussians.pdf", bbox_inches="tight")
