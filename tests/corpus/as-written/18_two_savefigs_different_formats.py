import numpy as np
import matplotlib.pyplot as plt

x = np.linspace(0, 1, 50)
fig, ax = plt.subplots()
ax.plot(x, x ** 0.5, label="sqrt")
ax.plot(x, x ** 2, label="square")
ax.legend()
ax.set_xlabel("x")
ax.set_ylabel("y")
fig.savefig("curves.png", dpi=200)
fig.savefig("curves.pdf")
