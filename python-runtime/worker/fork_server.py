# PDFAgent fork server (Linux). Pasted after the preamble, the capture and the report; the
# preamble calls _pdfagent_serve once the worker has warmed up (numpy, matplotlib, pandas
# imported, a figure drawn), when it was started as a fork server.
#
# The server never runs submitted code. It reads one JSON request per line from stdin (the
# host's pipe) and forks a child per request, ahead of its figure: only the child returns
# from _pdfagent_serve, confines itself, and the preamble installs the figure capture in
# its run directory; then the child waits (_pdfagent_serve_wait) until the host has written
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
    import json
    import os
    import posix  # os.fork is replaced by the preamble's guard; posix.fork is the real one
    import select
    import signal
    import sys

    host = os.getppid()
    server_pid = os.getpid()
    children = {}  # pid -> request id
    gos = {}  # request id -> write end of that child's "go" pipe, until it is used
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_w, False)
    signal.signal(signal.SIGCHLD, lambda signum, frame: None)
    signal.set_wakeup_fd(wake_w, warn_on_full_buffer=False)

    def send(rid, key, value):
        os.write(1, _pdfagent_serve_reply(rid, key, value))

    def end(status):
        for pid in list(children):
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        os._exit(status)

    def close_go(rid):
        fd = gos.pop(rid, None)
        if fd is not None:
            os.close(fd)

    def reap():
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
                close_go(rid)
                send(rid, "exit", os.waitstatus_to_exitcode(status))

    def become_child(fork, go_read):
        """In the forked child: detach from the server's pipes and confine; never raises."""
        try:
            run_dir, plan, request_file, draw = fork
            signal.set_wakeup_fd(-1)
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            os.close(wake_r)
            os.close(wake_w)
            for fd in gos.values():  # the siblings' "go" pipes: never this child's to use
                os.close(fd)
            gos.clear()
            os.dup2(go_read, 0)
            os.close(go_read)
            for fd, name in ((1, "stdout.txt"), (2, "stderr.txt")):
                target = os.open(
                    os.path.join(run_dir, name), os.O_WRONLY | os.O_APPEND | os.O_NOFOLLOW
                )
                os.dup2(target, fd)
                os.close(target)
            report = confine_child(plan, server_pid)
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

    def handle(line):
        kind, rid, fork = _pdfagent_serve_message(line)
        if kind == "kill":
            for pid, child_rid in children.items():
                if child_rid == rid:
                    os.kill(pid, signal.SIGKILL)
            return None
        if kind == "go":
            fd = gos.pop(rid, None)
            if fd is not None:
                try:
                    os.write(fd, b"g")
                except OSError:  # the child is gone: its exit is reported by reap()
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
            send(rid, "error", f"could not fork: {exc}")
            return None
        if pid == 0:
            os.close(go_write)
            return fork, go_read
        os.close(go_read)
        children[pid] = rid
        gos[rid] = go_write
        send(rid, "pid", pid)
        return None

    with open(os.path.join(server_dir, ".pdfagent-warm-ready"), "wb"):
        pass
    pending = b""
    while True:
        reap()
        if os.getppid() != host:
            end(124)
        try:
            readable, _, _ = select.select([0, wake_r], [], [], 0.2)
        except InterruptedError:
            continue
        if wake_r in readable:
            try:
                os.read(wake_r, 4096)
            except BlockingIOError:
                pass
        if 0 not in readable:
            continue
        chunk = os.read(0, 1 << 20)
        if not chunk:
            end(0)
        pending += chunk
        while b"\n" in pending:
            line, pending = pending.split(b"\n", 1)
            if not line.strip():
                continue
            try:
                forked = handle(line.decode("utf-8"))
            except Exception as exc:  # noqa: BLE001 - a bad request must not end the server
                print(f"pdfagent fork server: bad request: {exc}", file=sys.stderr, flush=True)
                continue
            if forked is not None:
                return become_child(*forked)


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
