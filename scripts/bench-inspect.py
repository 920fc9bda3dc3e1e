"""The inspection of big files (issue #32): how long `describe_data` / the window's preview
takes on each, and the inspection's peak memory — the executable and its worker, the
largest resident set of the process tree (wait4's ru_maxrss).

Run by scripts/bench-inspect (any Python 3; the standard library only). The files are made
once into a folder it keeps, by scripts/make-big-files.py (the maker tests/tests/inspect_big.rs
uses too) run by the executable's bundled runtime: a small CSV, a 2 GiB CSV (repeated
blocks), a 1 GiB .npy (a header and a hole), a 4 GiB v7.3 .mat and a 4 GiB .h5 (contiguous
datasets allocated but never written: sparse), a v5 .mat whose compressed zeros unpack to
1 GiB, an .xlsx whose shared strings unpack to 250 MB and a 200 MiB JSON file. Prints a
markdown table."""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile

MAKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "make-big-files.py")


def make(exe, folder, spec):
    """Makes one file with the maker the black-box test uses too, run by `exe`'s bundled
    runtime (its worker path without a confinement plan)."""
    env = dict(os.environ, PDFAGENT_PYRUN=MAKER, BIG_FILES_DIR=folder, BIG_FILES=spec)
    subprocess.run([exe], env=env, check=True, stdout=subprocess.DEVNULL)


FILES = [
    # name, its size for make-big-files.py, a phrase the description must hold (it says
    # what it sampled)
    ("small.csv", 1000, "table: 1000 rows"),
    ("big.csv", 96_100_000, "(large file, sampled)"),  # 2 GiB
    ("big.npy", 1 << 27, "large file, sampled"),  # 1 GiB
    ("big73.mat", 0, "from the HDF5 metadata"),
    ("big.h5", 0, "from the HDF5 metadata"),
    ("zeros5.mat", 16384, "from each variable's header"),
    ("strings.xlsx", 800_000, "large file, sampled"),
    ("big.json", 200, "(large file, sampled"),
]


def unpacked(path):
    if path.endswith(".xlsx"):
        with zipfile.ZipFile(path) as z:
            return sum(i.file_size for i in z.infolist())
    if path.endswith("zeros5.mat"):
        return dict((n, s) for n, s, _ in FILES)["zeros5.mat"] * 8192 * 8
    return os.path.getsize(path)


def inspect_once(exe, data, name):
    """(seconds, peak resident MiB of the process tree, the description)."""
    with tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(
            [exe, "internal-inspect", "--src", data, "--path", name],
            stdout=subprocess.PIPE, stderr=err,
        )
        out = proc.stdout.read()
        # wait4, not wait: its rusage is this child's tree's (the worker's included).
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        why = err.read().decode(errors="replace")[-300:]
    peak = usage.ru_maxrss / 1024
    if proc.returncode != 0:
        return seconds, peak, "FAILED: " + why
    return seconds, peak, json.loads(out)["text"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--pdfagent", required=True)
    parser.add_argument("--before", help="another build, measured in the same run")
    parser.add_argument("--data", required=True, help="where the files are made (kept)")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    os.makedirs(args.data, exist_ok=True)
    for name, size, _ in FILES:
        if not os.path.exists(os.path.join(args.data, name)):
            print(f"bench-inspect: making {name}...", file=sys.stderr)
            make(args.pdfagent, args.data, f"{name}={size}")
    builds = [("after", args.pdfagent)] + ([("before", args.before)] if args.before else [])
    head = "| file | size | unpacked | " + " | ".join(
        f"{label}: median s | {label}: peak MiB" for label, _ in builds
    ) + " |"
    print(head)
    print("|" + "---|" * (3 + 2 * len(builds)))
    failures = []
    for name, _, phrase in FILES:
        path = os.path.join(args.data, name)
        cells = [name, f"{os.path.getsize(path) / (1 << 20):,.0f} MiB",
                 f"{unpacked(path) / (1 << 20):,.0f} MiB"]
        for label, exe in builds:
            # Alternating is unnecessary within one build; the first run warms the cache.
            inspect_once(exe, args.data, name)
            runs = [inspect_once(exe, args.data, name) for _ in range(args.runs)]
            text = runs[-1][2]
            if text.startswith("FAILED"):
                cells += ["failed", "-"]
                failures.append(f"{label} {name}: {text}")
                continue
            if label == "after" and phrase not in text:
                failures.append(f"{name}: no {phrase!r} in the description:\n{text}")
            cells += [f"{statistics.median(r[0] for r in runs):.2f}",
                      f"{max(r[1] for r in runs):.0f}"]
        print("| " + " | ".join(cells) + " |")
    for failure in failures:
        print(f"bench-inspect: {failure}", file=sys.stderr)
    return 1 if any(not f.startswith("before") for f in failures) else 0


if __name__ == "__main__":
    sys.exit(main())
