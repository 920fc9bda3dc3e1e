"""`pdfagent mcp` driven by a real MCP client none of us wrote: the official Python SDK
(`mcp` on PyPI, `stdio_client` + `ClientSession`). Run with scripts/test-mcp."""

import base64
import json
import os
import pathlib
import shutil
import struct
import subprocess
import sys
import tomllib
from contextlib import asynccontextmanager

import anyio
import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.shared.exceptions import MCPError

from conftest import (
    READY_MARKER,
    ROOT,
    busy_workers_of,
    gone,
    idle_workers_of,
    is_fork_server,
    parent_of,
    run_dir,
    server_pid,
    spares_of,
    wait_until,
    workers_of,
)

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"

LEGIT_CODE = """\
import pandas as pd
m = loadmat(srcpath('field_sweep.mat'))
bands = pd.read_csv(srcpath('bands.csv'))
fig, (a, b) = plt.subplots(1, 2, figsize=(8, 3))
for i, t in enumerate(m['T_K'].ravel()):
    a.plot(m['B_T'].ravel(), m['Rxx_ohm'][i], label=f'{t:g} K')
a.set_xlabel('B (T)'); a.legend()
b.plot(bands['k'], bands['band1_eV'])
plt.savefig(OUT)
"""

MALICIOUS_CODE = """\
import os
os.system('touch {canary}')
data = open('/etc/passwd').read()
plt.savefig(OUT)
"""


def server_params(exe, src, figures, *extra, wrap=None):
    args = ["mcp", "--src", str(src), "--figures", str(figures), *extra]
    if wrap is None:
        return StdioServerParameters(command=str(exe), args=args)
    return StdioServerParameters(command=wrap[0], args=[*wrap[1:], str(exe), *args])


@asynccontextmanager
async def connect(params, errlog):
    with open(errlog, "a") as err:
        async with stdio_client(params, errlog=err) as (read, write):
            async with ClientSession(read, write) as session:
                init = await session.initialize()
                yield session, init


def texts(result):
    return "\n".join(c.text for c in result.content if c.type == "text")


def images(result):
    return [c for c in result.content if c.type == "image"]


def links(result):
    return [c for c in result.content if c.type == "resource_link"]


# What hosts accept inline without truncating (issue: previews that fit a model's context).
MAX_INLINE_BASE64 = 60_000

EXAMPLE_CODE = (ROOT / "examples" / "plot_example.py").read_text()


def png_size(data: bytes):
    assert data[:8] == PNG_SIGNATURE, "not a PNG signature"
    assert data[12:16] == b"IHDR", "no IHDR chunk first"
    return struct.unpack(">II", data[16:24])


def run(async_fn):
    return anyio.run(async_fn)


def test_initialize_and_the_four_tools_with_schemas(pdfagent, folders, tmp_path):
    src, figures = folders

    async def go():
        async with connect(server_params(pdfagent, src, figures), tmp_path / "err") as (s, init):
            assert init.server_info.name == "pdfagent"
            assert init.capabilities.tools is not None
            assert str(figures) in (init.instructions or "")
            return (await s.list_tools()).tools

    tools = {t.name: t for t in run(go)}
    assert set(tools) == {"make_figure", "list_data", "describe_data", "list_figures"}
    assert tools["list_figures"].annotations.read_only_hint is True
    mf = tools["make_figure"].input_schema
    assert mf["type"] == "object"
    assert set(mf["required"]) == {"name", "code"}
    assert mf["properties"]["code"]["type"] == "string"
    assert "format" in mf["properties"] and "format" not in mf["required"]
    assert tools["describe_data"].input_schema["required"] == ["path"]
    assert "sub" in tools["list_data"].input_schema["properties"]
    assert "sub" not in tools["list_data"].input_schema.get("required", [])
    assert tools["list_data"].annotations.read_only_hint is True
    assert tools["describe_data"].annotations.read_only_hint is True
    assert tools["make_figure"].annotations.read_only_hint is False
    # The description carries the short form of the rules, generated from the policy file
    # (the whole is a resource and a prompt: test_tools_text.py).
    policy = tomllib.loads((ROOT / "python-runtime" / "allowlist.toml").read_text())
    text = tools["make_figure"].description
    for module in policy["module"]:
        assert module["name"] in text, module["name"]
    for needle in ["np", "plt", "srcpath('file')", "plt.savefig(OUT)",
                   "walkfiles()", "listdir(sub='')", "open()", "pdfagent://rules"]:
        assert needle in text, needle


def test_list_data_lists_the_example_files(pdfagent, folders, tmp_path):
    src, figures = folders

    async def go():
        async with connect(server_params(pdfagent, src, figures), tmp_path / "err") as (s, _):
            return await s.call_tool("list_data", {}), await s.call_tool("list_data", {"sub": ".."})

    listed, escaped = run(go)
    assert not listed.is_error
    for name in ["bands.csv", "field_sweep.mat", "meta.json", "spectrum.npy"]:
        assert f"{name}\t{(src / name).stat().st_size} bytes" in texts(listed)
    assert escaped.is_error and "leaves the data folder" in texts(escaped)


def test_make_figure_returns_a_png_and_saves_it(pdfagent, folders, tmp_path):
    src, figures = folders

    async def go():
        async with connect(server_params(pdfagent, src, figures), tmp_path / "err") as (s, _):
            return await s.call_tool("make_figure", {"name": "sweep", "code": LEGIT_CODE})

    result = run(go)
    assert not result.is_error, texts(result) + (tmp_path / "err").read_text()
    saved = figures / "sweep.png"
    assert saved.is_file()
    assert str(saved) in texts(result)
    [image] = images(result)
    assert image.mime_type in ("image/png", "image/jpeg")
    assert len(image.data) <= MAX_INLINE_BASE64
    data = base64.b64decode(image.data)
    if image.mime_type == "image/png":
        width, height = png_size(data)
        assert width > 100 and height > 100
    [link] = links(result)
    assert link.name == "sweep.png" and link.mime_type == "image/png"



