import numpy as np
import matplotlib.pyplot as plt

x = np.random.default_rng(5).uniform(0, 1, (200, 2))
plt.scatter(x[:, 0], x[:, 1], s=8)
plt.gca().set_aspect("equal")
plt.xlabel("u")
plt.ylabel("v")
plt.title("Uniform samples")
plt.savefig("samples", format="png", dpi=100)
