# PDFAgent fork server (Linux). Pasted after the preamble, the capture and the report; the
# preamble calls _pdfagent_serve once the worker has warmed up (numpy, matplotlib, pandas
# imported, a figure drawn), when it was started as a fork server.
#
# The server never runs submitted code. It reads one JSON request per line from stdin (the
# host's pipe) and forks a child per request, ahead of its figure: only the child returns
# from _pdfagent_serve, confines itself (_pdfagent_serve_child), and the preamble installs
# the figure capture in its run directory; then the child waits (_pdfagent_serve_wait) until the host has written
# the figure's request into that run directory (its request file) and said "go". So the
# fork, the child's confinement and the capture are paid while the host waits for a figure,
# not after.
#   {"id": N, "run_dir": D, "request_file": R, "plan": P, "draw": B}
#                                        fork the child of request N (run directory D, plan P;
#                                        with B, it draws a figure once while it waits)
#   {"go": N}                            the figure is in R (inside D): start it
#   {"kill": N}                          kill the child of request N (time-out, cancel)
# The server answers on stdout, one JSON object per line:
#   {"id": N, "pid": P}     the child for request N was forked
#   {"id": N, "exit": S}    it ended: its exit status, or -SIGNAL when a signal killed it
#   {"id": N, "error": T}   it could not be forked
# The host's side of these messages is python-runtime/src/pipeline/running/protocol.rs; here
# _pdfagent_serve_message reads them and _pdfagent_serve_reply writes the answers.
# EOF on stdin, or a new parent (the host died), ends the server and its children.
#
# Before any code runs, the child replaces its stdin with the read end of its own "go" pipe
# and its stdout/stderr with the two files the host created in its run directory (the host
# reads them through the descriptors it opened before the request was sent), closes every
# other descriptor of the server's it knows of (its siblings' "go" pipes), then confines
# itself with the figure's own plan through the Rust function the worker hands in (a new
# Landlock layer: only its own run directory writable; the worker's seccomp filter: no fork,
# no exec; its own limits; PR_SET_PDEATHSIG). No thread runs in the server: it forks, and a
# fork copies one thread.

def _pdfagent_serve_message(line):
    """One line from the host (protocol.rs's HostMessage) as (kind, request id, fork):
    kind is "kill", "go" or "fork"; fork is (run_dir, plan as JSON, request_file, draw) for
    a fork request, else None."""
    import json

    message = json.loads(line)
    if "kill" in message:
        return "kill", message["kill"], None
    if "go" in message:
        return "go", message["go"], None
    fork = (
        message["run_dir"],
        json.dumps(message["plan"]),
        message["request_file"],
        bool(message.get("draw")),
    )
    return "fork", message["id"], fork


def _pdfagent_serve_reply(rid, key, value):
    """The server's line about request rid (protocol.rs's ServerReply): key is "pid" (forked),
    "exit" (ended) or "error" (could not fork)."""
    import json

    return (json.dumps({"id": rid, key: value}) + "\n").encode("utf-8")


def _pdfagent_serve(server_dir, confine_child):
    """The server's loop: forks a child per request and returns only in a child, confined
    (`_pdfagent_serve_child`): `(run_dir, report, request_file, draw)`. The server's state
    (its children, their "go" pipes, the SIGCHLD wake-up pipe) is one namespace the stages
    below share."""
    import os
    import select
    import signal
    import sys
    from types import SimpleNamespace

    host = os.getppid()
    server = SimpleNamespace(pid=os.getpid(), children={}, gos={})
    # children: pid -> request id; gos: request id -> write end of that child's "go" pipe,
    # until it is used.
    server.wake_r, server.wake_w = os.pipe()
    os.set_blocking(server.wake_w, False)
    signal.signal(signal.SIGCHLD, lambda signum, frame: None)
    signal.set_wakeup_fd(server.wake_w, warn_on_full_buffer=False)

    with open(os.path.join(server_dir, ".pdfagent-warm-ready"), "wb"):
        pass
    pending = b""
    while True:
        _pdfagent_serve_reap(server)
        if os.getppid() != host:
            _pdfagent_serve_end(server, 124)
        try:
            readable, _, _ = select.select([0, server.wake_r], [], [], 0.2)
        except InterruptedError:
            continue
        if server.wake_r in readable:
            try:
                os.read(server.wake_r, 4096)
            except BlockingIOError:
                pass
        if 0 not in readable:
            continue
        chunk = os.read(0, 1 << 20)
        if not chunk:
            _pdfagent_serve_end(server, 0)
        pending += chunk
        while b"\n" in pending:
            line, pending = pending.split(b"\n", 1)
            if not line.strip():
                continue
            try:
                forked = _pdfagent_serve_handle(server, line.decode("utf-8"))
            except Exception as exc:  # noqa: BLE001 - a bad request must not end the server
                print(f"pdfagent fork server: bad request: {exc}", file=sys.stderr, flush=True)
                continue
            if forked is not None:
                return _pdfagent_serve_child(server, *forked, confine_child)


