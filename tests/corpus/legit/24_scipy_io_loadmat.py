from scipy import io

mat = io.loadmat(srcpath("grid.mat"), squeeze_me=True)
field = mat["field"]
plt.contourf(field, levels=20, cmap="plasma")
plt.colorbar()
plt.savefig(OUT)