def test_list_figures_names_what_was_made_and_what_is_stale(pdfagent, folders, tmp_path):
    src, figures = folders
    code = "import pandas as pd\nb = pd.read_csv(srcpath('bands.csv'))\nplt.plot(b['k'])\nplt.savefig(OUT)\n"

    async def go(step):
        async with connect(server_params(pdfagent, src, figures), tmp_path / "err") as (s, _):
            if step == "make":
                made = await s.call_tool("make_figure", {"name": "bands", "code": code})
                return made, await s.call_tool("list_figures", {})
            return await s.call_tool("list_figures", {"code": True, "name": "bands"})

    made, listed = run(lambda: go("make"))
    assert not made.is_error, texts(made)
    assert "Provenance embedded" in texts(made) and "bands.csv" in texts(made)
    assert "bands.png" in texts(listed) and "name `bands`" in texts(listed)
    assert "fresh" in texts(listed) and "STALE" not in texts(listed)
    with open(src / "bands.csv", "a") as f:
        f.write("9,9,9,9\n")
    again = run(lambda: go("code"))
    assert "STALE (changed: bands.csv)" in texts(again), texts(again)
    assert code in texts(again)


def test_make_figure_twice_with_one_name_keeps_the_first_as_a_version(pdfagent, folders, tmp_path):
    src, figures = folders
    first_code = "plt.plot([1, 2, 3])\nplt.title('first')\nplt.savefig(OUT)\n"
    second_code = "plt.plot([3, 2, 1])\nplt.title('second')\nplt.savefig(OUT)\n"
    saved = figures / "iter.png"

    async def go():
        async with connect(server_params(pdfagent, src, figures), tmp_path / "err") as (s, _):
            first = await s.call_tool("make_figure", {"name": "iter", "code": first_code})
            first_bytes = saved.read_bytes()
            second = await s.call_tool("make_figure", {"name": "iter", "code": second_code})
            listed = await s.call_tool("list_figures", {"name": "iter"})
            return first, first_bytes, second, listed

    first, first_bytes, second, listed = run(go)
    assert not first.is_error and not second.is_error, texts(second)
    assert first.structured_content["replaced"] is None
    assert "kept as version" not in texts(first)
    # The second answer names the kept version and where it is, in text and structured.
    replaced = second.structured_content["replaced"]
    assert replaced["version"] == 1
    kept = pathlib.Path(replaced["path"])
    assert kept.is_relative_to(figures / ".pdfagent-versions")
    assert f"kept as version 1: {kept}" in texts(second), texts(second)
    assert kept.read_bytes() == first_bytes
    assert saved.read_bytes() != first_bytes
    # list_figures counts the versions of the name.
    assert "1 earlier version kept" in texts(listed), texts(listed)
    [entry] = listed.structured_content["figures"]
    assert entry["versions"] == 1 and entry["file"] == str(saved)


def test_make_figure_svg_and_pdf_are_saved_and_named_not_attached(pdfagent, folders, tmp_path):
    src, figures = folders

    async def go():
        async with connect(server_params(pdfagent, src, figures), tmp_path / "err") as (s, _):
            svg = await s.call_tool("make_figure",
                                    {"name": "vec", "code": LEGIT_CODE, "format": "svg"})
            pdf = await s.call_tool("make_figure",
                                    {"name": "vec", "code": LEGIT_CODE, "format": "pdf"})
            return svg, pdf

    svg, pdf = run(go)
    for result, ext, magic in [(svg, "svg", (b"<?xml", b"<svg")), (pdf, "pdf", (b"%PDF-",))]:
        assert not result.is_error, texts(result) + (tmp_path / "err").read_text()
        saved = figures / f"vec.{ext}"
        assert saved.is_file(), saved
        assert saved.read_bytes().startswith(magic), saved.read_bytes()[:40]
        assert str(saved) in texts(result)
        # A vector figure is linked whole and previewed as a raster image.
        [image] = images(result)
        assert image.mime_type in ("image/png", "image/jpeg")
        assert len(image.data) <= MAX_INLINE_BASE64
        [link] = links(result)
        assert link.name == f"vec.{ext}"
        assert link.mime_type == {"svg": "image/svg+xml", "pdf": "application/pdf"}[ext]


def test_the_example_comes_back_as_a_small_preview_a_report_and_a_readable_link(
    pdfagent, folders, tmp_path
):
    src, figures = folders

    async def go():
        async with connect(server_params(pdfagent, src, figures), tmp_path / "err") as (s, init):
            assert init.capabilities.resources is not None
            result = await s.call_tool("make_figure", {"name": "overview", "code": EXAMPLE_CODE})
            [link] = links(result)
            read = await s.read_resource(link.uri)
            listed = await s.list_resources()
            outside = None
            try:
                await s.read_resource("file:///etc/passwd")
            except MCPError as e:
                outside = str(e)
            return result, read, listed, outside

    result, read, listed, outside = run(go)
    assert not result.is_error, texts(result) + (tmp_path / "err").read_text()
    saved = figures / "overview.png"
    # The inline image is a preview that fits; the full figure is a link away.
    [image] = images(result)
    assert len(image.data) <= MAX_INLINE_BASE64, len(image.data)
    assert saved.stat().st_size * 4 / 3 > MAX_INLINE_BASE64, "the example needs a preview"
    [contents] = read.contents
    assert base64.b64decode(contents.blob) == saved.read_bytes()
    assert contents.mime_type == "image/png"
    # The rules come first (test_tools_text.py), then the figures.
    assert [r.name for r in listed.resources] == ["rules", "overview.png"]
    assert outside is not None and "not a figure of this server" in outside
    # The report: what the code drew, from the live figure, as text and as structure.
    text = texts(result)
    for title in ["Magnetoresistance", "Band structure", "Spectrum", "Sample"]:
        assert title in text, text
    assert "No warnings." in text, text
    report = result.structured_content["figures"][0]["report"]
    assert [a.get("title") for a in report["axes"]] == [
        "Magnetoresistance", "Band structure", "Spectrum", "Sample"]
    assert report["axes"][0]["xlabel"] == "B (T)"
    assert report["warnings"] == []