def _pdfagent_serve_send(rid, key, value):
    import os

    os.write(1, _pdfagent_serve_reply(rid, key, value))


def _pdfagent_serve_end(server, status):
    """End the server and every child it forked."""
    import os
    import signal

    for pid in list(server.children):
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    os._exit(status)


def _pdfagent_serve_close_go(server, rid):
    import os

    fd = server.gos.pop(rid, None)
    if fd is not None:
        os.close(fd)


def _pdfagent_serve_reap(server):
    """Every child that ended: its "go" pipe closed, its exit said to the host."""
    import os

    children = server.children
    while children:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            children.clear()
            return
        if pid == 0:
            return
        rid = children.pop(pid, None)
        if rid is not None:
            _pdfagent_serve_close_go(server, rid)
            _pdfagent_serve_send(rid, "exit", os.waitstatus_to_exitcode(status))


def _pdfagent_serve_child(server, fork, go_read, confine_child):
    """In the forked child: detach from the server's pipes and confine; never raises."""
    import json
    import os
    import signal

    try:
        run_dir, plan, request_file, draw = fork
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        os.close(server.wake_r)
        os.close(server.wake_w)
        for fd in server.gos.values():  # the siblings' "go" pipes: never this child's to use
            os.close(fd)
        server.gos.clear()
        os.dup2(go_read, 0)
        os.close(go_read)
        for fd, name in ((1, "stdout.txt"), (2, "stderr.txt")):
            target = os.open(
                os.path.join(run_dir, name), os.O_WRONLY | os.O_APPEND | os.O_NOFOLLOW
            )
            os.dup2(target, fd)
            os.close(target)
        report = confine_child(plan, server.pid)
        for var in ("HOME", "TMPDIR", "TMP", "TEMP"):
            os.environ[var] = run_dir
        import tempfile

        tempfile.tempdir = None
        os.chdir(run_dir)
        return run_dir, json.loads(report), request_file, draw
    except BaseException as exc:  # noqa: BLE001 - the child must never serve
        try:
            os.write(2, f"pdfagent fork server: the figure's process could not start: {exc}\n".encode())
        finally:
            os._exit(125)


def _pdfagent_serve_handle(server, line):
    """One request line: a kill, a "go", or a fork. Returns `(fork, go_read)` in a child
    just forked, None in the server."""
    import os
    import posix  # os.fork is replaced by the preamble's guard; posix.fork is the real one
    import signal
    import sys

    kind, rid, fork = _pdfagent_serve_message(line)
    if kind == "kill":
        for pid, child_rid in server.children.items():
            if child_rid == rid:
                os.kill(pid, signal.SIGKILL)
        return None
    if kind == "go":
        fd = server.gos.pop(rid, None)
        if fd is not None:
            try:
                os.write(fd, b"g")
            except OSError:  # the child is gone: its exit is reported by _pdfagent_serve_reap
                pass
            os.close(fd)
        return None
    sys.stdout.flush()
    sys.stderr.flush()
    go_read, go_write = os.pipe()
    try:
        pid = posix.fork()
    except OSError as exc:
        os.close(go_read)
        os.close(go_write)
        _pdfagent_serve_send(rid, "error", f"could not fork: {exc}")
        return None
    if pid == 0:
        os.close(go_write)
        return fork, go_read
    os.close(go_read)
    server.children[pid] = rid
    server.gos[rid] = go_write
    _pdfagent_serve_send(rid, "pid", pid)
    return None


def _pdfagent_serve_wait(request_file):
    """In a forked child, confined and with the capture installed: wait for the server's
    "go", then read the figure's request ({"out", "code", "options"}) the host wrote into
    its run directory. The server closing the pipe without a "go" (the host let the child
    go unused) ends the child before any code runs."""
    import json
    import os

    if os.read(0, 1) != b"g":
        os._exit(0)
    with open(request_file, encoding="utf-8") as f:
        return json.load(f)
