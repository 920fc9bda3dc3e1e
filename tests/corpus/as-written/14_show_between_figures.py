import numpy as np
import matplotlib.pyplot as plt

rng = np.random.default_rng(42)
a = rng.normal(0, 1, 500)
b = rng.normal(1, 0.5, 500)

plt.hist(a, bins=25, alpha=0.7)
plt.title("Sample A")
plt.xlabel("value")
plt.ylabel("count")
plt.show()

plt.hist(b, bins=25, alpha=0.7, color="orange")
plt.title("Sample B")
plt.xlabel("value")
plt.ylabel("count")
plt.show()
