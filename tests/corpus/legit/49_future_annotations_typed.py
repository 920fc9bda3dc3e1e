from __future__ import annotations

import numpy as np
from matplotlib.axes import Axes


def plot_band(ax: Axes, x: np.ndarray, lo: np.ndarray, hi: np.ndarray, *, color: str = "C0") -> None:
    ax.fill_between(x, lo, hi, color=color, alpha=0.3)


fig, ax = plt.subplots()
x = np.linspace(0, 1, 20)
plot_band(ax, x, x - 0.1, x + 0.1)
plt.savefig(OUT)
