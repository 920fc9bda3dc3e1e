import numpy as np
import matplotlib.pyplot as plt

yy, xx = np.mgrid[-3:3:200j, -3:3:200j]
field = np.sin(xx ** 2 + yy ** 2)
plt.imsave("field.png", field, cmap="magma")
