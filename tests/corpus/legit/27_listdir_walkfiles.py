import re

files = sorted(f for f in listdir("runs") if f.endswith(".csv"))
fig, ax = plt.subplots()
for name in files:
    d = np.genfromtxt(srcpath("runs/" + name), delimiter=",", names=True)
    m = re.search(r"run_(\d+)", name)
    ax.plot(d["t"], d["v"], label=m.group(1) if m else name)
n_all = len(list(walkfiles()))
ax.set_title(f"{len(files)} runs of {n_all} files in {SRC}")
ax.legend(fontsize="small")
plt.savefig(OUT)
