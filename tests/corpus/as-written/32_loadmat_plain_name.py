import numpy as np
import matplotlib.pyplot as plt
from scipy.io import loadmat

mat = loadmat("sweep.mat")
B = mat["B"].ravel()
T = mat["T"].ravel()
R = mat["R"]

fig, ax = plt.subplots()
for i, temp in enumerate(T):
    ax.plot(B, R[i], label=f"{temp:g} K")
ax.set_xlabel("B (T)")
ax.set_ylabel("R (Ω)")
ax.legend(title="T")
ax.set_title("Magnetoresistance")
plt.savefig("magnetoresistance.png", dpi=300, bbox_inches="tight")
