from numpy import *
from matplotlib.pyplot import *

x = linspace(0, 2 * pi, 200)
y = sin(x) * exp(-x / 4)
print("area:", sum(abs(y)) * (x[1] - x[0]), "peak:", max(y))
plot(x, y, label="damped sine")
fill_between(x, 0, y, alpha=0.3)
legend()
title("from numpy import *")
show()
