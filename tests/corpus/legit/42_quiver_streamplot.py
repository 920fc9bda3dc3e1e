Y, X = np.mgrid[-3:3:100j, -3:3:100j]
U = -1 - X**2 + Y
V = 1 + X - Y**2
speed = np.sqrt(U**2 + V**2)
fig, (a, b) = plt.subplots(1, 2, figsize=(10, 4))
a.streamplot(X, Y, U, V, color=speed, cmap="autumn")
a.set_title("streamplot")
b.quiver(X[::8, ::8], Y[::8, ::8], U[::8, ::8], V[::8, ::8])
plt.savefig(OUT)
