#!/usr/bin/env python3
"""The data-size table of scripts/bench: what a figure costs as its input grows, PDFAgent's
cold `make-figure` beside the seed-style run of the same code (scripts/bench-seed-baseline.py,
shared design), measured in one run.

For each format (.npy read whole with np.load, .csv with pandas, .mat v5 with loadmat) and
each size (MiB, --sizes), one data file is generated into a temporary folder (removed at the
end; nothing is kept), then:
  * first: one `make-figure` with an empty input-hash cache (a fresh XDG_DATA_HOME): the
    first figure on these data, which hashes them;
  * then --runs alternating pairs (PDFAgent, seed; the order flips each run) with the
    cache warm, as every later figure on unchanged data is.
Per-MiB cost: the slope between the smallest and the largest size, per side (ms/MiB), and
their ratio. Two more rows read 20,000 points of the .npy through np.load(..., mmap_mode='r'),
at --mmap-sizes (default 8,400): "strided" across the whole file (the issue's figure: it
touches one page in five of the file, a cost the seed-style run pays the same) and "first"
(the first 20,000 points: what the file's size alone costs PDFAgent). Their large ÷ small
ratios and absolute growth (ms) are in the second table.

Files are generated at least RACY_WINDOW (2 s) before the first figure: a file written less
than 2 s before its hashing is never trusted by the cache and is hashed every time.
Generated files sit in the page cache (just written): both sides read them from memory.

Prints a markdown table.

    python3.11 scripts/bench-data-size.py --pdfagent target/release/pdfagent
        [--sizes 8,80,800] [--mmap-sizes 8,400] [--runs 2] [--formats npy,csv,mat]
"""

import argparse
import json
import os
import pathlib
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
SEED = ROOT / "scripts" / "bench-seed-baseline.py"
RUNTIME_SITE = ROOT / "python-runtime" / "dist" / "lib" / "python3.11" / "site-packages"
MIB = 1 << 20
STEP = "max(1, v.size // 20000)"

CODE = {
    "npy": f"v = np.load(srcpath('data.npy'))\nplt.plot(v[::{STEP}])\nplt.savefig(OUT)\n",
    "csv": "import pandas as pd\nv = pd.read_csv(srcpath('data.csv'))['v'].to_numpy()\n"
           f"plt.plot(v[::{STEP}])\nplt.savefig(OUT)\n",
    "mat": f"v = loadmat(srcpath('data.mat'))['v'].ravel()\nplt.plot(v[::{STEP}])\nplt.savefig(OUT)\n",
    "mmap": "v = np.load(srcpath('data.npy'), mmap_mode='r')\n"
            f"plt.plot(np.asarray(v[::{STEP}]))\nplt.savefig(OUT)\n",
    # The same figure on the first 20,000 points: what the data folder's size alone costs
    # (the strided row also pays for touching one page in five of the whole file, on both sides).
    "mmap-head": "v = np.load(srcpath('data.npy'), mmap_mode='r')\n"
                 "plt.plot(np.asarray(v[:20000]))\nplt.savefig(OUT)\n",
}

# Run by the seed Python with the runtime's numpy/scipy: writes one file of about `mib` MiB.
GENERATE = """\
import sys
sys.path.insert(0, {site!r})
import numpy as np
kind, path, size = {kind!r}, {path!r}, {size}
n = size // 8
chunk = 1 << 20
if kind == "npy":
    a = np.lib.format.open_memmap(path, mode="w+", dtype="<f8", shape=(n,))
    for i in range(0, n, chunk):
        k = min(chunk, n - i)
        a[i:i + k] = np.sin(np.arange(i, i + k) * 1e-4)
    a.flush()
    del a
elif kind == "mat":
    from scipy.io import savemat
    savemat(path, {{"v": np.sin(np.arange(n) * 1e-4)}})
else:
    rows = np.sin(np.arange(65536) * 1e-3)
    block = "".join(f"{{i}},{{x:.9f}}\\n" for i, x in enumerate(rows)).encode()
    with open(path, "wb") as f:
        f.write(b"t,v\\n")
        written = 4
        while written < size:
            f.write(block)
            written += len(block)
"""


def generate(seed_python, kind, path, mib):
    script = GENERATE.format(site=str(RUNTIME_SITE), kind=kind, path=str(path), size=mib * MIB)
    subprocess.run([seed_python, "-I", "-c", script], check=True)


def pdfagent_ms(exe, src, code, figures, data_home):
    env = dict(os.environ, XDG_DATA_HOME=str(data_home))
    started = time.perf_counter()
    proc = subprocess.run([str(exe), "make-figure", "--src", str(src), "--name", "fig",
                           "--code", str(code), "--figures", str(figures), "--json"],
                          capture_output=True, env=env, timeout=900)
    ms = (time.perf_counter() - started) * 1000.0
    result = json.loads(proc.stdout or b"{}")
    if not result.get("ok"):
        sys.exit(f"make-figure failed on {src}: {proc.stdout[-800:]!r} {proc.stderr[-800:]!r}")
    return ms


