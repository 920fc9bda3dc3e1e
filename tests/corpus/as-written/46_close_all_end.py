import numpy as np
import matplotlib.pyplot as plt

x = np.linspace(0, 1, 100)
fig, ax = plt.subplots()
ax.plot(x, 3 * x * (1 - x))
ax.set_xlabel("x")
ax.set_ylabel("y")
fig.savefig("parabola.jpg", dpi=100)
plt.close("all")
