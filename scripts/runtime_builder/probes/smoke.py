"""Run inside the staged runtime: every allowlisted module imports, the submodules plotting code
uses import, a figure saves, CJK text uses the fallback font, and matplotlib's sample data is
there (gallery examples read it with cbook.get_sample_data)."""

import importlib
import io
import sys

EXTRA = [
    "numpy.linalg", "numpy.fft", "numpy.random", "numpy.polynomial", "numpy.ma", "scipy.io",
    "scipy.signal", "scipy.optimize", "scipy.interpolate", "scipy.stats", "scipy.special",
    "scipy.integrate", "scipy.ndimage", "scipy.fft", "scipy.linalg", "scipy.sparse",
    "scipy.spatial", "scipy.cluster", "scipy.odr", "matplotlib.pyplot", "mpl_toolkits.mplot3d",
    "mpl_toolkits.axes_grid1", "pandas.plotting", "PIL.Image", "hashlib", "zlib", "bz2", "lzma",
    "ctypes", "zoneinfo", "h5py", "openpyxl",
]

for name in sys.argv[1].split() + EXTRA:
    importlib.import_module(name)

import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib import cbook  # noqa: E402

fig, ax = plt.subplots()
ax.plot([1, 2, 3], [3, 1, 2])
buf = io.BytesIO()
fig.savefig(buf, format="png")
assert buf.tell() > 1000
ax.set_title("\u78c1\u573a\u626b\u63cf")
buf = io.BytesIO()
fig.savefig(buf, format="pdf")
assert b"DroidSansFallback" in buf.getvalue(), "the CJK fallback font is not used"
dem = cbook.get_sample_data("jacksboro_fault_dem.npz")
assert dem["elevation"].size > 0, "matplotlib's sample data is missing"
