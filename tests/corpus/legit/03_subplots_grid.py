import numpy as np
import matplotlib.pyplot as plt

fig, axes = plt.subplots(2, 2, figsize=(8, 6), sharex=True)
x = np.linspace(0, 10, 100)
for i, ax in enumerate(axes.flat):
    ax.plot(x, np.sin(x + i), color=f"C{i}")
    ax.set_title(f"phase {i}")
fig.tight_layout()
fig.savefig(OUT)
