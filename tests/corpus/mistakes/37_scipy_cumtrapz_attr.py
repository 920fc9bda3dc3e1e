# expect: cumulative_trapezoid
import scipy.integrate

x = np.linspace(0, 1, 11)
y = scipy.integrate.cumtrapz(x ** 2, x, initial=0)
plt.plot(x, y)
plt.savefig(OUT)
