class Style:
    def __init__(self, **rc):
        self._rc = rc
        self._saved = {}

    def __enter__(self):
        self._saved = {k: plt.rcParams[k] for k in self._rc}
        plt.rcParams.update(self._rc)
        return self

    def __exit__(self, *exc):
        plt.rcParams.update(self._saved)
        return False


with Style(**{"lines.linewidth": 3, "axes.grid": True}):
    plt.plot([1, 3, 2])
plt.savefig(OUT)
