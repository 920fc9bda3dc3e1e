from collections import defaultdict


def chunks(seq, n):
    for i in range(0, len(seq), n):
        yield seq[i : i + n]


data = np.arange(100)
groups = defaultdict(list)
for k, c in enumerate(chunks(data, 10)):
    if (m := c.mean()) > 20:
        groups["high"].append(m)
    else:
        groups["low"].append(m)
plt.bar(groups.keys(), [len(v) for v in groups.values()])
plt.savefig(OUT)
