import numpy as np
import matplotlib.pyplot as plt

style = "seaborn-v0_8-whitegrid"
plt.style.use(style)
x = np.arange(10)
plt.plot(x, x ** 1.5, "o-")
plt.xlabel("n")
plt.ylabel("n^1.5")
plt.title(f"Style: {style}")
plt.savefig("styled.png")
