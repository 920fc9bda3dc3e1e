import matplotlib
matplotlib.use('TkAgg')  # interactive window
import matplotlib.pyplot as plt
import numpy as np

theta = np.linspace(0, 2 * np.pi, 100)
r = 1 + 0.3 * np.sin(5 * theta)
ax = plt.subplot(projection='polar')
ax.plot(theta, r)
ax.set_title('Flower curve')
plt.show()
