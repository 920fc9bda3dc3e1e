import numpy as np
import matplotlib.pyplot as plt

data = np.load("signal.npy")
plt.figure(figsize=(12, 4))
plt.plot(data, linewidth=0.8)
plt.xlabel("sample")
plt.ylabel("amplitude")
plt.title("Signal")
plt.savefig("signal_plot.png", dpi=150)
plt.show()
