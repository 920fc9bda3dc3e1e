import numpy as np
import matplotlib.pyplot as plt

plt.ion()
fig, ax = plt.subplots()
x = np.linspace(0, 2 * np.pi, 100)
line, = ax.plot(x, np.sin(x))
ax.set_xlabel("x")
ax.set_ylabel("y")
for phase in np.linspace(0, np.pi, 5):
    line.set_ydata(np.sin(x + phase))
    fig.canvas.draw()
    plt.pause(0.05)
plt.ioff()
ax.set_title("Final frame")
plt.show()
