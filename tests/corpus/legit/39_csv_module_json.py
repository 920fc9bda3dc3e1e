import csv
import json

with np.load(srcpath("meta.npz")) as meta:
    scale = float(meta["scale"])
rows = list(csv.DictReader(np.loadtxt(srcpath("table.csv"), dtype=str, delimiter="\n")))
config = json.loads('{"title": "From CSV", "color": "teal"}')
xs = [float(r["x"]) * scale for r in rows]
ys = [float(r["y"]) for r in rows]
plt.plot(xs, ys, color=config["color"])
plt.title(config["title"])
plt.savefig(OUT)
