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
medians over the runs, measured in one run side by side.
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


async def mcp_rounds(exe, src, figures, runs, pause):
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
                    t = time.perf_counter()
                    result = await session.call_tool(
                        "make_figure", {"name": f"f{i}", "code": STANDARD}
                    )
                    times.append((time.perf_counter() - t) * 1000)
                    if result.is_error:
                        sys.exit(f"bench-mcp: make_figure failed: {result.content}")
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


def cli_rounds(exe, src, figures, runs, code_file):
    times = []
    for i in range(runs):
        t = time.perf_counter()
        subprocess.run(
            [str(exe), "make-figure", "--src", str(src), "--name", f"c{i}", "--code",
             str(code_file), "--figures", str(figures)],
            check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        times.append((time.perf_counter() - t) * 1000)
    return times


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--exe", required=True)
    parser.add_argument("--runs", type=int, default=20)
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
        for kind in ("warm", "back", "cli", "once"):
            folders[kind] = tmp / kind / "figures"
            folders[kind].mkdir(parents=True)
        warm = anyio.run(mcp_rounds, exe, src, folders["warm"], args.runs, args.pause)
        back = anyio.run(mcp_rounds, exe, src, folders["back"], args.runs, 0.0)
        once = anyio.run(mcp_at_once, exe, src, folders["once"], args.at_once, args.pause)
        cli = cli_rounds(exe, src, folders["cli"], args.runs, STANDARD_FILE)
    med = {k: statistics.median(v) for k, v in (("warm", warm), ("back", back), ("cli", cli))}
    with open("/proc/loadavg") as f:
        load = " ".join(f.read().split()[:3])
    table = f"""# MCP round trip, standard plot

Measured {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load average at the end {load};
{args.runs} runs each; client: official Python SDK (`mcp`), stdio. Reproduce: `scripts/bench-mcp`.

| standard plot, call → result (ms, median) | value | ÷ command line |
| --- | ---: | ---: |
| MCP `make_figure`, warm worker ready ({args.pause:g} s between calls) | {med['warm']:.0f} | {med['warm'] / med['cli']:.2f}× |
| MCP `make_figure`, back to back | {med['back']:.0f} | {med['back'] / med['cli']:.2f}× |
| `pdfagent make-figure` (a process per figure, cold) | {med['cli']:.0f} | 1.00× |
| MCP, {args.at_once} `make_figure` calls sent at once: wall time to the last result | {once:.0f} ({once / args.at_once:.0f} per figure) | {once / args.at_once / med['cli']:.2f}× per figure |
"""
    print(table)
    out = pathlib.Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(table)
    print(f"bench-mcp: written to {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
