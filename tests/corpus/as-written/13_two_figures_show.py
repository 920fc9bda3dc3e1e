import numpy as np
import matplotlib.pyplot as plt

x = np.linspace(0, 5, 100)

# Figure 1: the function
plt.figure()
plt.plot(x, np.exp(-x))
plt.title("exp(-x)")
plt.xlabel("x")
plt.ylabel("y")

# Figure 2: its log
plt.figure()
plt.semilogy(x, np.exp(-x))
plt.title("exp(-x), log scale")
plt.xlabel("x")
plt.ylabel("y")

plt.show()
