import numpy as np
import matplotlib.pyplot as plt

x = np.linspace(0, 10, 100)
fig, ax = plt.subplots()
for k in range(1, 4):
    # The colour the next line will get, for a band drawn before its line (a common answer).
    color = ax._get_lines.get_next_color()
    ax.fill_between(x, np.sin(x / k) - 0.2, np.sin(x / k) + 0.2, color=color, alpha=0.2)
    ax.plot(x, np.sin(x / k), color=color, label=f"k = {k}")
ax.legend()
fig.savefig("bands.png")