def test_preview_none_returns_text_and_links_only(pdfagent, folders, tmp_path):
    src, figures = folders

    async def go():
        async with connect(server_params(pdfagent, src, figures), tmp_path / "err") as (s, _):
            return await s.call_tool(
                "make_figure", {"name": "overview", "code": EXAMPLE_CODE, "preview": "none"})

    result = run(go)
    assert not result.is_error, texts(result)
    assert images(result) == []
    [link] = links(result)
    assert link.name == "overview.png"
    assert "Magnetoresistance" in texts(result)


def test_two_savefigs_under_their_own_names_return_two_images(pdfagent, folders, tmp_path):
    src, figures = folders
    code = (
        "import pandas as pd\n"
        "bands = pd.read_csv('bands.csv')\n"  # a plain name reads the data folder
        "plt.figure(); plt.plot(bands['k'], bands['band1_eV']); plt.title('one')\n"
        "plt.savefig('a.png', dpi=80)\n"
        "plt.figure(); plt.plot([3, 1, 2]); plt.title('two')\n"
        "plt.savefig('b.png', dpi=80)\n"
    )

    async def go():
        async with connect(server_params(pdfagent, src, figures), tmp_path / "err") as (s, _):
            return await s.call_tool("make_figure", {"name": "pair", "code": code})

    result = run(go)
    assert not result.is_error, texts(result) + (tmp_path / "err").read_text()
    assert len(images(result)) == 2
    assert [l.name for l in links(result)] == ["pair.png", "pair-2.png"]
    assert (figures / "pair.png").is_file() and (figures / "pair-2.png").is_file()
    text = texts(result)
    assert '"a.png"' in text and '"b.png"' in text, text
    assert [f["captured"] for f in result.structured_content["figures"]] == ["saved", "saved"]

def test_malicious_code_is_rejected_with_rules_and_lines_and_nothing_runs(
    pdfagent, folders, tmp_path
):
    src, figures = folders
    canary = tmp_path / "canary"

    async def go():
        async with connect(server_params(pdfagent, src, figures), tmp_path / "err") as (s, _):
            code = MALICIOUS_CODE.format(canary=canary)
            return await s.call_tool("make_figure", {"name": "evil", "code": code})

    result = run(go)
    assert result.is_error
    text = texts(result)
    assert "1:8 import-not-allowed" in text, text
    assert "3:8 forbidden-builtin" in text, text
    # The instructional part: what is allowed, how to read and save.
    for needle in ["Allowed imports", "srcpath('file')", "plt.savefig(OUT)"]:
        assert needle in text, needle
    assert not (figures / "evil.png").exists()
    assert not canary.exists(), "the rejected code ran"
    assert list(figures.iterdir()) == []


def test_describe_data_on_the_example_mat_csv_npy_and_json(pdfagent, folders, tmp_path):
    src, figures = folders

    async def go():
        async with connect(server_params(pdfagent, src, figures), tmp_path / "err") as (s, _):
            out = {}
            for path in ["field_sweep.mat", "bands.csv", "spectrum.npy", "meta.json", "../x"]:
                out[path] = await s.call_tool("describe_data", {"path": path})
            return out

    out = run(go)
    mat = texts(out["field_sweep.mat"])
    assert not out["field_sweep.mat"].is_error, mat
    for needle in ["MATLAB v5", "B_T", "T_K", "Rxx_ohm", "(3, 181)", "float32"]:
        assert needle in mat, (needle, mat)
    csv = texts(out["bands.csv"])
    assert not out["bands.csv"].is_error, csv
    rows = sum(1 for _ in open(src / "bands.csv")) - 1
    for needle in ["'k': float64", "'band1_eV': float64", f"table: {rows} rows x 4 columns"]:
        assert needle in csv, (needle, csv)
    npy = texts(out["spectrum.npy"])
    assert "shape (2, 301), dtype float32" in npy, npy
    assert "'sample': str" in texts(out["meta.json"]), texts(out["meta.json"])
    assert out["../x"].is_error and "leaves the data folder" in texts(out["../x"])


def test_unknown_tool_and_missing_arguments_then_the_server_still_answers(
    pdfagent, folders, tmp_path
):
    src, figures = folders

    async def go():
        async with connect(server_params(pdfagent, src, figures), tmp_path / "err") as (s, _):
            with pytest.raises(MCPError) as unknown:
                await s.call_tool("no_such_tool", {})
            missing = await s.call_tool("make_figure", {"name": "x"})
            after = await s.call_tool("list_data", {})
            return unknown.value, missing, after

    unknown, missing, after = run(go)
    # Spec: an unknown tool is a protocol error (JSON-RPC -32602, invalid params) ...
    assert unknown.error.code == -32602, unknown.error
    # ... while invalid arguments are a tool execution error the model can read and fix
    # (isError; spec 2025-11-25, "Input validation errors").
    assert missing.is_error and "code" in texts(missing), texts(missing)
    assert not after.is_error and "field_sweep.mat" in texts(after)


def test_a_cancelled_call_kills_its_worker(pdfagent, folders, tmp_path):
    src, figures = folders
    marker = str(figures)

    async def go():
        params = server_params(pdfagent, src, figures, "--timeout", "600")
        async with connect(params, tmp_path / "err") as (s, _):
            server = server_pid(pdfagent, marker)
            worker = []
            async with anyio.create_task_group() as tg:

                async def endless():
                    code = "x = 0\nwhile True:\n    x += 1\n"
                    await s.call_tool("make_figure", {"name": "endless", "code": code})

                tg.start_soon(endless)
                found = await anyio.to_thread.run_sync(
                    lambda: wait_until(
                        lambda: busy_workers_of(pdfagent, server), "a worker runs the code"
                    )
                )
                worker.extend(found)
                # Cancelling the caller makes the SDK send notifications/cancelled.
                tg.cancel_scope.cancel()
            await anyio.to_thread.run_sync(
                lambda: wait_until(
                    lambda: all(gone(pid) for pid in worker), "the cancelled worker is gone"
                )
            )
            # A fresh warm worker replaces it (a process that ran code is never reused).
            fresh = await anyio.to_thread.run_sync(
                lambda: wait_until(
                    lambda: idle_workers_of(pdfagent, server), "a new warm worker is ready"
                )
            )
            after = await s.call_tool("list_data", {})
            return worker, fresh, after

    worker, fresh, after = run(go)
    assert worker
    assert not set(worker) & set(fresh), (worker, fresh)
    for pid in worker:
        assert gone(pid)
    assert not after.is_error
    assert not (figures / "endless.png").exists()


