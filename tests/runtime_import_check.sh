#!/usr/bin/env bash
# tests/runtime_import_check.sh [DIST] — the built runtime works on its own, moved.
#
# The app embeds libpython and ships no python binary, so this test borrows the build's
# python3.11 executable, relinks it against the COPY's libpython ($ORIGIN rpath) and runs it
# isolated (-I: no PYTHON* variables, prefix found from the executable's place) under
# `env -i`, in a private mount namespace where the host's Pythons (/root/.pyenv,
# /usr/lib/python3*) are hidden under empty tmpfs. The runtime is copied to a fresh
# temporary folder first, so this also proves it is relocatable, and mounted read-only, so
# it proves nothing writes into it. Needs root (unshare -m).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DIST="${1:-$ROOT/python-runtime/dist}"
# The interpreter the runtime was made from, found the way scripts/build-runtime finds it.
PY_HOST="${PY_HOST:-$("$ROOT/scripts/build-runtime" --print-python)}"
POLICY="$ROOT/python-runtime/allowlist.toml"
fail() { echo "runtime_import_check: $*" >&2; exit 1; }
[ -f "$DIST/runtime-manifest.json" ] || fail "no runtime at \`$DIST\`: build it with scripts/build-runtime"
[ -x "$PY_HOST" ] || fail "needs a python3.11 executable to borrow at \`$PY_HOST\` (set PY_HOST)"
command -v patchelf >/dev/null || fail "needs patchelf: apt-get install patchelf"
command -v unshare >/dev/null || fail "needs unshare (util-linux)"
[ "$(id -u)" = 0 ] || fail "needs root for a private mount namespace (unshare -m)"

TMP="$(mktemp -d /tmp/runtime-import-check.XXXXXX)"
trap 'rm -rf "$TMP"' EXIT
cp -a "$DIST" "$TMP/rt"
mkdir -p "$TMP/rt/bin" "$TMP/data" "$TMP/out"
cp "$PY_HOST" "$TMP/rt/bin/python3.11"
patchelf --set-rpath '$ORIGIN/../lib' "$TMP/rt/bin/python3.11"
MODULES="$("$PY_HOST" -c 'import tomllib,sys; print(" ".join(m["name"] for m in tomllib.load(open(sys.argv[1],"rb"))["module"]))' "$POLICY")"
FONT_CACHE="$("$PY_HOST" -c 'import json,sys; print(json.load(open(sys.argv[1]))["layout"]["font_cache"])' "$DIST/runtime-manifest.json")"
cp -r "$TMP/rt/mplconfig" "$TMP/mplconfig"

cat >"$TMP/check.py" <<'PY'
import importlib, os, sys, time, traceback

prefix, modules, data, out, font_cache = sys.argv[1], sys.argv[2].split(), sys.argv[3], sys.argv[4], sys.argv[5]
results = []

def case(name):
    def wrap(fn):
        t = time.perf_counter()
        try:
            fn()
            results.append((name, True, ""))
        except Exception:
            results.append((name, False, traceback.format_exc()))
        print(f"{'ok  ' if results[-1][1] else 'FAIL'} {name} ({(time.perf_counter() - t) * 1000:.0f} ms)")
        if not results[-1][1]:
            print(results[-1][2])
    return wrap

@case("interpreter is isolated and lives in the copy")
def _():
    assert sys.flags.isolated == 1, sys.flags
    assert sys.prefix == prefix, (sys.prefix, prefix)
    outside = [p for p in sys.path if p and not p.startswith(prefix + "/")]
    assert not outside, f"sys.path entries outside the runtime: {outside}"
    assert any(p.endswith("site-packages") for p in sys.path), sys.path

@case(f"imports {len(modules)}/{len(modules)} allowlisted modules")
def _():
    for m in modules:
        importlib.import_module(m)

@case("public submodules import")
def _():
    for m in """numpy.linalg numpy.fft numpy.random numpy.polynomial numpy.ma numpy.lib numpy.testing
    scipy.io scipy.io.matlab scipy.signal scipy.optimize scipy.interpolate scipy.stats scipy.special
    scipy.integrate scipy.ndimage scipy.fft scipy.fftpack scipy.linalg scipy.sparse scipy.sparse.linalg
    scipy.sparse.csgraph scipy.spatial scipy.spatial.transform scipy.cluster scipy.cluster.hierarchy
    scipy.cluster.vq scipy.odr scipy.constants scipy.differentiate
    matplotlib.pyplot matplotlib.dates matplotlib.ticker matplotlib.colors matplotlib.cm matplotlib.patches
    matplotlib.gridspec matplotlib.animation matplotlib.collections matplotlib.lines matplotlib.tri
    matplotlib.backends.backend_agg matplotlib.backends.backend_pdf matplotlib.backends.backend_svg
    matplotlib.backends.backend_ps matplotlib.backends.backend_pgf
    mpl_toolkits.mplot3d mpl_toolkits.axes_grid1 mpl_toolkits.axisartist
    pandas.plotting pandas.api.types pandas.tseries.offsets PIL.Image
    hashlib random uuid zlib bz2 lzma ctypes zoneinfo""".split():
        importlib.import_module(m)
    import hashlib
    hashlib.md5(b"x").hexdigest(); hashlib.sha256(b"x").hexdigest(); hashlib.blake2b(b"x")

@case("importlib.metadata sees the shipped distributions")
def _():
    from importlib.metadata import version
    import matplotlib, numpy, pandas, scipy
    for mod in (matplotlib, numpy, pandas, scipy):
        assert version(mod.__name__) == mod.__version__

