"""Development harness for the figure report (python-runtime/worker/figure_report.py).

Runs figure scripts the way the worker does -- through the real preamble's _pdfagent_run,
so np, plt (Agg), loadmat, SRC, OUT, srcpath, listdir, walkfiles and load are predefined
and the working directory is the data folder -- then calls _pdfagent_figure_report on every
open figure with the rgba of its last render (and tight=True when it was saved with
bbox_inches='tight'), and compares the warning codes with the script's first line
`# expect: code1, code2` (or `# expect: none`). Each script runs in its own process, so
pyplot state and rcParams cannot leak from one to the next.

It needs a Python with the runtime's pinned libraries, not the system one:

    /root/.pyenv/versions/3.11.7/bin/python3 -m venv /tmp/venv-report
    grep -v '^#' python-runtime/runtime-lock.txt > /tmp/pins.txt
    /tmp/venv-report/bin/pip install --no-deps -r /tmp/pins.txt

(or, without a venv, the bundled runtime's own libraries:
`PYTHONPATH=python-runtime/dist/lib/python3.11/site-packages python3.11 ...`). Then, from the
repository root:

    /tmp/venv-report/bin/python python-runtime/tests/report_cases/harness.py          # the cases
    /tmp/venv-report/bin/python python-runtime/tests/report_cases/harness.py --corpus # + corpus
    /tmp/venv-report/bin/python python-runtime/tests/report_cases/harness.py --example
    /tmp/venv-report/bin/python python-runtime/tests/report_cases/harness.py -v 03_*.py

Options (combine freely; files given by name run instead of the default case list):
    --corpus   also every script in tests/corpus/legit (expected: no warning but missing
               labels where an axes has none), against a data
               folder made by the CORPUS_DATA script of tests/tests/pipeline_examples.rs
    --example  also examples/plot_example.py with examples/data (expected: no warning)
    -v         print each report's JSON and text summary
    --time     print the report's cost per figure (and what the text-outside check adds)
    --preview  make the preview of each saved PNG and print its size and encoding
    --no-cases leave out this folder's cases (e.g. --no-cases --corpus)
A script named on the command line from tests/corpus/legit gets the corpus data folder
(and is expected to give no warning), examples/plot_example.py gets examples/data.

Exit status 0 when every script gave exactly its expected codes.
"""

import json
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
RUNTIME = os.path.dirname(os.path.dirname(HERE))  # python-runtime/
ROOT = os.path.dirname(RUNTIME)
# The worker's files in the order pipeline/script.rs pastes them (the guard's generated
# module lists are empty here: the harness runs the code with the guard not armed).
WORKER_FILES = [
    os.path.join(RUNTIME, "worker", name)
    for name in (
        "preamble.py",
        "readers.py",
        "figfile.py",
        "harden.py",
        "answers.py",
        "capture.py",
        "figure_report.py",
        "guard.py",
    )
]
CORPUS = os.path.join(ROOT, "tests", "corpus", "legit")
CORPUS_RS = os.path.join(ROOT, "tests", "tests", "pipeline_examples.rs")
EXAMPLE = os.path.join(ROOT, "examples", "plot_example.py")
EXAMPLE_DATA = os.path.join(ROOT, "examples", "data")


def expected_codes(path):
    with open(path, encoding="utf-8") as f:
        first = f.readline().strip()
    if not first.startswith("# expect:"):
        return None
    codes = [c.strip() for c in first[len("# expect:") :].split(",")]
    return sorted(c for c in codes if c and c != "none")


