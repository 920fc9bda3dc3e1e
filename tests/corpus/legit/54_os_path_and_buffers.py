# Path strings with os.path (no file system), text data parsed from an in-memory buffer.
import io
import os

names = [os.path.join("runs", f"run_{i}.csv") for i in (1, 2, 3)]
fig, ax = plt.subplots()
for name in names:
    data = np.loadtxt(srcpath(name), delimiter=",", skiprows=1)
    label = os.path.splitext(os.path.basename(name))[0]
    ax.plot(data[:, 0], data[:, 1], label=label)
table = np.loadtxt(io.StringIO("0 0.5\n5 0.9\n10 0.1\n"))
ax.scatter(table[:, 0], table[:, 1], color="k", label="marks", zorder=3)
ax.set_xlabel("t (s)")
ax.set_ylabel("v")
ax.set_title("runs")
ax.legend()
plt.savefig(OUT)
