# expect: empty-axes
fig, (left, right) = plt.subplots(1, 2, figsize=(8, 3))
x = np.arange(10)
left.plot(x, x**2)
left.set_xlabel("n")
left.set_ylabel("n squared")
# the right panel was meant for the residuals, and nothing was drawn into it
fig.tight_layout()
plt.savefig(OUT)
