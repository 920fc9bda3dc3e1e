from matplotlib.ticker import Formatter, FuncFormatter, MaxNLocator


class EngineeringFormatter(Formatter):
    prefixes = {-6: "µ", -3: "m", 0: "", 3: "k", 6: "M"}

    def __init__(self, unit="Hz", places=1):
        super().__init__()
        self._unit = unit
        self._places = places

    def __call__(self, x, pos=None):
        if x == 0:
            return f"0 {self._unit}"
        exp = int(np.floor(np.log10(abs(x)) / 3) * 3)
        exp = max(-6, min(6, exp))
        return f"{x / 10**exp:.{self._places}f} {self.prefixes[exp]}{self._unit}"


fig, ax = plt.subplots()
f = np.logspace(1, 6, 100)
ax.semilogx(f, np.log(f))
ax.xaxis.set_major_formatter(EngineeringFormatter())
ax.yaxis.set_major_formatter(FuncFormatter(lambda v, p: "{:.1f}".format(v)))
ax.yaxis.set_major_locator(MaxNLocator(5))
plt.savefig(OUT)
