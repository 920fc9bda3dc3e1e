"""The run-time guard's cost (issue #40): the same figures with the guard armed and with it
left unarmed, rounds alternating so load changes hit both alike.

    python3 scripts/bench-guard.py [--exe target/release/pdfagent] [--rounds N]

Each round runs the real worker four times through `pdfagent internal-prepare-run` (as the
black-box suites do; the unarmed run has the preamble's arming line replaced):
  cold     the worker process from start to exit (wall time), the code making 21
           standard plots;
  one      the worker process from start to exit, the code making one standard plot (a
           cold figure: interpreter start, imports, hardening and the guard included);
  warm     one standard plot, the median of the last 20 made back to back inside the
           21-plot worker, timed inside it (the guard's hook sees every audit event meanwhile).
Prints markdown table rows (medians).
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ARM = "guard_refusals = arm_guard(namespace, run_dir, compiled)"
CODE = """
import time
import numpy as np
import pandas as pd
import matplotlib.pyplot as plt
x = np.linspace(0, 10, 1000)
times = []
for i in range(21):
    t0 = time.perf_counter()
    fig, ax = plt.subplots()
    ax.plot(x, np.sin(x + i), label='sin')
    ax.set_xlabel('x'); ax.set_ylabel('y'); ax.set_title('standard'); ax.legend()
    df = pd.DataFrame({'a': x, 'b': np.cos(x)}).query('a > 1 and b < 0.5')
    fig.savefig(OUT, dpi=100)
    plt.close(fig)
    times.append((time.perf_counter() - t0) * 1000)
print('WARM_MS', sorted(times[1:])[len(times[1:]) // 2])
"""


ONE = CODE.replace("range(21)", "range(1)").replace(
    "print('WARM_MS', sorted(times[1:])[len(times[1:]) // 2])", "print('WARM_MS', times[0])")


def one_run(exe, armed, root, code=CODE):
    work = tempfile.mkdtemp(dir=root)
    src, run = os.path.join(work, "src"), os.path.join(work, "run")
    os.makedirs(src)
    os.makedirs(run)
    code_file = os.path.join(work, "code.py")
    with open(code_file, "w") as f:
        f.write(code)
    prepared = json.loads(subprocess.run(
        [exe, "internal-prepare-run", "--src", src, "--run-dir", run, "--code", code_file],
        check=True, capture_output=True, text=True).stdout)
    env = prepared["env"]
    script = env["PDFAGENT_PYRUN"]
    if not armed:
        text = open(script).read()
        assert text.count(ARM) == 1, "the preamble's arming line changed"
        with open(script, "w") as f:
            f.write(text.replace(ARM, "guard_refusals = []"))
    start = time.perf_counter()
    out = subprocess.run([exe], env=env, cwd=run, capture_output=True, text=True,
                         stdin=subprocess.DEVNULL)
    cold = (time.perf_counter() - start) * 1000
    warm = [float(line.split()[1]) for line in out.stdout.splitlines()
            if line.startswith("WARM_MS ")]
    if out.returncode != 0 or not warm:
        sys.exit(f"bench-guard: the worker failed ({out.returncode}): {out.stderr[-1500:]}")
    return cold, warm[0]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--exe", default="target/release/pdfagent")
    parser.add_argument("--rounds", type=int, default=10)
    args = parser.parse_args()
    exe = os.path.abspath(args.exe)
    results = {True: ([], [], []), False: ([], [], [])}
    with tempfile.TemporaryDirectory(prefix="bench-guard-") as root:
        for _ in range(args.rounds):
            for armed in (False, True):
                cold, warm = one_run(exe, armed, root)
                single, _ = one_run(exe, armed, root, ONE)
                results[armed][0].append(cold)
                results[armed][1].append(single)
                results[armed][2].append(warm)
    print(f"| guard cost ({args.rounds} rounds, median) | unarmed | armed | armed ÷ unarmed |")
    print("| --- | ---: | ---: | ---: |")
    for i, label in enumerate(("a cold worker making 21 standard plots (ms, start to exit)",
                               "a cold worker making one standard plot (ms, start to exit)",
                               "one standard plot back to back in a worker (ms, median of 20)")):
        off = statistics.median(results[False][i])
        on = statistics.median(results[True][i])
        print(f"| {label} | {off:.0f} | {on:.0f} | {on / off:.2f}× |")


if __name__ == "__main__":
    main()
