# expect: simpson
from scipy.integrate import simps

x = np.linspace(0, 1, 11)
print(simps(x ** 2, x))
plt.plot(x, x ** 2)
plt.savefig(OUT)
