# A tick formatter with a bound unit (functools.partial), and a cached helper.
import functools
from matplotlib.ticker import FuncFormatter


def with_unit(value, pos, unit):
    return f"{value:g} {unit}"


@functools.lru_cache(maxsize=None)
def response(k):
    return 1 / (1 + k**2)


k = np.arange(0, 20)
fig, ax = plt.subplots()
ax.plot(k, [response(int(i)) for i in k], marker="o")
ax.yaxis.set_major_formatter(FuncFormatter(functools.partial(with_unit, unit="V")))
ax.set_xlabel("harmonic k")
ax.set_ylabel("amplitude")
ax.set_title("response")
plt.savefig(OUT)
