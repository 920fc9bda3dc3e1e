"""The host path measured as an agent meets it: `make_figure` over MCP (the official Python
SDK as the client, stdio) against `pdfagent mcp`, next to the one-shot command line.

Run by scripts/bench-mcp (which builds what it needs and picks the SDK's virtual
environment). Prints a markdown table and writes it to target/bench/BENCH-MCP.md.

- warm: each call is made after a pause (the warm worker kept by the server is ready, as it
  is when an agent reads a result before its next call);
- back to back: each call as soon as the previous one returned (on Linux every figure is a
  child forked from the server's fork server, so it is warm too);
- at once: N calls sent together (an agent's parallel tool calls), wall time to the last
  result;
- command line: `pdfagent make-figure` of the same code, a process per figure (always cold).

Times are round trips seen by the client (call sent → result received, the PNG on disk),
medians over the runs, measured in one run side by side. Back to back and the command line
are measured in alternating rounds (a burst of calls, then one command-line figure, and again),
so that both see the same moments of a shared, noisy machine; their ratio is the median of
the rounds' ratios.
"""

import argparse
import pathlib
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

ROOT = pathlib.Path(__file__).resolve().parents[1]

# The standard plot of scripts/bench (python-runtime/examples/bench.rs includes the same file).
STANDARD_FILE = ROOT / "scripts" / "bench-standard-plot.py"
STANDARD = STANDARD_FILE.read_text()
# The smallest figure, back to back: what is left of a call besides the drawing (and whether
# a call ever waits for the child forked ahead to finish its own drawing).
SMALL = "plt.figure(figsize=(1, 1))\nplt.savefig(OUT)\n"


async def timed_call(session, name, code):
    """One `make_figure` call (ms, call sent → result received); a failed figure ends the bench."""
    t = time.perf_counter()
    result = await session.call_tool("make_figure", {"name": name, "code": code})
    elapsed = (time.perf_counter() - t) * 1000
    if result.is_error:
        sys.exit(f"bench-mcp: make_figure failed: {result.content}")
    return elapsed


async def mcp_rounds(exe, src, figures, runs, pause, code=STANDARD):
    params = StdioServerParameters(
        command=str(exe), args=["mcp", "--src", str(src), "--figures", str(figures)]
    )
    times = []
    with open(figures.parent / "server.log", "w") as err:
        async with stdio_client(params, errlog=err) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                await anyio.sleep(pause)  # the first warm worker, started with the server
                for i in range(runs):
                    times.append(await timed_call(session, f"f{i}", code))
                    if pause:
                        await anyio.sleep(pause)
    return times


async def mcp_at_once(exe, src, figures, count, pause):
    """Wall time (ms) of `count` make_figure calls sent together, after a pause."""
    params = StdioServerParameters(
        command=str(exe), args=["mcp", "--src", str(src), "--figures", str(figures)]
    )
    with open(figures.parent / "server.log", "w") as err:
        async with stdio_client(params, errlog=err) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                await anyio.sleep(pause)
                failures = []

                async def one(i):
                    result = await session.call_tool(
                        "make_figure", {"name": f"p{i}", "code": STANDARD}
                    )
                    if result.is_error:
                        failures.append(result.content)

                t = time.perf_counter()
                async with anyio.create_task_group() as group:
                    for i in range(count):
                        group.start_soon(one, i)
                wall = (time.perf_counter() - t) * 1000
                if failures:
                    sys.exit(f"bench-mcp: make_figure failed: {failures[0]}")
    return wall


