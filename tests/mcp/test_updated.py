"""An update under a running `pdfagent mcp` (issue #29, item 4): the executable the server
started from is replaced — by a new file with the same bytes (a new inode, as `apt upgrade`
or a re-extracted archive leaves it), or removed — while the server runs. The next
`make_figure` must say, in one sentence, to restart the server, start no worker (no new
process, no new run directory, no figure) and report nothing as a failed run or a canary
not contained. Run with scripts/test-mcp."""

import os
import pathlib
import shutil

import anyio
import pytest

from conftest import idle_workers_of, server_pid, spares_of, wait_until
from test_mcp import LEGIT_CODE, PNG_SIGNATURE, connect, run, server_params, texts

RESTART = "PDFAgent was updated while this MCP server was running: restart the server"


def descendants(pid: int) -> set[int]:
    """Every live process below `pid` (children, theirs, ...), by their parents in /proc:
    a process of a replaced executable no longer reads back as its path."""
    parents = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = pathlib.Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if fields[0] != "Z":
            parents[int(entry)] = int(fields[1])
    found, frontier = set(), {pid}
    while frontier:
        frontier = {p for p, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def run_dirs(temp: pathlib.Path) -> set[str]:
    """The run directories in the server's temporary folder: a worker gets a fresh one there,
    a fork server's child one in the server's `runs/` (what the workers write inside their
    own is not counted: a waiting child may still be drawing ahead)."""
    found = set()
    for d in temp.iterdir():
        found.add(d.name)
        if (d / "runs").is_dir():
            found |= {f"{d.name}/runs/{c.name}" for c in (d / "runs").iterdir()}
    return found


def replace_with_same_bytes(exe: pathlib.Path):
    new = exe.with_name(exe.name + ".new")
    shutil.copy2(exe, new)
    os.replace(new, exe)


@pytest.mark.parametrize("update", [replace_with_same_bytes, os.remove],
                         ids=["replaced", "removed"])
def test_a_replaced_executable_asks_for_a_restart_and_starts_nothing(
    pdfagent, folders, tmp_path, update
):
    src, figures = folders
    app = tmp_path / "app"
    app.mkdir()
    exe = app / "pdfagent"
    # The copy finds the development runtime and libpython as the build does.
    shutil.copy2(pdfagent, exe)
    temp = tmp_path / "tmp"
    temp.mkdir()

    async def go():
        params = server_params(exe, src, figures, wrap=["env", f"TMPDIR={temp}"])
        async with connect(params, tmp_path / "err") as (s, _):
            before = await s.call_tool("make_figure", {"name": "before", "code": LEGIT_CODE})
            server = server_pid(exe, str(figures))
            # Settled: the fork server warmed up and its next figure's child forked ahead.
            await anyio.to_thread.run_sync(lambda: wait_until(
                lambda: idle_workers_of(exe, server) and spares_of(exe, server),
                "a fork server with a child forked ahead"))
            processes, folders_before = descendants(server), run_dirs(temp)
            update(exe)
            after = await s.call_tool("make_figure", {"name": "after", "code": LEGIT_CODE})
            described = await s.call_tool("describe_data", {"path": "bands.csv"})
            return (before, after, described, processes, folders_before, descendants(server),
                    run_dirs(temp))

    before, after, described, processes, folders_before, processes_after, folders_after = run(go)
    assert not before.is_error, texts(before) + (tmp_path / "err").read_text()
    assert (figures / "before.png").read_bytes().startswith(PNG_SIGNATURE)

    text = texts(after)
    assert after.is_error, text
    assert text.startswith(RESTART), text
    for wrong in ["FAILED", "not contained", "NOT CONTAINED", "reinstall", "could not tell"]:
        assert wrong not in text, text
    assert after.structured_content["stage"] == "updated", after.structured_content
    # Nothing was started: no figure, no new run directory, no new process.
    assert not (figures / "after.png").exists()
    # Hidden bookkeeping (the groups lock every run takes, issue #39) is not a figure.
    visible = sorted(p.name for p in figures.iterdir() if not p.name.startswith("."))
    assert visible == ["before.png"]
    assert folders_after == folders_before, (folders_before, folders_after)
    assert processes_after <= processes, (processes, processes_after)
    # Reading a data file starts a worker too: the same sentence.
    assert described.is_error and texts(described).startswith(RESTART), texts(described)