def test_every_figure_runs_in_a_fresh_child_of_the_fork_server_which_stays(pdfagent, folders, tmp_path):
    src, figures = folders
    marker = str(figures)
    slow = "import time\ntime.sleep(1)\n" + LEGIT_CODE

    async def go():
        params = server_params(pdfagent, src, figures)
        async with connect(params, tmp_path / "err") as (s, _):
            server = server_pid(pdfagent, marker)
            # Ready before the first call: the server starts its fork server when it starts.
            idle = await anyio.to_thread.run_sync(
                lambda: wait_until(lambda: idle_workers_of(pdfagent, server), "a fork server")
            )
            ran_in = []
            results = []
            for name in ("one", "two"):
                async with anyio.create_task_group() as tg:

                    async def call(name=name):
                        results.append(
                            await s.call_tool("make_figure", {"name": name, "code": slow})
                        )

                    tg.start_soon(call)
                    ran_in.append(
                        await anyio.to_thread.run_sync(
                            lambda: wait_until(
                                lambda: [(p, parent_of(p)) for p in busy_workers_of(pdfagent, server)],
                                "a figure's process",
                            )
                        )
                    )
            after = idle_workers_of(pdfagent, server)
            # The next figure's child waits, forked ahead by the server.
            spares = await anyio.to_thread.run_sync(
                lambda: wait_until(
                    lambda: [(p, parent_of(p)) for p in spares_of(pdfagent, server)],
                    "a child forked ahead",
                )
            )
            return idle, [is_fork_server(p) for p in idle], ran_in, results, after, spares

    idle, servers, ran_in, results, after, spares = run(go)
    assert len(idle) == 1 and servers == [True], (idle, servers)
    for result in results:
        assert not result.is_error, texts(result)
    assert (figures / "one.png").read_bytes().startswith(PNG_SIGNATURE)
    # Each figure ran in its own child of the fork server; both are gone, the server stays.
    ((first, first_parent),), ((second, second_parent),) = ran_in
    assert first != second
    assert first_parent == idle[0] and second_parent == idle[0], (idle, ran_in)
    assert gone(first) and gone(second)
    assert after == idle, (idle, after)
    ((spare, spare_parent),) = spares
    assert spare_parent == idle[0], (spares, idle)
    assert spare not in (first, second)


def test_closing_stdin_ends_the_idle_warm_worker_and_removes_its_run_dir(pdfagent, folders, tmp_path):
    src, figures = folders
    proc = _spawn_server(pdfagent, src, figures, tmp_path / "err")
    try:
        _handshake(proc)
        idle = wait_until(lambda: idle_workers_of(pdfagent, proc.pid), "a warm worker is ready")
        dirs = [run_dir(pid) for pid in idle]
        assert all(d is not None and (d / READY_MARKER).exists() for d in dirs), dirs
        proc.stdin.close()
        assert proc.wait(timeout=60) == 0, (tmp_path / "err").read_text()
        for pid in idle:
            wait_until(lambda: gone(pid), f"warm worker {pid} is gone")
        for d in dirs:
            assert not d.exists(), f"the warm worker's run directory {d} was left behind"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def _send(proc, message):
    proc.stdin.write((json.dumps(message) + "\n").encode())
    proc.stdin.flush()


def _spawn_server(pdfagent, src, figures, errlog, *extra):
    """`pdfagent mcp` on raw pipes (no SDK): for tests that end it by hand."""
    with open(errlog, "w") as err:
        return subprocess.Popen(
            [str(pdfagent), "mcp", "--src", str(src), "--figures", str(figures), *extra],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err,
        )


def _handshake(proc):
    """initialize → its answer → notifications/initialized, as a client does."""
    _send(proc, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "raw", "version": "0"}}})
    assert json.loads(proc.stdout.readline())["id"] == 1
    _send(proc, {"jsonrpc": "2.0", "method": "notifications/initialized"})


