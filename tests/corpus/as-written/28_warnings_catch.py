import warnings
import numpy as np
import matplotlib.pyplot as plt

with warnings.catch_warnings():
    warnings.simplefilter("ignore", category=RuntimeWarning)
    x = np.linspace(-2, 2, 401)
    y = np.log(np.abs(x))

plt.plot(x, y)
plt.ylim(-5, 1)
plt.xlabel("x")
plt.ylabel("log|x|")
plt.show()
