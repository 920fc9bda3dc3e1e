"""Process start, cold figure and worker memory of one or two `pdfagent` executables,
measured pair by pair in the same run (scripts/bench calls it; issue 16, part 3).

    bench-startup.py --after EXE [--before EXE] [--runs N] [--version-runs N]

Prints markdown table rows. Each executable is measured as it is laid out beside it (its
runtime found by its own locator). Per row the median; runs of the two executables
alternate, so load changes hit both alike.
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

GUI = ("libwebkit2gtk", "libjavascriptcoregtk", "libgtk-3", "libgdk-3", "libsoup-3")


def timed(cmd, **kw):
    """Wall time (ms) and peak RSS (KiB) of a command; the RSS is wait4's, the larger of the
    process and the children it waited for (a make-figure's worker)."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, **kw)
    _, status, usage = os.wait4(proc.pid, 0)
    ms = (time.perf_counter() - start) * 1000
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read().decode(errors="replace")
    proc.stderr.close()
    if proc.returncode != 0:
        sys.exit(f"bench-startup: {cmd[0]} {cmd[1]} failed ({proc.returncode}): {err[-800:]}")
    return ms, usage.ru_maxrss


def loaded_objects(exe):
    """Shared objects the dynamic loader maps at start (what `ldd` lists)."""
    out = subprocess.run(
        [exe], env={"LD_TRACE_LOADED_OBJECTS": "1"}, capture_output=True, text=True
    ).stdout
    libs = [l for l in out.splitlines() if l.strip() and "vdso" not in l]
    return len(libs), sum(any(g in l for g in GUI) for l in libs)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--after", required=True)
    ap.add_argument("--before")
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--version-runs", type=int, default=30)
    ap.add_argument("--src", default="examples/data")
    ap.add_argument("--code", default="scripts/bench-standard-plot.py")
    a = ap.parse_args()
    exes = {"after": a.after}
    if a.before:
        exes["before"] = a.before
    ver = {k: [] for k in exes}
    cold = {k: [] for k in exes}
    rss = {k: [] for k in exes}
    for _ in range(a.version_runs):
        for k, exe in exes.items():
            ver[k].append(timed([exe, "--version"])[0])
    with tempfile.TemporaryDirectory(prefix="pdfagent-bench-startup-") as tmp:
        for i in range(a.runs):
            for k, exe in exes.items():
                figs = os.path.join(tmp, f"{k}-{i}")
                ms, kib = timed([exe, "make-figure", "--src", a.src, "--name", "std",
                                 "--code", a.code, "--figures", figs, "--json"])
                cold[k].append(ms)
                rss[k].append(kib / 1024)
    objs = {k: loaded_objects(exe) for k, exe in exes.items()}

    med = statistics.median
    cols = ["before", "after"] if a.before else ["after"]
    head = "| process start and cold figure (median) | " + " | ".join(cols)
    head += " | after ÷ before |" if a.before else " |"
    print(head)
    print("| --- |" + " ---: |" * (len(cols) + (1 if a.before else 0)))

    def row(label, vals, fmt):
        cells = [fmt(vals[c]) for c in cols]
        line = f"| {label} | " + " | ".join(cells)
        if a.before:
            line += f" | {vals['after'] / vals['before']:.2f}× |"
        else:
            line += " |"
        print(line)

    row(f"`pdfagent --version` (ms, {a.version_runs} runs)",
        {k: med(v) for k, v in ver.items()}, lambda v: f"{v:.1f}")
    row(f"cold `make-figure`, standard plot (ms, {a.runs} runs)",
        {k: med(v) for k, v in cold.items()}, lambda v: f"{v:.0f}")
    row(f"worker peak RSS, cold `make-figure` (MiB; wait4: the larger of host and worker, {a.runs} runs)",
        {k: med(v) for k, v in rss.items()}, lambda v: f"{v:.0f}")
    row("shared objects loaded at every process start (of them GTK/WebKitGTK)",
        {k: objs[k][0] for k in exes}, lambda v: f"{v}")
    print()
    print("GTK/WebKitGTK objects at start: " + ", ".join(f"{k} {objs[k][1]}" for k in cols) + ".")


if __name__ == "__main__":
    main()
