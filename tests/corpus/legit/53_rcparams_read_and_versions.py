# Reading a setting (never writing it) and the library versions in a caption.
import matplotlib

percent = r"\%" if plt.rcParams["text.usetex"] else "%"
x = np.linspace(0, 1, 50)
fig, ax = plt.subplots()
ax.plot(x, 100 * x**2)
ax.set_xlabel("fraction")
ax.set_ylabel(f"share ({percent})")
ax.set_title(f"matplotlib {matplotlib.__version__}, numpy {np.__version__}")
plt.savefig(OUT)
