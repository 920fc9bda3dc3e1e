import numpy as np
import matplotlib.pyplot as plt

x = np.linspace(-3, 3, 150)
y = np.linspace(-3, 3, 150)
X, Y = np.meshgrid(x, y)
Z = np.sin(X) * np.cos(Y)

fig, ax = plt.subplots(figsize=(7, 6))
cs = ax.contourf(X, Y, Z, levels=20, cmap="RdBu_r")
fig.colorbar(cs, ax=ax, label="amplitude")
ax.set_xlabel("x")
ax.set_ylabel("y")
ax.set_title("sin(x) cos(y)")
plt.show()
