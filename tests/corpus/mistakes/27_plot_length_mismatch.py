# expect: (10,)
# expect: (5,)
x = np.linspace(0, 1, 10)
y = np.linspace(0, 1, 5) ** 2
plt.plot(x, y)
plt.savefig(OUT)
