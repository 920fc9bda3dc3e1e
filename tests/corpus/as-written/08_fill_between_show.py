import numpy as np
import matplotlib.pyplot as plt

t = np.linspace(0, 10, 300)
mean = np.sin(t)
std = 0.2 + 0.1 * np.cos(t)

fig, ax = plt.subplots()
ax.plot(t, mean, color="C0", label="mean")
ax.fill_between(t, mean - std, mean + std, color="C0", alpha=0.3, label="±1σ")
ax.set_xlabel("time (s)")
ax.set_ylabel("signal")
ax.legend(loc="upper right")
plt.show()
