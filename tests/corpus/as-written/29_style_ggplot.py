import numpy as np
import matplotlib.pyplot as plt

plt.style.use("ggplot")
categories = ["alpha", "beta", "gamma", "delta"]
values = [23, 17, 35, 29]
plt.barh(categories, values)
plt.xlabel("count")
plt.title("Counts per category")
plt.show()
