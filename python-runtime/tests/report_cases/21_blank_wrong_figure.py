# expect: blank
x = np.linspace(0, 1, 20)
plt.plot(x, x**2)
plt.xlabel("x")
plt.ylabel("x squared")
plt.figure()  # a new, empty current figure: savefig saves this one
plt.savefig(OUT)