def cli_figure(exe, src, figures, name, code_file):
    """One `pdfagent make-figure` (ms): a process per figure, cold."""
    t = time.perf_counter()
    subprocess.run(
        [str(exe), "make-figure", "--src", str(src), "--name", name, "--code",
         str(code_file), "--figures", str(figures)],
        check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    return (time.perf_counter() - t) * 1000


# matplotlib alone: the same code, figure after figure, in one long-lived plain Python that
# imports the bundled runtime's packages (no check, no confinement, no fork, no MCP). It
# answers each line on stdin with one figure's time (ms). The floor a warm figure can reach
# at that moment of the machine.
PLAIN_LOOP = r"""
import gc, sys, time
gc.disable()
import numpy as np, matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib.backends.backend_agg import FigureCanvasAgg
FigureCanvasAgg.draw_idle = lambda self, *args, **kwargs: None  # as the worker does
code = compile(sys.argv[1], "<code>", "exec")
def one():
    t = time.perf_counter()
    exec(code, {"np": np, "plt": plt, "OUT": sys.argv[2]})
    plt.close("all")
    return (time.perf_counter() - t) * 1000
one(); gc.collect(); gc.freeze(); gc.enable()
for _ in sys.stdin:
    print(f"{one():.3f}", flush=True)
"""


def start_plain_loop(out):
    runtime = ROOT / "python-runtime" / "dist"
    env = {
        "PYTHONPATH": str(runtime / "lib" / "python3.11" / "site-packages"),
        "MPLCONFIGDIR": str(runtime / "mplconfig"),
        "PATH": "/usr/bin:/bin",
    }
    return subprocess.Popen(
        [sys.executable, "-OO", "-c", PLAIN_LOOP, STANDARD, str(out)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env,
    )


def plain_figures(loop, count):
    times = []
    for _ in range(count):
        loop.stdin.write("\n")
        loop.stdin.flush()
        times.append(float(loop.stdout.readline()))
    return times


async def back_to_back_and_cli(exe, src, figures, cli_figures, rounds, burst, pause):
    """Alternating rounds: `burst` calls back to back, one cold command-line figure, and
    `burst` figures of matplotlib alone (PLAIN_LOOP).

    The first call of a burst follows the command-line figure (a pause: its child has drawn
    ahead), so it is not back to back and is left out. Returns the back-to-back times, the
    command-line times, the plain loop's times, and per round the burst's median ÷ the
    command line and ÷ the plain loop's median, and the plain loop's median ÷ the command line."""
    params = StdioServerParameters(
        command=str(exe), args=["mcp", "--src", str(src), "--figures", str(figures)]
    )
    back, cli, plain, ratios, over_plain, plain_ratios = [], [], [], [], [], []
    loop = start_plain_loop(figures.parent / "plain.png")
    with loop, open(figures.parent / "server.log", "w") as err:
        async with stdio_client(params, errlog=err) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                await anyio.sleep(pause)
                for r in range(rounds):
                    times = [
                        await timed_call(session, f"b{r}-{i}", STANDARD) for i in range(burst + 1)
                    ]
                    cold = await anyio.to_thread.run_sync(
                        cli_figure, exe, src, cli_figures, f"c{r}", STANDARD_FILE
                    )
                    alone = await anyio.to_thread.run_sync(plain_figures, loop, burst)
                    back += times[1:]
                    cli.append(cold)
                    plain += alone
                    ratios.append(statistics.median(times[1:]) / cold)
                    over_plain.append(statistics.median(times[1:]) / statistics.median(alone))
                    plain_ratios.append(statistics.median(alone) / cold)
        loop.stdin.close()
    return back, cli, plain, ratios, over_plain, plain_ratios


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--exe", required=True)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--burst", type=int, default=4)
    parser.add_argument("--at-once", type=int, default=8)
    parser.add_argument("--pause", type=float, default=2.0)
    parser.add_argument("--out", default=str(ROOT / "target" / "bench" / "BENCH-MCP.md"))
    args = parser.parse_args()
    exe = pathlib.Path(args.exe).resolve()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        src = tmp / "data"
        shutil.copytree(ROOT / "examples" / "data", src)
        folders = {}
        for kind in ("warm", "back", "cli", "once", "small"):
            folders[kind] = tmp / kind / "figures"
            folders[kind].mkdir(parents=True)
        warm = anyio.run(mcp_rounds, exe, src, folders["warm"], args.runs, args.pause)
        back, cli, plain, ratios, over_plain, plain_ratios = anyio.run(
            back_to_back_and_cli, exe, src, folders["back"], folders["cli"], args.rounds,
            args.burst, args.pause,
        )
        once = anyio.run(mcp_at_once, exe, src, folders["once"], args.at_once, args.pause)
        small = anyio.run(mcp_rounds, exe, src, folders["small"], args.runs, 0.0, SMALL)
    med = {
        k: statistics.median(v)
        for k, v in (
            ("warm", warm), ("back", back), ("cli", cli), ("small", small), ("plain", plain)
        )
    }
    ratio = statistics.median(ratios)
    with open("/proc/loadavg") as f:
        load = " ".join(f.read().split()[:3])
    table = f"""# MCP round trip, standard plot

Measured {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load average at the end {load};
client: official Python SDK (`mcp`), stdio. Warm: {args.runs} calls. Back to back and the
command line: {args.rounds} alternating rounds of {args.burst} calls back to back, one
command-line figure and {args.burst} figures of matplotlib alone ({args.rounds * args.burst},
{args.rounds} and {args.rounds * args.burst} figures); their ratios are the medians of the
rounds' ratios (back to back ÷ command line per round:
{", ".join(f"{r:.2f}" for r in ratios)}; back to back ÷ matplotlib alone per round:
{", ".join(f"{r:.2f}" for r in over_plain)}).
Reproduce: `scripts/bench-mcp`.

| standard plot, call → result (ms, median) | value | ÷ command line |
| --- | ---: | ---: |
| MCP `make_figure`, warm worker ready ({args.pause:g} s between calls) | {med['warm']:.0f} | {med['warm'] / med['cli']:.2f}× |
| MCP `make_figure`, back to back | {med['back']:.0f} | **{ratio:.2f}×** (rounds' median; {med['back'] / med['cli']:.2f}× of the medians) |
| `pdfagent make-figure` (a process per figure, cold) | {med['cli']:.0f} | 1.00× |
| matplotlib alone: the same code figure after figure in one plain Python (no PDFAgent) | {med['plain']:.0f} | {statistics.median(plain_ratios):.2f}× (back to back is {statistics.median(over_plain):.2f}× this) |
| MCP, {args.at_once} `make_figure` calls sent at once: wall time to the last result | {once:.0f} ({once / args.at_once:.0f} per figure) | {once / args.at_once / med['cli']:.2f}× per figure |
| MCP `make_figure`, smallest figure (empty, 1 × 1 in), back to back ({args.runs} calls) | {med['small']:.0f} | |
"""
    print(table)
    out = pathlib.Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(table)
    print(f"bench-mcp: written to {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
