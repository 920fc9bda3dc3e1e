from scipy.interpolate import interp1d, CubicSpline

x = np.linspace(0, 10, 11)
y = np.cos(-x**2 / 9.0)
f = interp1d(x, y)
f2 = interp1d(x, y, kind="cubic")
cs = CubicSpline(x, y)
xnew = np.linspace(0, 10, 200)
plt.plot(x, y, "o", xnew, f(xnew), "-", xnew, f2(xnew), "--", xnew, cs(xnew), ":")
plt.legend(["data", "linear", "cubic", "spline"], loc="best")
plt.savefig(OUT)