def test_closing_stdin_ends_the_server_and_its_workers(pdfagent, folders, tmp_path):
    src, figures = folders
    proc = _spawn_server(pdfagent, src, figures, tmp_path / "err", "--timeout", "600")
    try:
        _handshake(proc)
        _send(proc, {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
            "name": "make_figure", "arguments": {"name": "w", "code": "while True:\n    pass\n"}}})
        wait_until(lambda: busy_workers_of(pdfagent, proc.pid), "a worker runs the code")
        workers = workers_of(pdfagent, proc.pid)
        proc.stdin.close()
        status = proc.wait(timeout=60)
        assert status == 0, (tmp_path / "err").read_text()
        for pid in workers:
            wait_until(lambda: gone(pid), f"worker {pid} is gone")
        assert "stdin closed" in (tmp_path / "err").read_text()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_sigterm_before_the_handshake_stops_the_warm_worker(pdfagent, folders, tmp_path):
    src, figures = folders
    proc = _spawn_server(pdfagent, src, figures, tmp_path / "err")
    try:
        # The server warms a worker up as it starts, before any client has spoken.
        warm = wait_until(
            lambda: [p for p in workers_of(pdfagent, proc.pid) if run_dir(p)],
            "the warm worker starts",
        )
        dirs = [d for d in map(run_dir, warm) if d is not None]
        proc.terminate()
        assert proc.wait(timeout=60) != 0
        for pid in warm:
            wait_until(lambda: gone(pid), f"warm worker {pid} is gone")
        for d in dirs:
            assert not d.exists(), f"the warm worker's run directory {d} was left behind"
        assert "signal received during the handshake" in (tmp_path / "err").read_text()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_sigterm_ends_the_server_and_its_workers(pdfagent, folders, tmp_path):
    src, figures = folders
    proc = _spawn_server(pdfagent, src, figures, tmp_path / "err", "--timeout", "600")
    try:
        _handshake(proc)
        _send(proc, {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
            "name": "describe_data", "arguments": {"path": "bands.csv"}}})
        _send(proc, {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {
            "name": "make_figure", "arguments": {"name": "w", "code": "while True:\n    pass\n"}}})
        wait_until(lambda: busy_workers_of(pdfagent, proc.pid), "a worker runs the code")
        workers = workers_of(pdfagent, proc.pid)
        proc.terminate()
        proc.wait(timeout=60)
        for pid in workers:
            wait_until(lambda: gone(pid), f"worker {pid} is gone")
        assert "signal received" in (tmp_path / "err").read_text()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_print_config_and_bad_folders(pdfagent, folders):
    src, figures = folders
    out = subprocess.run(
        [str(pdfagent), "mcp", "--src", str(src), "--figures", str(figures), "--print-config"],
        capture_output=True, check=True, text=True).stdout
    server = json.loads(out)["mcpServers"]["pdfagent"]
    assert server["command"] == str(pdfagent)
    assert server["args"] == ["mcp", "--src", str(src.resolve()), "--figures", str(figures.resolve())]
    bad = subprocess.run([str(pdfagent), "mcp", "--src", str(src / "nope")],
                         capture_output=True, text=True, stdin=subprocess.DEVNULL)
    assert bad.returncode == 4 and "does not exist" in bad.stderr
    inside = subprocess.run(
        [str(pdfagent), "mcp", "--src", str(src), "--figures", str(src / "figs")],
        capture_output=True, text=True, stdin=subprocess.DEVNULL)
    assert inside.returncode == 4 and "inside the data folder" in inside.stderr