def seed_ms(seed_python, src, code, out):
    proc = subprocess.run([seed_python, str(SEED), "--src", str(src), "--code", str(code),
                           "--out", str(out), "--python", seed_python],
                          capture_output=True, timeout=900, check=True)
    result = json.loads(proc.stdout)
    if not result.get("ok"):
        sys.exit(f"the seed-style run failed on {src}: {result}")
    return result["ms"]


def measure(a, kind, mib, work):
    """(first figure ms, [pdfagent warm ms], [seed ms]) for one format and size."""
    fmt = "npy" if kind.startswith("mmap") else kind
    src = work / f"{kind}-{mib}" / "data"
    src.mkdir(parents=True)
    generate(a.seed_python, fmt, src / f"data.{fmt}", mib)
    code = work / f"{kind}-{mib}" / "code.py"
    code.write_text(CODE[kind])
    figures = work / f"{kind}-{mib}" / "figures"
    data_home = work / f"{kind}-{mib}" / "home"
    out = work / f"{kind}-{mib}" / "seed.png"
    time.sleep(2.5)  # older than the cache's racy window before its first hashing
    first = pdfagent_ms(a.pdfagent, src, code, figures, data_home)
    ours, seeds = [], []
    for run in range(a.runs):
        pair = [lambda: ours.append(pdfagent_ms(a.pdfagent, src, code, figures, data_home)),
                lambda: seeds.append(seed_ms(a.seed_python, src, code, out))]
        for step in (pair if run % 2 == 0 else pair[::-1]):
            step()
    shutil.rmtree(src)
    return first, ours, seeds


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pdfagent", type=pathlib.Path, required=True)
    ap.add_argument("--seed-python", default=sys.executable)
    ap.add_argument("--sizes", default="8,80,800", help="MiB, comma-separated")
    ap.add_argument("--mmap-sizes", default="8,400", help="MiB of the mmap row ('' for none)")
    ap.add_argument("--formats", default="npy,csv,mat")
    ap.add_argument("--runs", type=int, default=2)
    a = ap.parse_args()
    sizes = [int(s) for s in a.sizes.split(",") if s]
    rows = [(kind, sizes) for kind in a.formats.split(",") if kind]
    if a.mmap_sizes:
        mmap_sizes = [int(s) for s in a.mmap_sizes.split(",") if s]
        rows += [("mmap", mmap_sizes), ("mmap-head", mmap_sizes)]
    lines = ["| data | MiB | PDFAgent first figure (ms) | PDFAgent, cache warm (ms) "
             "| seed-style (ms) | ratio |",
             "|---|---:|---:|---:|---:|---:|"]
    slopes = []
    with tempfile.TemporaryDirectory(prefix="pdfagent-bench-data-") as tmp:
        work = pathlib.Path(tmp)
        for kind, row_sizes in rows:
            medians = {}
            for mib in row_sizes:
                print(f"bench-data-size: {kind} {mib} MiB...", file=sys.stderr)
                first, ours, seeds = measure(a, kind, mib, work)
                o, s = statistics.median(ours), statistics.median(seeds)
                medians[mib] = (first, o, s)
                label = {"mmap": "npy mmap (20,000 points, strided)",
                         "mmap-head": "npy mmap (first 20,000 points)"}.get(kind, f".{kind}")
                lines.append(f"| {label} | {mib} | {first:.0f} | {o:.0f} | {s:.0f} | {o / s:.2f}× |")
            lo, hi = min(row_sizes), max(row_sizes)
            if hi > lo:
                span = hi - lo
                f = (medians[hi][0] - medians[lo][0]) / span
                o = (medians[hi][1] - medians[lo][1]) / span
                s = (medians[hi][2] - medians[lo][2]) / span
                slopes.append((kind, lo, hi, f, o, s, medians[hi][1] / medians[lo][1]))
    lines += ["", f"Median of {a.runs} alternating runs per cell (first figure: one run).", "",
              "| data | per-MiB cost, MiB range | PDFAgent first figure (ms/MiB) "
              "| PDFAgent, cache warm (ms/MiB) | seed-style (ms/MiB) | warm ÷ seed "
              "| PDFAgent large ÷ small, warm "
              "| large − small, warm (ms) | large − small, seed (ms) |",
              "|---|---|---:|---:|---:|---:|---:|---:|---:|"]
    for kind, lo, hi, f, o, s, grow in slopes:
        ratio = f"{o / s:.2f}×" if s > 0 else "n/a"
        span = hi - lo
        lines.append(f"| {kind} | {lo}→{hi} | {f:.2f} | {o:.2f} | {s:.2f} | {ratio} | {grow:.2f}× "
                     f"| {o * span:.0f} | {s * span:.0f} |")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