@case("matplotlib Agg savefig png/pdf/svg/ps/jpg/tiff/webp with text, imread, font cache not rebuilt")
def _():
    cache = os.path.join(os.environ["MPLCONFIGDIR"], os.path.basename(font_cache))
    before = open(cache, "rb").read()
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots()
    ax.plot([1, 2, 3], [3, 1, 2], label="data"); ax.set_title("Title – ünïcode μ")
    ax.legend(); ax.set_xlabel(r"$\alpha^2$")
    for ext in ("png", "pdf", "svg", "ps", "jpg", "tiff", "webp"):
        path = os.path.join(out, "x." + ext)
        fig.savefig(path)
        assert os.path.getsize(path) > 1000, path
    img = plt.imread(os.path.join(out, "x.png"))
    assert img.ndim == 3 and img.shape[0] > 100, img.shape
    assert open(cache, "rb").read() == before, "matplotlib rewrote its font cache"
    from matplotlib import font_manager
    f = font_manager.findfont("DejaVu Sans")
    assert f.startswith(prefix + "/"), f

@case("3-D axes")
def _():
    import matplotlib.pyplot as plt
    import numpy as np
    fig = plt.figure(); ax = fig.add_subplot(projection="3d")
    ax.plot_surface(*np.meshgrid(np.arange(5), np.arange(5)), np.ones((5, 5)))
    fig.savefig(os.path.join(out, "3d.png"))

@case("pandas read_csv with datetimes, plotted")
def _():
    import pandas as pd, matplotlib.pyplot as plt
    df = pd.read_csv(os.path.join(data, "t.csv"), parse_dates=["when"])
    assert str(df["when"].dtype).startswith("datetime64"), df.dtypes
    assert df["v"].sum() == 6
    df["when"] = df["when"].dt.tz_localize("Europe/Paris")
    fig, ax = plt.subplots(); ax.plot(df["when"], df["v"]); fig.savefig(os.path.join(out, "ts.png"))
    df.groupby(df["when"].dt.day)["v"].mean()

@case("scipy.io loadmat and numerics")
def _():
    import numpy as np, scipy.io, scipy.optimize, scipy.signal, scipy.interpolate, scipy.stats
    m = scipy.io.loadmat(os.path.join(data, "m.mat"))
    assert np.allclose(m["x"], np.arange(6).reshape(2, 3))
    popt, _ = scipy.optimize.curve_fit(lambda t, a, b: a * t + b, np.arange(10.0), 2 * np.arange(10.0) + 1)
    assert np.allclose(popt, [2, 1])
    b, a = scipy.signal.butter(3, 0.2); scipy.signal.filtfilt(b, a, np.random.default_rng(0).normal(size=100))
    scipy.interpolate.CubicSpline(np.arange(5), np.arange(5) ** 2)(2.5)
    scipy.stats.norm.fit(np.random.default_rng(0).normal(size=100))
    assert np.allclose(np.linalg.inv(np.eye(3) * 2), np.eye(3) / 2)

@case("matplotlib sample data for the gallery examples (cbook.get_sample_data)")
def _():
    from matplotlib import cbook
    import matplotlib.pyplot as plt
    dem = cbook.get_sample_data("jacksboro_fault_dem.npz")
    assert dem["elevation"].ndim == 2, dem.files
    with cbook.get_sample_data("grace_hopper.jpg") as fh:
        assert plt.imread(fh).shape[2] == 3
    assert cbook.get_sample_data("axes_grid/bivariate_normal.npy").ndim == 2
    import pandas as pd
    assert "Date" in pd.read_csv(cbook.get_sample_data("Stocks.csv"), comment="#").columns

passed = sum(1 for r in results if r[1])
print(f"{passed} passed, {len(results) - passed} failed")
sys.exit(0 if passed == len(results) else 1)
PY

printf 'when,v\n2024-01-01 10:00,1\n2024-01-02 11:30,2\n2024-01-03 12:45,3\n' >"$TMP/data/t.csv"
# The .mat file is made by the host Python if it has scipy, else by the runtime itself
# (before the host is hidden) — either way loadmat reads a real MAT v5 file.
env -i PATH=/usr/bin:/bin "$TMP/rt/bin/python3.11" -I -c \
  'import numpy as np, scipy.io, sys; scipy.io.savemat(sys.argv[1], {"x": np.arange(6).reshape(2, 3)})' "$TMP/data/m.mat"

HIDE=(/root/.pyenv)
for d in /usr/lib/python3* /usr/local/lib/python3*; do [ -d "$d" ] && HIDE+=("$d"); done
# shellcheck disable=SC2016
unshare -m bash -euc '
  mount --make-rprivate /
  tmp="$1"; shift; modules="$1"; shift; font_cache="$1"; shift
  for d in "$@"; do mount -t tmpfs none "$d"; done
  # Read-only, as an installed bundle is: the runtime must never need to write into itself.
  mount --bind "$tmp/rt" "$tmp/rt" && mount -o remount,bind,ro "$tmp/rt"
  if touch "$tmp/rt/.probe" 2>/dev/null; then echo "runtime copy is not read-only" >&2; exit 1; fi
  [ -z "$(ls -A /root/.pyenv)" ] || { echo "host python not hidden" >&2; exit 1; }
  exec env -i PATH=/usr/bin:/bin MPLCONFIGDIR="$tmp/mplconfig" "$tmp/rt/bin/python3.11" -I "$tmp/check.py" \
    "$tmp/rt" "$modules" "$tmp/data" "$tmp/out" "$font_cache"
' _ "$TMP" "$MODULES" "$FONT_CACHE" "${HIDE[@]}"