def test_print_config_names_the_default_figures_folder_a_person_finds(pdfagent, tmp_path):
    """Without --figures: Documents/PDFAgent figures; ~/PDFAgent figures without a Documents
    folder or when the data folder holds Documents (said on stderr, not refused); no default
    when the data folder is the home folder. HOME is a temporary one; no user-dirs.dirs."""
    home = tmp_path / "home"
    documents = home / "Documents"
    (home / ".config").mkdir(parents=True)
    data = tmp_path / "data"
    data.mkdir()
    env = {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config")}

    def print_config(src):
        done = subprocess.run([str(pdfagent), "mcp", "--src", str(src), "--print-config"],
                              capture_output=True, text=True, env=env, stdin=subprocess.DEVNULL)
        if done.returncode != 0:
            return None, done
        args = json.loads(done.stdout)["mcpServers"]["pdfagent"]["args"]
        assert args[:3] == ["mcp", "--src", str(src.resolve())], args
        assert args[3] == "--figures", args
        return pathlib.Path(args[4]), done

    # No Documents folder yet: the home folder's.
    figures, done = print_config(data)
    assert figures == home / "PDFAgent figures", done.stderr
    assert figures.is_dir() and f"`{figures}`" in done.stderr, done.stderr

    documents.mkdir()
    figures, done = print_config(data)
    assert figures == documents / "PDFAgent figures", done.stderr
    assert figures.is_dir() and f"`{figures}`" in done.stderr, done.stderr

    # The data folder is Documents: the default would lie inside it; the server says so and
    # uses the home folder's instead of refusing to start.
    figures, done = print_config(documents)
    assert figures == home / "PDFAgent figures", done.stderr
    assert "inside the data folder" in done.stderr, done.stderr
    assert f"`{home / 'PDFAgent figures'}`" in done.stderr, done.stderr

    # The data folder is the home folder: no default outside it; the sentence says what to do.
    figures, done = print_config(home)
    assert figures is None and done.returncode == 4, done
    assert "--figures DIR" in done.stderr and "inside the data folder" in done.stderr, done.stderr
    assert done.stdout == ""


def test_transcript_of_a_rejected_then_fixed_figure(pdfagent, folders, tmp_path):
    """Records the JSON-RPC exchange (through jsonrpc_tee.py) into target/mcp-transcript.md;
    docs/mcp-transcript.md is a copy of one such run."""
    src, figures = folders
    log = tmp_path / "session.jsonl"
    tee = [sys.executable, str(pathlib.Path(__file__).with_name("jsonrpc_tee.py")), str(log)]
    rejected_code = "import os\nfiles = os.listdir(SRC)\nplt.plot([1, 2, 3])\nplt.savefig(OUT)\n"
    fixed_code = "files = listdir()\nplt.plot([1, 2, 3])\nplt.title(files[0])\nplt.savefig(OUT)\n"

    async def go():
        params = server_params(pdfagent, src, figures, wrap=tee)
        async with connect(params, tmp_path / "err") as (s, _):
            first = await s.call_tool("make_figure", {"name": "demo", "code": rejected_code})
            second = await s.call_tool("make_figure", {"name": "demo", "code": fixed_code})
            return first, second

    first, second = run(go)
    assert first.is_error and "import-not-allowed" in texts(first)
    assert not second.is_error and (figures / "demo.png").is_file()
    out = ROOT / "target" / "mcp-transcript.md"
    out.write_text(render_transcript(log, src, figures))


def test_transcript_of_an_empty_axes_warning_then_fixed(pdfagent, folders, tmp_path):
    """A model that cannot see images draws a 1x2 figure, forgets the right panel and cuts
    off its labels; the report says so; it fixes the code. Written to target/mcp-transcript-report.md;
    docs/mcp-transcript-report.md is a copy of one such run."""
    src, figures = folders
    first_code = (
        "import pandas as pd\n"
        "bands = pd.read_csv('bands.csv')\n"
        "fig, (left, right) = plt.subplots(1, 2, figsize=(8, 3))\n"
        "left.plot(bands['k'], bands['band1_eV'])\n"
        "left.set_xlabel('k (1/a)'); left.set_ylabel('E (eV)'); left.set_title('band 1')\n"
        "right.set_title('band 2')\n"
        "plt.savefig(OUT)\n"
    )
    fixed_code = first_code.replace(
        "right.set_title('band 2')\n",
        "right.plot(bands['k'], bands['band2_eV'], color='tab:orange')\n"
        "right.set_xlabel('k (1/a)'); right.set_ylabel('E (eV)'); right.set_title('band 2')\n"
        "fig.tight_layout()\n",
    )

    async def go():
        async with connect(server_params(pdfagent, src, figures), tmp_path / "err") as (s, _):
            args = {"name": "bands", "preview": "none"}
            first = await s.call_tool("make_figure", {**args, "code": first_code})
            second = await s.call_tool("make_figure", {**args, "code": fixed_code})
            return first, second

    first, second = run(go)
    assert not first.is_error and not second.is_error, texts(first) + texts(second)
    codes = [w["code"] for w in first.structured_content["figures"][0]["report"]["warnings"]]
    # The right panel was forgotten, and a 3-inch-high figure cuts off its x labels.
    assert codes == ["empty-axes", "text-outside"], codes
    assert "'band 2' is empty" in texts(first), texts(first)
    assert second.structured_content["figures"][0]["report"]["warnings"] == []
    assert "No warnings." in texts(second)
    lines = [
        "# MCP transcript: the figure report catches an empty panel and a cut-off label",
        "",
        "Captured from a real session (test `test_transcript_of_an_empty_axes_warning_then_fixed`): "
        "the official Python MCP SDK calling `pdfagent mcp`'s `make_figure` with "
        "`preview: \"none\"`, as a client for a model that cannot see images would. The "
        "result's text is all such a model gets: the report of what was drawn, with "
        "warnings. Paths are the test's temporary folders.",
        "",
    ]
    for title, code, result in [("First call", first_code, first),
                                ("After reading the warning", fixed_code, second)]:
        lines += [f"## {title}", "", "```python", code.rstrip(), "```", "",
                  "Result (text):", "", "```", texts(result), "```", ""]
    (ROOT / "target" / "mcp-transcript-report.md").write_text("\n".join(lines))


def render_transcript(log, src, figures):
    lines = [
        "# MCP transcript: a rejected, then fixed, `make_figure`",
        "",
        "Captured from a real session: the official Python MCP SDK (`mcp` 2.3.0, "
        "`stdio_client` + `ClientSession`) talking to `pdfagent mcp` through "
        "`tests/mcp/jsonrpc_tee.py` (test `test_transcript_of_a_rejected_then_fixed_figure`). "
        "`->` is client to server, `<-` server to client. Only the base64 image data is "
        "shortened. (The SDK lists the tools by itself after the first call, to validate "
        "results against any output schema; that answer shows the generated tool descriptions.) "
        f"Temporary folders: data `{src}`, figures `{figures}`.",
        "",
    ]
    for entry in map(json.loads, log.read_text().splitlines()):
        message = entry["message"]
        if isinstance(message, dict):
            for item in (message.get("result") or {}).get("content", []) or []:
                if item.get("type") == "image":
                    item["data"] = f"<{len(item['data'])} base64 characters: the PNG>"
        lines += [f"`{entry['dir']}`", "", "```json", json.dumps(message, indent=2,
                  ensure_ascii=False), "```", ""]
    return "\n".join(lines)


def npy_bytes(descr: str, shape: tuple, payload: bytes) -> bytes:
    """A .npy file (format 1.0) written by hand: the client venv has no numpy."""
    header = f"{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape!r}, }}"
    pad = 64 - (10 + len(header) + 1) % 64
    header = (header + " " * pad + "\n").encode()
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header + payload


class _Exit:
    """Unpickled, it ends the reader's process at once: describe_data would then fail."""

    def __reduce__(self):
        return (os._exit, (3,))


def test_describe_data_npz_v73_mat_and_pickled_npy(pdfagent, folders, tmp_path):
    import pickle
    import zipfile

    src, figures = folders
    with zipfile.ZipFile(src / "pair.npz", "w") as z:
        z.writestr("x.npy", npy_bytes("<f8", (3,), struct.pack("<3d", 1, 2, 3)))
        z.writestr("img.npy", npy_bytes("<i4", (2, 2), struct.pack("<4i", 1, 2, 3, 4)))
    # A MATLAB v7.3 file is HDF5 behind a 512-byte MATLAB header: a real one, made with the
    # runtime's h5py by tests/fixtures/make_load_data.py.
    fixture = pathlib.Path(__file__).resolve().parent.parent / "fixtures" / "v73.mat"
    (src / "big.mat").write_bytes(fixture.read_bytes())
    # (The canary that proves no file is written by an unpickled payload is in
    # tests/tests/security_inspect.rs, where the worker's run directory can be watched.)
    (src / "evil.npy").write_bytes(npy_bytes("|O", (1,), pickle.dumps([_Exit()])))

    async def go():
        async with connect(server_params(pdfagent, src, figures), tmp_path / "err") as (s, _):
            return {p: await s.call_tool("describe_data", {"path": p})
                    for p in ["pair.npz", "big.mat", "evil.npy"]}

    out = run(go)
    npz = texts(out["pair.npz"])
    assert "2 arrays" in npz and "x: (3,) float64" in npz and "img: (2, 2) int32" in npz, npz
    v73 = texts(out["big.mat"])
    assert "MATLAB v7.3 (HDF5)" in v73, v73
    assert "7 variables" in v73 and "label: (1, 11) char, str" in v73, v73
    evil = texts(out["evil.npy"])
    assert not out["evil.npy"].is_error, evil
    assert "refused: the file holds Python objects (a pickle)" in evil, evil


DESCRIPTIONS = ROOT / "tests" / "fixtures" / "descriptions"


def test_describe_data_says_what_the_window_shows_for_v73_mat_and_xlsx(pdfagent, folders, tmp_path):
    """The same snapshot the window's preview is compared with (tests/e2e/app.test.mjs) and
    the engine's inspection writes (tests/tests/inspect.rs)."""
    src, figures = folders
    names = ["v73.mat", "sheet.xlsx"]
    for name in names:
        shutil.copy(ROOT / "tests" / "fixtures" / name, src / name)

    async def go():
        async with connect(server_params(pdfagent, src, figures), tmp_path / "err") as (s, _):
            return {n: await s.call_tool("describe_data", {"path": n}) for n in names}

    out = run(go)
    for name in names:
        assert not out[name].is_error, texts(out[name])
        want = (DESCRIPTIONS / f"{name}.txt").read_text(encoding="utf-8")
        assert texts(out[name]) + "\n" == want, (name, texts(out[name]))


def test_list_data_shows_links_out_of_the_folder_as_refused(pdfagent, folders, tmp_path):
    src, figures = folders
    secret = tmp_path / "secret.csv"
    secret.write_text("a,b\nSECRET-TOKEN,1\n")
    (src / "out.csv").symlink_to(secret)
    (src / "gone.csv").symlink_to(src / "missing.csv")
    (src / "alias.csv").symlink_to(src / "bands.csv")
    (src / ".cache").mkdir()
    (src / ".cache" / "x.csv").write_text("1\n")

    async def go():
        async with connect(server_params(pdfagent, src, figures), tmp_path / "err") as (s, _):
            return (await s.call_tool("list_data", {}),
                    await s.call_tool("describe_data", {"path": "out.csv"}),
                    await s.call_tool("describe_data", {"path": "alias.csv"}))

    listed, described, alias = run(go)
    text = texts(listed)
    assert "out.csv\trefused: points outside the data folder" in text, text
    assert "gone.csv\trefused: a link to nothing" in text, text
    assert f"alias.csv\t{(src / 'bands.csv').stat().st_size} bytes" in text, text
    assert "1 hidden entries" in text and ".cache" not in text, text
    assert described.is_error and "outside the data folder" in texts(described)
    assert "SECRET-TOKEN" not in texts(described)
    assert not alias.is_error and "table: " in texts(alias), texts(alias)


def test_several_calls_in_flight_each_its_own_run(pdfagent, folders, tmp_path):
    src, figures = folders

    async def go():
        results = {}
        async with connect(server_params(pdfagent, src, figures), tmp_path / "err") as (s, _):

            async def figure(name):
                results[name] = await s.call_tool("make_figure", {"name": name, "code": LEGIT_CODE})

            async def describe():
                results["describe"] = await s.call_tool("describe_data", {"path": "bands.csv"})

            async with anyio.create_task_group() as tg:
                tg.start_soon(figure, "one")
                tg.start_soon(figure, "two")
                tg.start_soon(describe)
        return results

    results = run(go)
    for name in ["one", "two"]:
        assert not results[name].is_error, texts(results[name])
        assert png_size((figures / f"{name}.png").read_bytes())
    assert "band1_eV" in texts(results["describe"])


SLOW_CODE = "import time\ntime.sleep(3)\nplt.plot([1, 2, 3])\nplt.savefig(OUT)\n"


def test_progress_notifications_while_a_long_figure_runs_and_none_after_its_result(
        pdfagent, folders, tmp_path):
    """A call with a progress token (the SDK sends one with progress_callback) gets
    notifications/progress while a 3 s figure runs: increasing, no total, at most four a
    second, the stage and elapsed time in words, every one on the wire before the result's
    line and none after it; the same figure called without a token gets none. The wire
    order is read from a recording of the session (jsonrpc_tee.py)."""
    src, figures = folders
    log = tmp_path / "session.jsonl"
    tee = [sys.executable, str(pathlib.Path(__file__).with_name("jsonrpc_tee.py")), str(log)]
    seen = []

    async def on_progress(progress, total, message):
        seen.append((progress, total, message))

    async def go():
        params = server_params(pdfagent, src, figures, wrap=tee)
        async with connect(params, tmp_path / "err") as (s, _):
            silent = await s.call_tool("make_figure", {"name": "silent", "code": SLOW_CODE})
            told = await s.call_tool("make_figure", {"name": "told", "code": SLOW_CODE},
                                     progress_callback=on_progress)
            # Longer than the server's period between notifications: a reporter left
            # running after the result would have sent another by now.
            await anyio.sleep(2.5)
            after = await s.call_tool("list_data", {})
            return silent, told, after

    silent, told, after = run(go)
    for result in (silent, told):
        assert not result.is_error, texts(result)
    assert not after.is_error
    entries = [json.loads(line) for line in log.read_text().splitlines()]
    sent = [e["message"] for e in entries if e["dir"] == "->" and isinstance(e["message"], dict)]
    calls = [m for m in sent if m.get("method") == "tools/call"
             and m["params"]["name"] == "make_figure"]
    assert len(calls) == 2, calls
    assert "progressToken" not in calls[0]["params"].get("_meta", {}), calls[0]
    token = calls[1]["params"]["_meta"]["progressToken"]
    received = [e["message"] for e in entries if e["dir"] == "<-" and isinstance(e["message"], dict)]

    def position_of_response(request):
        return next(i for i, m in enumerate(received)
                    if m.get("id") == request["id"] and ("result" in m or "error" in m))

    progress = [(i, m["params"]) for i, m in enumerate(received)
                if m.get("method") == "notifications/progress"]
    assert progress, "no notifications/progress for a 3 s figure with a token"
    assert all(p["progressToken"] == token for _, p in progress), progress
    told_at = position_of_response(calls[1])
    silent_at = position_of_response(calls[0])
    assert all(silent_at < i < told_at for i, _ in progress), \
        "a notification outside the call that asked, or after its result"
    values = [p["progress"] for _, p in progress]
    assert values == sorted(set(values)), f"progress must increase: {values}"
    assert all(b - a > 0.249 for a, b in zip(values, values[1:])), f"too frequent: {values}"
    assert values[0] >= 1.0, f"a notification in the first second: {values}"
    assert all("total" not in p for _, p in progress), progress
    assert any(p["message"].startswith("running the code (") for _, p in progress), progress
    for _, p in progress:
        assert p["message"].endswith(f"({int(p['progress'])} s)"), p
    # The client saw the same notifications, in order, while the call ran.
    assert [v for v, _, _ in seen] == values, (seen, values)


def test_failures_are_errors_with_the_stderr_tail_or_what_to_do(pdfagent, folders, tmp_path):
    src, figures = folders

    async def go():
        async with connect(server_params(pdfagent, src, figures), tmp_path / "err") as (s, _):
            crash = await s.call_tool("make_figure", {"name": "c", "code": "x = [1, 2]\ny = x[5]\n"})
            # Drawing without saving is captured; code that draws nothing makes no figure.
            nothing = await s.call_tool("make_figure", {"name": "n", "code": "x = [1, 2]\n"})
            bad_name = await s.call_tool("make_figure", {"name": "../x", "code": "plt.savefig(OUT)\n"})
            return crash, nothing, bad_name

    crash, nothing, bad_name = run(go)
    assert crash.is_error
    assert "IndexError" in texts(crash) and "line 2" in texts(crash), texts(crash)
    assert nothing.is_error and "NO FIGURE" in texts(nothing)
    assert "plt.savefig(OUT)" in texts(nothing)
    assert bad_name.is_error and "bad-name" in texts(bad_name), texts(bad_name)
    assert list(figures.iterdir()) == []


def test_the_as_written_corpus_makes_the_same_figures_on_the_fork_server(pdfagent, tmp_path):
    """Every script of tests/corpus/as-written, unchanged, as make_figure calls: each runs in
    a child of the server's fork server (not in a cold worker, as make-figure does), and the
    figures captured are the ones the command line's snapshot (captured.txt) records."""
    corpus = ROOT / "tests" / "corpus" / "as-written"
    src = tmp_path / "data"
    shutil.copytree(corpus / "data", src)
    figures = tmp_path / "figures"
    figures.mkdir()
    want = dict(
        line.split(": ", 1) for line in (corpus / "captured.txt").read_text().splitlines() if line
    )
    scripts = sorted(corpus.glob("*.py"))
    assert len(scripts) == len(want) >= 40

    async def go():
        params = server_params(pdfagent, src, figures)
        got = {}
        async with connect(params, tmp_path / "err") as (s, _):
            for script in scripts:
                result = await s.call_tool(
                    "make_figure", {"name": script.stem, "code": script.read_text(),
                                    "preview": "none"}
                )
                content = result.structured_content or {}
                if result.is_error:
                    got[script.stem] = f"FAILED {texts(result)[:300]}"
                    continue
                got[script.stem] = ", ".join(
                    f"{f['captured']} {f['format']}" for f in content.get("figures", [])
                )
        return got

    got = run(go)
    differ = {k: (got.get(k), v) for k, v in want.items() if got.get(k) != v}
    assert not differ, differ


def test_a_name_in_any_script_returns_its_figure_and_a_link_that_reads_back(
    pdfagent, folders, tmp_path
):
    src, figures = folders

    async def go():
        async with connect(server_params(pdfagent, src, figures), tmp_path / "err") as (s, _):
            result = await s.call_tool(
                "make_figure",
                {"name": "图1", "code": "plt.plot([1, 2])\nplt.savefig(OUT)\n", "preview": "none"},
            )
            [link] = links(result)
            read = await s.read_resource(link.uri)
            refused = await s.call_tool(
                "make_figure", {"name": "CON", "code": "plt.plot([1])\nplt.savefig(OUT)\n"}
            )
            return result, link, read, refused

    result, link, read, refused = run(go)
    assert not result.is_error, texts(result) + (tmp_path / "err").read_text()
    saved = figures / "图1.png"
    assert saved.is_file()
    # The link percent-encodes the name; reading it back gives the file, byte for byte.
    uri = str(link.uri)
    assert uri.isascii() and "%E5%9B%BE1.png" in uri, uri
    [contents] = read.contents
    assert base64.b64decode(contents.blob) == saved.read_bytes()
    assert refused.is_error and "device name" in texts(refused), texts(refused)
    assert not (figures / "CON.png").exists()


MISTAKES = ROOT / "tests" / "corpus" / "mistakes"
# A sample of tests/corpus/mistakes (the command-line suite, tests/tests/mistakes.rs, runs
# every one): a guessed column, a .npz key, a chat-assistant path read from the data folder,
# an ambiguous one, a shape mismatch, a removed API, a blocked convenience.
MISTAKE_SAMPLE = [
    "01_column_typo", "09_npz_key", "17_chatgpt_sandbox_path", "22_ambiguous_name",
    "27_plot_length_mismatch", "34_dataframe_append", "44_os_listdir",
]


def test_a_sample_of_the_mistakes_is_answered_with_its_fix(pdfagent, tmp_path):
    """Through MCP as through the command line: each answer carries its fact (the script's
    `# expect:` lines), a failed run's text shows the code's line before any library's, its
    structuredContent holds the traceback as data, and the reminder of how to read data and
    save figures comes only with failures about files."""
    src = tmp_path / "data"
    shutil.copytree(MISTAKES / "data", src)
    figures = tmp_path / "figures"
    figures.mkdir()

    async def go():
        got = {}
        async with connect(server_params(pdfagent, src, figures), tmp_path / "err") as (s, _):
            for stem in MISTAKE_SAMPLE:
                code = (MISTAKES / f"{stem}.py").read_text()
                got[stem] = (code, await s.call_tool(
                    "make_figure", {"name": stem, "code": code, "preview": "none"}))
        return got

    for stem, (code, result) in run(go).items():
        text = texts(result)
        header = [line for line in code.splitlines() if line.startswith("#")]
        ok = "# expect-ok" in header
        assert result.is_error is not ok, (stem, text)
        for line in header:
            if line.startswith("# expect: "):
                assert line.removeprefix("# expect: ") in text, (stem, text)
        failure = (result.structured_content or {}).get("failure")
        if failure is not None:
            first = failure["frames"][0]
            assert first["kind"] == "user" and first["source"], (stem, failure)
            assert text.index(first["source"]) < text.find("\n    in ") or "\n    in " not in text
            assert ("Remember:" in text) is failure["about_files"], (stem, text)
            assert "/tmp/pdfagent-run" not in text and "site-packages" not in text, text
