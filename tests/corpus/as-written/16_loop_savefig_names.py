import numpy as np
import matplotlib.pyplot as plt

runs = ["run1", "run2", "run3"]
for name in runs:
    data = np.loadtxt(f"runs/{name}.txt")
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.plot(data[:, 0], data[:, 1], "o-")
    ax.set_title(f"Decay curve: {name}")
    ax.set_xlabel("t (s)")
    ax.set_ylabel("signal")
    fig.savefig(f"{name}.png", dpi=120)
    plt.close(fig)
    print(f"saved {name}.png")
