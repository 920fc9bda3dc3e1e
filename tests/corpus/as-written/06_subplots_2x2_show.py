import numpy as np
import matplotlib.pyplot as plt

x = np.linspace(0, 10, 100)

fig, axes = plt.subplots(2, 2, figsize=(10, 8))
axes[0, 0].plot(x, np.sin(x))
axes[0, 0].set_title("sin")
axes[0, 1].plot(x, np.cos(x), color="orange")
axes[0, 1].set_title("cos")
axes[1, 0].plot(x, np.exp(-x / 3), color="green")
axes[1, 0].set_title("decay")
axes[1, 1].plot(x, x ** 2, color="red")
axes[1, 1].set_title("square")
for ax in axes.flat:
    ax.set_xlabel("x")
    ax.set_ylabel("f(x)")
plt.tight_layout()
plt.show()
