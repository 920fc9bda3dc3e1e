import textwrap
import time

import numpy as np
import matplotlib.pyplot as plt

start = time.perf_counter()
x = np.linspace(0, 1, 1000)
y = np.cumsum(np.random.default_rng(3).normal(0, 0.05, x.size))
elapsed = time.perf_counter() - start

title = "A random walk computed from one thousand normally distributed steps, shown as a single line"
plt.plot(x, y)
plt.title("\n".join(textwrap.wrap(title, 50)))
plt.xlabel("t")
plt.ylabel("position")
print(f"computed in {elapsed:.4f} s")
plt.tight_layout()
plt.savefig("random_walk.png")
