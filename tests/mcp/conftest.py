"""Shared fixtures for the MCP suite: the built executable, a fresh copy of the example data,
and process helpers that find the server and its confined workers through /proc."""

import os
import pathlib
import shutil
import time

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
EXAMPLE_DATA = ROOT / "examples" / "data"


def _binary() -> pathlib.Path:
    return pathlib.Path(os.environ.get("PDFAGENT_BIN", ROOT / "target" / "release" / "pdfagent"))


@pytest.fixture(scope="session")
def pdfagent() -> pathlib.Path:
    exe = _binary()
    if not exe.is_file():
        pytest.fail(f"{exe} not found: run `cargo build --release` first (or set PDFAGENT_BIN)")
    runtime = ROOT / "python-runtime" / "dist" / "runtime-manifest.json"
    if "PDFAGENT_BIN" not in os.environ and not runtime.is_file():
        pytest.fail(f"{runtime.parent} has no runtime: run scripts/build-runtime first")
    if not (EXAMPLE_DATA / "field_sweep.mat").is_file():
        pytest.fail(f"{EXAMPLE_DATA} lacks the example data: run scripts/make-example-data")
    return exe.resolve()


@pytest.fixture()
def folders(tmp_path):
    """(src, figures): a private copy of the example data and an empty figures folder."""
    src = tmp_path / "data"
    shutil.copytree(EXAMPLE_DATA, src)
    figures = tmp_path / "figures"
    figures.mkdir()
    return src, figures


def pids_with_exe(exe: pathlib.Path) -> dict[int, int]:
    """{pid: parent pid} of every live process running `exe` (zombies excluded)."""
    if not os.path.isdir("/proc"):
        pytest.fail("the MCP suite finds processes through /proc: run it on Linux")
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            if os.readlink(f"/proc/{entry}/exe") != str(exe):
                continue
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        # After the ")" of the command name: state, ppid, ...
        fields = stat.rsplit(")", 1)[1].split()
        if fields[0] == "Z":
            continue
        found[int(entry)] = int(fields[1])
    return found


def cmdline(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def server_pid(exe: pathlib.Path, marker: str) -> int:
    """The pid of the `pdfagent mcp` process whose command line holds `marker`."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        for pid in pids_with_exe(exe):
            line = cmdline(pid)
            if " mcp " in f" {line} " and marker in line:
                return pid
        time.sleep(0.05)
    pytest.fail(f"no `pdfagent mcp` process with {marker!r} in its command line")


def workers_of(exe: pathlib.Path, server: int) -> list[int]:
    """Live confined workers (the same executable) started by the server process: cold
    and warm workers, the fork server, and the figures' processes the fork server forked."""
    parents = pids_with_exe(exe)
    direct = [pid for pid, ppid in parents.items() if ppid == server]
    return direct + [pid for pid, ppid in parents.items() if ppid in direct]


# The markers in a warm worker's run directory (its HOME): WARM from the
# start, READY once it has warmed up, TAKEN once it has read code
# (python-runtime/src/pipeline/running/warm/). On Linux the server keeps a fork
# server instead: FORK_SERVER from the start, READY once it has warmed up; it
# never runs code itself, its children do (pipeline/running/fork_server/). One child
# is forked ahead of the next figure and waits for it; TAKEN in the child's own
# run directory says it took one.
WARM_MARKER = ".pdfagent-warm"
READY_MARKER = ".pdfagent-warm-ready"
TAKEN_MARKER = ".pdfagent-warm-taken"
FORK_SERVER_MARKER = ".pdfagent-fork-server"


def is_fork_server(pid: int) -> bool:
    d = run_dir(pid)
    return d is not None and (d / FORK_SERVER_MARKER).exists()


def fork_servers_of(exe: pathlib.Path, server: int) -> list[int]:
    return [pid for pid, ppid in pids_with_exe(exe).items() if ppid == server and is_fork_server(pid)]


def run_dir(pid: int) -> pathlib.Path | None:
    """A worker's run directory: its HOME, as the runner set it (its working directory is
    the data folder). None if it is gone."""
    try:
        environ = pathlib.Path(f"/proc/{pid}/environ").read_bytes()
    except OSError:
        return None
    variables = environ.split(b"\0")
    # Between fork and exec a child still shows its parent's environment.
    if not any(v.startswith(b"PDFAGENT_PYRUN=") for v in variables):
        return None
    for var in variables:
        if var.startswith(b"HOME="):
            return pathlib.Path(os.fsdecode(var[5:]))
    return None


def child_run_dir(pid: int) -> pathlib.Path | None:
    """The run directory of a child of the fork server: where its stdout goes (its
    environment, HOME included, is still the server's, inherited through the fork)."""
    try:
        return pathlib.Path(os.readlink(f"/proc/{pid}/fd/1")).parent
    except OSError:
        return None


def is_forked_child(pid: int) -> bool:
    """A child of the fork server (its run directory is the server's by its environment,
    but its parent is the server)."""
    d = run_dir(pid)
    return d is not None and (d / FORK_SERVER_MARKER).exists() and is_fork_server(parent_of(pid))


def is_spare(pid: int) -> bool:
    """A child of the fork server forked ahead of the next figure: it waits, having run
    nothing."""
    if not is_forked_child(pid):
        return False
    d = child_run_dir(pid)
    return d is not None and not (d / TAKEN_MARKER).exists()


def is_waiting_warm(pid: int) -> bool:
    """A warm worker that has read no code (still warming up, or ready), a fork server
    (which never runs code itself), or a child of one forked ahead of its figure."""
    d = run_dir(pid)
    if d is None:
        return False
    if (d / FORK_SERVER_MARKER).exists():
        return not is_forked_child(pid) or is_spare(pid)
    return (d / WARM_MARKER).exists() and not (d / TAKEN_MARKER).exists()


def parent_of(pid: int) -> int:
    try:
        stat = pathlib.Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0
    return int(stat.rsplit(")", 1)[1].split()[1])


def idle_workers_of(exe: pathlib.Path, server: int) -> list[int]:
    """The server's warm workers (or fork server) that have warmed up and wait for code;
    not the fork server's child forked ahead (see spares_of)."""
    return [
        pid for pid in workers_of(exe, server)
        if is_waiting_warm(pid) and not is_spare(pid) and (run_dir(pid) / READY_MARKER).exists()
    ]


def spares_of(exe: pathlib.Path, server: int) -> list[int]:
    """The fork server's children forked ahead, waiting for a figure."""
    return [pid for pid in workers_of(exe, server) if is_spare(pid)]


def busy_workers_of(exe: pathlib.Path, server: int) -> list[int]:
    """The server's workers running code: cold ones, and warm ones that took code."""
    return [pid for pid in workers_of(exe, server) if not is_waiting_warm(pid)]


def gone(pid: int) -> bool:
    """The process has exited (a zombie counts: it runs nothing any more)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


def wait_until(predicate, what: str, limit: float = 30.0):
    """Poll `predicate` until true; fail naming `what` if it never becomes true."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    pytest.fail(f"gave up waiting ({limit:.0f} s): {what}")
