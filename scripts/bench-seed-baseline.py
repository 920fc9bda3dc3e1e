#!/usr/bin/env python3
"""The seed-style baselines for scripts/bench: the article's design, run by a reference
script of ours so the bench can compare against it.

One figure = one `python -I` subprocess of a stock CPython 3.11 with a fresh, empty
MPLCONFIGDIR (a new temporary folder per run, so matplotlib builds its font cache every
time, as the seed design did), the same data and the same package versions. No static check
and no OS confinement: that is the design being compared against. Two variants:

  --design shared (default; the bench's baseline until 2026-12-02): the bundled runtime's
      site-packages and PDFAgent's own worker files (preamble.py, readers.py, harden.py, capture.py,
      figure_report.py, in the worker script's order) for the same pre-imports, namespace
      and work. It shares whatever
      PDFAgent changes in its runtime or its preamble (since 2026-12-02 the runtime's
      docstring-free bytecode, the preamble's import tweaks), so those gains show on both
      sides and never in the ratio.
  --design article: the seed as the article describes it, frozen: a stock install of the
      same locked versions (`--site DIR`, made by `pip install --target`: .py with
      __pycache__ bytecode, docstrings kept) and the article's wrapper — pre-import numpy,
      matplotlib (Agg) and pyplot, the _GUARD (os.system raises, starting a program raises —
      where the article sets sys.modules['subprocess'] to None, which breaks pandas' own
      import of it —, socket.socket disabled), SRC/OUT/srcpath/listdir/walkfiles, a loadmat that imports
      scipy.io on first use (as PDFAgent's does: the conservative choice for the baseline),
      and exec of the code. Nothing of PDFAgent's capture or report.

Prints one JSON object: {"ok": bool, "ms": submit -> PNG on disk, "returncode": int}. The
time runs from just before the subprocess starts until it has exited and the PNG exists;
this script's own start-up is not counted.

    python3.11 scripts/bench-seed-baseline.py --src DIR --code FILE --out PNG
        [--design shared|article] [--site DIR]
"""

import argparse
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
# The worker script is these files in this order (pipeline/script.rs).
WORKER_FILES = [ROOT / "python-runtime" / "worker" / name
                for name in ("preamble.py", "readers.py", "harden.py", "capture.py", "figure_report.py")]
RUNTIME_SITE = ROOT / "python-runtime" / "dist" / "lib" / "python3.11" / "site-packages"

SHARED_CHILD = """\
import sys
sys.path.insert(0, {site!r})
for part in {parts!r}:
    exec(compile(open(part, encoding="utf-8").read(), part, "exec"))
_pdfagent_run({src!r}, {out!r}, open({code!r}, encoding="utf-8").read(), "{{}}")
"""

# The article's execution wrapper (shared/reference/two-layer-sandbox-article.en.md: "the
# execution wrapper pre-imports os to implement file navigation"; the _GUARD preamble), with
# the names PDFAgent's code expects.
ARTICLE_CHILD = """\
import sys
sys.path.insert(0, {site!r})
import os
import numpy as np
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

def _no(*args, **kwargs):
    raise PermissionError("not allowed")

os.system = _no
import subprocess
subprocess.Popen._execute_child = _no
import socket
socket.socket = _no

SRC = {src!r}
OUT = {out!r}

def srcpath(rel=""):
    return os.path.join(SRC, rel)

def listdir(sub=""):
    return sorted(os.listdir(srcpath(sub)))

def walkfiles(sub=""):
    found = []
    for dirpath, _, filenames in os.walk(srcpath(sub)):
        found += [os.path.relpath(os.path.join(dirpath, f), SRC) for f in filenames]
    return sorted(found)

def loadmat(*args, **kwargs):
    from scipy.io import loadmat as scipy_loadmat
    return scipy_loadmat(*args, **kwargs)

code = open({code!r}, encoding="utf-8").read()
os.chdir(SRC)
exec(compile(code, "<code>", "exec"), {{"__name__": "__main__", "np": np, "plt": plt,
     "loadmat": loadmat, "SRC": SRC, "OUT": OUT, "srcpath": srcpath, "listdir": listdir,
     "walkfiles": walkfiles}})
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--src", required=True)
    ap.add_argument("--code", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--design", choices=("shared", "article"), default="shared")
    ap.add_argument("--site", type=pathlib.Path,
                    help="site-packages to use (default: the bundled runtime's)")
    a = ap.parse_args()
    site = a.site or RUNTIME_SITE
    if not site.is_dir():
        sys.exit(f"{site} is missing: run scripts/build-runtime first (or give --site)")
    child = ARTICLE_CHILD if a.design == "article" else SHARED_CHILD
    with tempfile.TemporaryDirectory(prefix="seed-run-") as run:
        script = os.path.join(run, "run.py")
        with open(script, "w", encoding="utf-8") as f:
            f.write(child.format(site=str(site), parts=[str(p) for p in WORKER_FILES],
                                 src=os.path.abspath(a.src), out=os.path.abspath(a.out),
                                 code=os.path.abspath(a.code)))
        mpl = os.path.join(run, "mplconfig")
        os.mkdir(mpl)
        env = {"PATH": "/usr/bin:/bin", "HOME": run, "MPLCONFIGDIR": mpl, "MPLBACKEND": "Agg"}
        started = time.perf_counter()
        proc = subprocess.run([a.python, "-I", script], cwd=run, env=env,
                              capture_output=True, timeout=600)
        done = os.path.isfile(a.out)
        ms = (time.perf_counter() - started) * 1000.0
    ok = proc.returncode == 0 and done
    print(json.dumps({"ok": ok, "ms": round(ms, 1), "returncode": proc.returncode,
                      "stderr_tail": proc.stderr.decode("utf-8", "replace")[-800:] if not ok else ""}))


if __name__ == "__main__":
    main()
