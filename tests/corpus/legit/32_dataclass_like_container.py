import collections
import statistics


class Series:
    def __init__(self, name, values):
        self.name = name
        self._values = list(values)

    def __len__(self):
        return len(self._values)

    def __iter__(self):
        return iter(self._values)

    def __getitem__(self, i):
        return self._values[i]

    def __repr__(self):
        return f"Series({self.name!r}, n={len(self)})"

    def mean(self):
        return statistics.mean(self._values)


Point = collections.namedtuple("Point", ["x", "y"])
pts = [Point(i, i * i) for i in range(10)]
s = Series("squares", (p.y for p in pts))
counts = collections.Counter(v % 3 for v in s)
plt.bar(list(counts.keys()), list(counts.values()))
plt.title(f"{s!r} mean={s.mean():.1f}")
plt.savefig(OUT)
