# expect: load(
import json

with open('meta.json') as f:
    meta = json.load(f)
plt.title(meta['sample'])
plt.plot([1, 2])
plt.savefig(OUT)
