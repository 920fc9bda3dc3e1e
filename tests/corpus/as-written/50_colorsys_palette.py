import colorsys
import numpy as np
import matplotlib.pyplot as plt

n = 8
colors = [colorsys.hls_to_rgb(i / n, 0.5, 0.7) for i in range(n)]
darker = [colorsys.hsv_to_rgb(*colorsys.rgb_to_hsv(*c)[:2], 0.6) for c in colors]
x = np.arange(n)
fig, ax = plt.subplots()
ax.bar(x - 0.2, np.arange(1, n + 1), width=0.4, color=colors)
ax.bar(x + 0.2, np.arange(n, 0, -1), width=0.4, color=darker)
ax.set_title("Evenly spaced hues (colorsys)")
plt.savefig("palette.png")