def child(script, src, out, options):
    """In the child process: run `script` through the preamble, report every figure."""
    g = {"__name__": "pdfagent_worker"}
    for part in WORKER_FILES:
        with open(part, encoding="utf-8") as f:
            exec(compile(f.read(), part, "exec"), g)  # noqa: S102 - the worker script itself
    g["_pdfagent_guard_modules"] = lambda: (frozenset(), frozenset())  # installed, not armed
    import matplotlib.figure
    import numpy as np

    tight_of = {}
    original_savefig = matplotlib.figure.Figure.savefig

    def savefig(self, *args, **kwargs):
        import matplotlib as mpl

        bbox = kwargs.get("bbox_inches", mpl.rcParams["savefig.bbox"])
        tight_of[id(self)] = bbox == "tight"
        return original_savefig(self, *args, **kwargs)

    matplotlib.figure.Figure.savefig = savefig
    with open(script, encoding="utf-8") as f:
        code = f.read()
    # The worker starts in its run directory (its manifest goes there) and moves to SRC.
    os.chdir(os.path.dirname(out))
    result = {"figures": [], "error": None}
    try:
        g["_pdfagent_run"](src, out, code, json.dumps({"guard": False}))
    except SystemExit as exc:
        if exc.code:
            result["error"] = "the script failed (traceback above)"
    import matplotlib.pyplot as plt

    for num in plt.get_fignums():
        fig = plt.figure(num)
        renderer = getattr(fig.canvas, "renderer", None)
        rgba = np.asarray(renderer.buffer_rgba()) if renderer is not None else None
        tight = tight_of.get(id(fig), False)
        t0 = time.perf_counter()
        report = g["_pdfagent_figure_report"](fig, rgba, tight)
        t1 = time.perf_counter()
        text = g["_pdfagent_report_text"](report)
        t2 = time.perf_counter()
        # Strict JSON (no NaN), and the same report a second time.
        problems = []
        try:
            json.dumps(report, allow_nan=False)
        except (TypeError, ValueError) as exc:
            problems.append(f"report is not strict JSON: {exc}")
        if g["_pdfagent_figure_report"](fig, rgba, tight) != report:
            problems.append("report differs on a second call")
        if problems:
            result["error"] = "; ".join(problems)
        entry = {"num": num, "report": report, "text": text, "tight": tight}
        if "--time" in options:
            # Warm figures: the steady cost, and the cost without the text-outside check.
            runs = 5
            t3 = time.perf_counter()
            for _ in range(runs):
                g["_pdfagent_figure_report"](fig, rgba, tight)
            t4 = time.perf_counter()
            for _ in range(runs):
                g["_pdfagent_figure_report"](fig, rgba, True)
            t5 = time.perf_counter()
            entry["ms_first"] = (t1 - t0) * 1e3
            entry["ms_text"] = (t2 - t1) * 1e3
            entry["ms"] = (t4 - t3) * 1e3 / runs
            entry["ms_without_text_outside"] = (t5 - t4) * 1e3 / runs
        result["figures"].append(entry)
    if "--preview" in options and os.path.isfile(out):
        with open(out, "rb") as f:
            png = f.read()
        t0 = time.perf_counter()
        data, mime, w, h = g["_pdfagent_preview"](png)
        t1 = time.perf_counter()
        result["preview"] = {
            "png_bytes": len(png),
            "png_b64": 4 * ((len(png) + 2) // 3),
            "preview_b64": 4 * ((len(data) + 2) // 3),
            "mime": mime,
            "size": [w, h],
            "ms": (t1 - t0) * 1e3,
        }
    print("@@RESULT@@" + json.dumps(result))


def corpus_data(folder):
    """Make the corpus data folder with the CORPUS_DATA script of pipeline_examples.rs."""
    with open(CORPUS_RS, encoding="utf-8") as f:
        match = re.search(r'const CORPUS_DATA: &str = r#"(.*?)"#;', f.read(), re.DOTALL)
    if not match:
        sys.exit(f"cannot find CORPUS_DATA in {CORPUS_RS}")
    # The script makes its files next to OUT (the worker's run directory there).
    out = os.path.join(folder, "out.png")
    script = f"import numpy as np\nOUT = {out!r}\n" + match.group(1)
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
    )
    if "DATA READY" not in done.stdout:
        sys.exit(f"the corpus data script failed:\n{done.stderr}")


def unlabelled(report, warning):
    """A missing-labels warning about an axes without an x or a y label: what the corpus
    scripts (written as models write them) may give, as tests/tests/pipeline_examples.rs
    allows."""
    axes = report.get("axes") or []
    i = warning.get("axes")
    if warning.get("code") != "missing-labels" or not i or i > len(axes):
        return False
    return not (axes[i - 1].get("xlabel") and axes[i - 1].get("ylabel"))


def run_one(script, src, options, verbose):
    with tempfile.TemporaryDirectory(prefix="pdfagent-report-") as tmp:
        out = os.path.join(tmp, "figure.png")
        env = dict(os.environ, MPLBACKEND="Agg", MPLCONFIGDIR=os.path.join(tmp, "mpl"))
        done = subprocess.run(
            [sys.executable, __file__, "--child", script, src, out, *options],
            capture_output=True,
            text=True,
            env=env,
            check=False,
        )
    line = next(
        (x for x in done.stdout.splitlines() if x.startswith("@@RESULT@@")), None
    )
    if line is None:
        return {"figures": [], "error": "no result:\n" + done.stderr[-2000:]}
    result = json.loads(line[len("@@RESULT@@") :])
    if result.get("error"):
        result["error"] += "\n" + done.stderr[-1500:]
    if verbose:
        for fig in result["figures"]:
            print(json.dumps(fig["report"], ensure_ascii=False))
            print(f"({len(json.dumps(fig['report']))} chars as JSON, {len(fig['text'])} as text)")
            print(fig["text"])
    return result


def main(argv):
    options = [a for a in argv if a in ("--time", "--preview")]
    verbose = "-v" in argv
    named = [a for a in argv if not a.startswith("-")]
    jobs = []  # (script, data folder, expected codes)
    scratch = tempfile.TemporaryDirectory(prefix="pdfagent-report-data-")
    empty = os.path.join(scratch.name, "empty")
    os.mkdir(empty)
    corpus_folder = []

    def corpus_src():
        if not corpus_folder:
            corpus_folder.append(os.path.join(scratch.name, "corpus"))
            os.mkdir(corpus_folder[0])
            corpus_data(corpus_folder[0])
        return corpus_folder[0]

    if named:
        for name in named:
            path = os.path.abspath(
                name if os.path.exists(name) else os.path.join(HERE, name)
            )
            if os.path.dirname(path) == os.path.abspath(CORPUS):
                jobs.append((path, corpus_src(), []))
            elif path == os.path.abspath(EXAMPLE):
                jobs.append((path, EXAMPLE_DATA, []))
            else:
                jobs.append((path, empty, expected_codes(path)))
    elif "--no-cases" not in argv:
        for name in sorted(os.listdir(HERE)):
            if re.match(r"\d\d_.*\.py$", name):
                path = os.path.join(HERE, name)
                jobs.append((path, empty, expected_codes(path)))
    if "--corpus" in argv:
        data = corpus_src()
        for name in sorted(os.listdir(CORPUS)):
            if name.endswith(".py"):
                jobs.append((os.path.join(CORPUS, name), data, []))
    if "--example" in argv:
        jobs.append((EXAMPLE, EXAMPLE_DATA, []))
    failures = []
    for script, src, expected in jobs:
        name = os.path.relpath(script, ROOT)
        result = run_one(script, src, options, verbose)
        corpus = os.path.dirname(script) == os.path.abspath(CORPUS)
        got = sorted(
            {
                w["code"]
                for f in result["figures"]
                for w in f["report"]["warnings"]
                if not (corpus and unlabelled(f["report"], w))
            }
        )
        if result.get("error"):
            status = "SCRIPT FAILED"
        elif expected is None:
            status = "NO EXPECT LINE"
        elif got == expected:
            status = "ok"
        else:
            status = "MISMATCH"
        figs = len(result["figures"])
        print(f"{status:8} {name}: {figs} figure(s), warnings {got or 'none'}", end="")
        print("" if status != "MISMATCH" else f", expected {expected or 'none'}")
        for fig in result["figures"]:
            for w in fig["report"]["warnings"]:
                if status != "ok" or verbose:
                    print(f"           {w['code']}: {w['message']}")
            if "ms" in fig:
                print(
                    f"           report {fig['ms']:.2f} ms warm ({fig['ms_first']:.2f} first),"
                    f" {fig['ms_without_text_outside']:.2f} without text-outside,"
                    f" text {fig['ms_text']:.2f} ms, {len(json.dumps(fig['report']))} chars"
                )
        if "preview" in result:
            print("           preview " + json.dumps(result["preview"]))
        if result.get("error"):
            print(
                "           " + result["error"].strip().replace("\n", "\n           ")
            )
        if status != "ok":
            failures.append(name)
    scratch.cleanup()
    print(f"\n{len(jobs) - len(failures)}/{len(jobs)} as expected")
    if failures:
        print("not as expected: " + ", ".join(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        child(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:])
    else:
        sys.exit(main(sys.argv[1:]))
