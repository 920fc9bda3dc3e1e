#!/usr/bin/env python3
"""The seed-style baseline for scripts/bench: the article's design, run by a reference script
of ours so the bench can compare against it.

One figure = one `python -I` subprocess of a stock CPython 3.11 with a fresh, empty
MPLCONFIGDIR (a new temporary folder per run), the same pre-imports and namespace as
PDFAgent's worker (it runs PDFAgent's own preamble.py: np, plt, loadmat, SRC, OUT, srcpath,
listdir, walkfiles), the same packages in the same versions (the bundled runtime's
site-packages, put on sys.path by the child itself because -I ignores PYTHONPATH), the same
data. No static check and no OS confinement: that is the design being compared against.

Prints one JSON object: {"ok": bool, "ms": submit -> PNG on disk, "returncode": int}. The
time runs from just before the subprocess starts until it has exited and the PNG exists;
this script's own start-up is not counted.

    python3.11 scripts/bench-seed-baseline.py --src DIR --code FILE --out PNG
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
WORKER_FILES = [ROOT / "python-runtime" / "src" / name
                for name in ("preamble.py", "capture.py", "figure_report.py")]
SITE = ROOT / "python-runtime" / "dist" / "lib" / "python3.11" / "site-packages"

CHILD = """\
import sys
sys.path.insert(0, {site!r})
for part in {parts!r}:
    exec(compile(open(part, encoding="utf-8").read(), part, "exec"))
_pdfagent_run({src!r}, {out!r}, open({code!r}, encoding="utf-8").read(), "{{}}")
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--src", required=True)
    ap.add_argument("--code", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--python", default=sys.executable)
    a = ap.parse_args()
    if not SITE.is_dir():
        sys.exit(f"{SITE} is missing: run scripts/build-runtime first")
    with tempfile.TemporaryDirectory(prefix="seed-run-") as run:
        script = os.path.join(run, "run.py")
        with open(script, "w", encoding="utf-8") as f:
            f.write(CHILD.format(site=str(SITE), parts=[str(p) for p in WORKER_FILES], src=a.src,
                                 out=a.out, code=a.code))
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
