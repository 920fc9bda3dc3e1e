import numpy as np
import matplotlib.pyplot as plt

# Written for PDFAgent: OUT is the path to save to.
x = np.linspace(0, 10, 50)
plt.plot(x, np.sqrt(x), "o-")
plt.xlabel("x")
plt.ylabel("sqrt(x)")
plt.savefig(OUT)
plt.show()
