# PDFAgent worker preamble. The pipeline writes this file, followed by one call line
#     _pdfagent_run(SRC, OUT, CODE)
# with the three values as Python string literals (a warm worker: OUT and CODE are None and
# come later on stdin, see below), into the run directory as the worker
# script. The figure code itself is compiled on its own with the file name "<code>", so a
# traceback names the code's own line numbers (line 1 is the first line the author wrote)
# and no offset has to be reported.
#
# Everything the worker needs (os, sys, traceback) is imported inside the function, so the
# code's namespace holds only what is handed to it below: np, plt, loadmat, SRC, OUT,
# srcpath, listdir and walkfiles. The guard at the end is a belt only: the operating
# system's confinement (applied before this interpreter started) is the wall.


def _pdfagent_run(src_dir, out_path, code):
    import os
    import sys
    import linecache
    import traceback

    import numpy as np
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    # plt.savefig ends with canvas.draw_idle(), which on Agg (no screen, no event loop)
    # renders the whole figure a second time after it was saved: ~30 ms of nothing per figure.
    FigureCanvasAgg.draw_idle = lambda self, *args, **kwargs: None

    src_real = os.path.realpath(src_dir)
    src_key = os.path.normcase(src_real)

    def _inside_src(real):
        try:
            return os.path.commonpath([os.path.normcase(real), src_key]) == src_key
        except ValueError:  # another drive on Windows
            return False

    def srcpath(rel=""):
        """The absolute path of `rel`, a path relative to the source folder SRC.

        Symbolic links are followed; the result must stay inside SRC."""
        rel = os.fspath(rel)
        if not isinstance(rel, str):
            raise TypeError(f"srcpath({rel!r}): give the path as text, e.g. srcpath('data.csv')")
        if "\0" in rel:
            raise ValueError(f"srcpath({rel!r}): the path contains a NUL character")
        if os.path.isabs(rel) or os.path.splitdrive(rel)[0]:
            raise ValueError(
                f"srcpath({rel!r}): give a path relative to the source folder, "
                "e.g. srcpath('data.csv') or srcpath('runs/run1.mat'); absolute paths are refused"
            )
        joined = os.path.join(src_real, rel)
        real = os.path.realpath(joined)
        if _inside_src(real):
            return real
        if _inside_src(os.path.normpath(joined)):
            raise PermissionError(
                f"srcpath({rel!r}): refused: a symbolic link on this path points outside the "
                "source folder; only files inside SRC can be read"
            )
        raise PermissionError(
            f"srcpath({rel!r}): refused: the path leaves the source folder ('..'); "
            "only files inside SRC can be read"
        )

    def listdir(sub=""):
        """Sorted names in a folder of SRC (`sub` is relative to SRC; '' is SRC itself)."""
        return sorted(os.listdir(srcpath(sub)))

    def walkfiles(sub=""):
        """Every file under SRC (or under `sub` inside it), as sorted relative paths with '/'.

        Symbolic links that point outside SRC are left out; linked folders are not entered."""
        top = srcpath(sub)
        found = []
        for dirpath, dirnames, filenames in os.walk(top, followlinks=False):
            dirnames.sort()
            for name in filenames:
                full = os.path.join(dirpath, name)
                real = os.path.realpath(full)
                if _inside_src(real) and os.path.isfile(real):
                    found.append(os.path.relpath(full, src_real).replace(os.sep, "/"))
        return sorted(found)

    def loadmat(file_name, *args, **kwargs):
        """scipy.io.loadmat, imported on first use (scipy.io costs time to import)."""
        from scipy.io import loadmat as scipy_loadmat

        return scipy_loadmat(file_name, *args, **kwargs)

    # --- the guard: a belt, not the wall -------------------------------------------------
    # Not `sys.modules['subprocess'] = None`: pandas and matplotlib import subprocess, and
    # that would break ordinary code. Starting a program is refused where it happens.
    def _no_programs(*args, **kwargs):
        raise PermissionError("starting programs is not allowed in figure code")

    for name in (
        "system", "popen", "fork", "forkpty", "posix_spawn", "posix_spawnp", "startfile",
        "execl", "execle", "execlp", "execlpe", "execv", "execve", "execvp", "execvpe",
        "spawnl", "spawnle", "spawnlp", "spawnlpe", "spawnv", "spawnve", "spawnvp", "spawnvpe",
    ):
        if hasattr(os, name):
            setattr(os, name, _no_programs)

    import subprocess

    subprocess.Popen._execute_child = _no_programs

    import socket

    class _NoNetwork(socket.socket):
        def __init__(self, *args, **kwargs):
            raise PermissionError("network access is not allowed in figure code")

    socket.socket = _NoNetwork

    # --- say so plainly when the operating system's wall is not fully up ----------------
    # The worker puts its confinement report (JSON) into this script's globals before it
    # runs it. The warning goes to stderr before and after the code, so it is in the tail.
    import json

    report = json.loads(globals().get("__pdfagent_confinement__", "null") or "null")
    warning = None
    if not report:
        warning = "confinement: none - the worker was started without a confinement plan"
    elif not report.get("fully_enforced"):
        warning = report.get("summary") or "confinement: partial"

    def _warn():
        if warning:
            print("pdfagent: WARNING: " + warning, file=sys.stderr, flush=True)

    _warn()

    # --- a warm worker: pay the start-up now, then wait for the code ----------------------
    # Called with out_path and code None, the worker warms up (pandas imported, a small
    # figure drawn through the Agg renderer so fonts and the PNG writer are loaded), says so
    # with a marker file in its run directory, and blocks reading one JSON request
    # {"out": ..., "code": ...} from stdin until the parent closes the pipe. It runs that
    # code once and exits: a process that ran code is never reused.
    if code is None:
        import gc
        import io
        import select

        def _code_waiting():
            # Code submitted while this worker is still warming up: the optional steps
            # below would only delay it (figures back to back), so they are skipped.
            try:
                return bool(select.select([sys.stdin], [], [], 0)[0])
            except (OSError, ValueError):  # Windows: select() takes sockets only
                return False

        if not _code_waiting():
            try:
                import pandas  # noqa: F401 - cached in sys.modules for the code
            except ImportError:
                pass
        if not _code_waiting():
            x = np.linspace(0, 1, 50)
            plt.plot(x, np.sin(x), label="warm")
            plt.xlabel("x")
            plt.ylabel("y")
            plt.title("warm")
            plt.legend()
            plt.savefig(io.BytesIO(), format="png")
            plt.close("all")
            # Everything so far lives until exit: keep the cyclic collector from walking it
            # again and again while the code runs (measured: the first figure ~30 ms faster).
            gc.collect()
            gc.freeze()
        with open(".pdfagent-warm-ready", "wb"):
            pass
        request = json.loads(sys.stdin.buffer.read().decode("utf-8"))
        sys.stdin.close()
        try:
            os.close(0)  # the code pipe is done with: nothing more can come through it
        except OSError:
            pass
        out_path, code = request["out"], request["code"]
        del request

    # --- run the code --------------------------------------------------------------------
    namespace = {
        "__name__": "__main__",
        "__builtins__": __builtins__,
        "np": np,
        "plt": plt,
        "loadmat": loadmat,
        "SRC": src_real,
        "OUT": out_path,
        "srcpath": srcpath,
        "listdir": listdir,
        "walkfiles": walkfiles,
    }
    linecache.cache["<code>"] = (len(code), None, code.splitlines(True), "<code>")
    try:
        compiled = compile(code, "<code>", "exec", dont_inherit=True)
        exec(compiled, namespace)
    except SystemExit:
        raise
    except BaseException as exc:  # noqa: BLE001 - every failure is reported the same way
        # Drop this preamble's own frame: the report starts at the author's code.
        tb = exc.__traceback__.tb_next if exc.__traceback__ is not None else None
        traceback.print_exception(type(exc), exc, tb, file=sys.stderr)
        sys.stderr.flush()
        raise SystemExit(1) from None
    finally:
        _warn()
