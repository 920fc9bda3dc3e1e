# PDFAgent worker preamble. The pipeline writes this file, then readers.py, harden.py,
# capture.py and figure_report.py (README.md: every script's paste order), followed by one
# call line
#     _pdfagent_run(SRC, OUT, CODE, OPTIONS)
# with the values as Python string literals (OPTIONS a JSON object; a warm worker: OUT and
# CODE are None and come later on stdin with the options, see below), into the run directory
# as the worker script. The figure code itself is compiled on its own with the file name
# "<code>", so a traceback names the code's own line numbers (line 1 is the first line the
# author wrote) and no offset has to be reported.
#
# Everything the worker needs (os, sys, traceback) is imported inside the functions, so the
# code's namespace holds only what is handed to it below: np, plt, loadmat, SRC, OUT,
# srcpath, listdir, walkfiles and load. The guard is a belt only: the operating system's
# confinement (applied before this interpreter started) is the wall.
#
# `_pdfagent_run` calls its stages in order: the libraries' import, the names the code is
# handed (`_pdfagent_run_paths`: srcpath, listdir, walkfiles; `_pdfagent_run_load`: load,
# loadmat — closures, their names are in the reachability snapshot), the hardening
# (harden.py), the guard, a warm worker's warm-up, the confinement warning, the capture
# (capture.py), a warm worker's request (all in `_pdfagent_run_stages`); then it builds
# the code's namespace and runs the code in its own frame.


def _pdfagent_run(src_dir, out_path, code, options_json):
    """The worker: its stages (`_pdfagent_run_stages`), then the code, run in a namespace
    of its own. The code runs in this function's frame (answers.py leaves a frame of
    `_pdfagent_run` out of a failure's frames)."""
    import gc

    # No cyclic collection while the libraries import: they allocate hundreds of thousands
    # of objects that live until exit, and the collector would walk them again and again
    # (measured: a sixth of a cold worker's imports). It is frozen and back on before the
    # figure code runs (below).
    gc.disable()
    import sys
    import linecache
    import traceback
    import json

    run = _pdfagent_run_stages(src_dir, out_path, code, options_json)
    given, run_dir, code, out_path = run.given, run.run_dir, run.code, run.out_path
    describe_failure, answer_notes = given.describe_failure, given.answer_notes
    set_out, finish_capture, explain_refusal, arm_guard = (
        run.set_out, run.finish_capture, run.explain_refusal, run.arm_guard
    )
    _warn = run.warn

    # --- run the code --------------------------------------------------------------------
    # The code gets builtins of its own: rebinding one there (`__builtins__.isinstance =
    # ...`) changes nothing for this worker or the libraries.
    import builtins

    namespace = {
        "__name__": "__main__",
        "__builtins__": dict(vars(builtins)),
        "np": run.np,
        "plt": run.plt,
        "loadmat": run.loadmat,
        "SRC": given.src_real,
        "OUT": out_path,
        "srcpath": given.srcpath,
        "listdir": given.listdir,
        "walkfiles": given.walkfiles,
        "load": run.load,
    }
    linecache.cache["<code>"] = (len(code), None, code.splitlines(True), "<code>")
    run_options = json.loads(run.options_json or "{}")
    set_out(out_path, run_options)
    # What the libraries and this worker made so far lives until exit: out of the
    # collector's reach, which is back on for the code.
    gc.freeze()
    gc.enable()
    guard_refusals = []
    try:
        # optimize=0: the worker's interpreter runs as `python -OO` (its libraries ship
        # without docstrings), but the author's asserts still run.
        compiled = compile(code, "<code>", "exec", dont_inherit=True, optimize=0)
        if run_options.get("guard", True):
            guard_refusals = arm_guard(namespace, run_dir, compiled)
        else:
            # The selftest's canaries (the host's own code, never a user's): they prove
            # Layer 2 on its own, so nothing in front of it may stop them first.
            guard_refusals = []
        exec(compiled, namespace)
        finish_capture()
        if answer_notes or guard_refusals:
            _pdfagent_write_answer(run_dir, None, answer_notes, guard_refusals)
    except SystemExit:
        raise
    except BaseException as exc:  # noqa: BLE001 - every failure is reported the same way
        advice = explain_refusal(exc)
        try:
            failure = describe_failure(exc)
        except Exception:  # noqa: BLE001 - the plain traceback below still says what failed
            failure = None
        if failure is not None:
            if advice:
                failure["fix"] = advice.removeprefix("pdfagent: ")
                failure["about_files"] = True
            # As data for the host (the contract's `failure`), and as text on stderr.
            _pdfagent_write_answer(run_dir, failure, answer_notes, guard_refusals)
            print(_pdfagent_failure_text(failure), file=sys.stderr)
        else:
            # Drop this preamble's own frame: the report starts at the author's code.
            tb = exc.__traceback__.tb_next if exc.__traceback__ is not None else None
            traceback.print_exception(type(exc), exc, tb, file=sys.stderr)
            if advice:
                print(advice, file=sys.stderr)
            if guard_refusals:
                _pdfagent_write_answer(run_dir, None, answer_notes, guard_refusals)
        sys.stderr.flush()
        raise SystemExit(1) from None
    finally:
        _warn()


def _pdfagent_run_stages(src_dir, out_path, code, options_json):
    """Everything before the code, in order: the libraries' import, the names the code is
    handed, the hardening, the guard, a warm worker's warm-up and request, the
    confinement warning, the capture. Returns what the code's run needs, as one
    namespace."""
    import os
    import json
    from types import SimpleNamespace

    np, plt = _pdfagent_import_libraries()
    # srcpath() and its friends, and the answers to a failure (_pdfagent_run_paths).
    given = _pdfagent_run_paths(src_dir)
    src_real = given.src_real
    # The worker starts in its run directory; the code runs in SRC (below), so that
    # pd.read_csv('data.csv') reads the data folder. Everything the worker writes itself
    # goes here, by absolute path.
    run_dir = os.getcwd()

    load, loadmat = _pdfagent_run_load(given)

    # Importers, downloaders and unpicklers the libraries hold replaced by refusals, and
    # seaborn's example datasets read from the data folder (harden.py); the modules the
    # helpers above rely on become read-only before the code runs (freeze_modules, after the
    # capture is installed). Nothing has run since the libraries were imported.
    freeze_modules = _pdfagent_harden(given.dataset_file, given.reader_wraps)

    # --- the guard: a belt, not the wall (_pdfagent_guard) ------------------------------
    _pdfagent_guard()

    # The run-time guard on the destinations (guard.py): installed now, unarmed (a fork
    # server's children inherit it), armed right before the code runs.
    arm_guard = _pdfagent_guard_install(src_real, *_pdfagent_guard_modules())

    # The worker puts its confinement report (JSON) into this script's globals before it
    # runs it (a fork server's child gets its own, below).
    report = json.loads(globals().get("__pdfagent_confinement__", "null") or "null")

    # --- a warm worker: pay the start-up now, then wait for the code (_pdfagent_warm_up) --
    serving = code is None and options_json == "serve"
    request_file = None
    if code is None:
        run_dir, report, request_file = _pdfagent_warm_up(np, plt, serving, run_dir, report)

    # --- say so plainly when the operating system's wall is not fully up ----------------
    # The warning goes to stderr before and after the code, so it is in the tail.
    _warn = _pdfagent_confinement_warning(report)

    # --- figures as code really saves them (capture.py) ---------------------------------
    # Installed after the warm-up, which saved into memory only (nothing to capture), and in
    # the run directory of this figure. matplotlib has read its settings by now (it looks
    # for a `matplotlibrc` in the working directory at import), so the move into SRC cannot
    # hand it one from the data folder.
    set_out, finish_capture, explain_refusal = _pdfagent_capture_install(run_dir, src_real)
    os.chdir(src_real)
    freeze_modules()

    if code is None:
        out_path, code, options_json = _pdfagent_take_request(run_dir, serving, request_file)

    _warn()

    return SimpleNamespace(
        np=np, plt=plt, given=given, load=load, loadmat=loadmat, run_dir=run_dir,
        out_path=out_path, code=code, options_json=options_json, set_out=set_out,
        finish_capture=finish_capture, explain_refusal=explain_refusal, arm_guard=arm_guard,
        warn=_warn,
    )


def _pdfagent_run_paths(src_dir):
    """What the code is given to find its files (`srcpath`, `listdir`, `walkfiles`, the
    data folder `src_real`, `dataset_file` for seaborn) and the answers to a failure that
    go with them (answers.py: `redirect`, `reader_wraps`, `describe_failure`,
    `answer_notes`), as one namespace. The functions the code is handed are closures: they
    hold the data folder and the private os.path they compute with."""
    import os
    import sys
    from types import SimpleNamespace

    # What srcpath() and its friends compute with, bound here once from a private copy of
    # os.path (harden.py): reassigning a module's function (`os.path.commonpath = ...`), or
    # one that os.path calls, cannot change what they decide. The code's own names never
    # reach them either: it runs in a namespace of its own (_pdfagent_run).
    path = _pdfagent_private_path()
    fspath, realpath, normcase, normpath = os.fspath, path.realpath, path.normcase, path.normpath
    commonpath, isabs, splitdrive, splitext = path.commonpath, path.isabs, path.splitdrive, path.splitext
    join, relpath, isfile, os_listdir, os_walk = path.join, path.relpath, path.isfile, os.listdir, os.walk
    sep, audit, exact_str = os.sep, sys.audit, str.__str__
    del path

    src_real = realpath(src_dir)
    src_key = normcase(src_real)

    def _inside_src(real):
        try:
            return commonpath([normcase(real), src_key]) == src_key
        except ValueError:  # another drive on Windows
            return False

    def srcpath(rel=""):
        """The absolute path of `rel`, a path relative to the source folder SRC.

        Symbolic links are followed; the result must stay inside SRC."""
        rel = fspath(rel)
        if not isinstance(rel, str):
            raise TypeError(f"srcpath({rel!r}): give the path as text, e.g. srcpath('data.csv')")
        # An exact str from here on: a str subclass could answer the checks below one way
        # and be opened another.
        rel = exact_str(rel)
        if "\0" in rel:
            raise ValueError(f"srcpath({rel!r}): the path contains a NUL character")
        if isabs(rel) or splitdrive(rel)[0] or rel.startswith("~"):
            # `/mnt/data/x.csv` as chat assistants write it: the data folder's one x.csv.
            found = redirect(rel, "srcpath")
            if found is not rel:
                return found
            raise ValueError(
                f"srcpath({rel!r}): give a path relative to the source folder, "
                "e.g. srcpath('data.csv') or srcpath('runs/run1.mat'); absolute paths are refused"
            )
        joined = join(src_real, rel)
        real = realpath(joined)
        if not isfile(real) and ("/" in rel or "\\" in rel):
            # `data/x.csv`, `./data/x.csv`: the data folder's one x.csv.
            found = redirect(rel, "srcpath")
            if found is not rel:
                return found
        if _inside_src(real):
            # Recorded as one of the figure's data files (capture.py's audit hook).
            audit("pdfagent.srcpath", real)
            return real
        if _inside_src(normpath(joined)):
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
        return sorted(os_listdir(srcpath(sub)))

    def walkfiles(sub=""):
        """Every file under SRC (or under `sub` inside it), as sorted relative paths with '/'.

        Symbolic links that point outside SRC are left out; linked folders are not entered."""
        top = srcpath(sub)
        found = []
        for dirpath, dirnames, filenames in os_walk(top, followlinks=False):
            dirnames.sort()
            for name in filenames:
                full = join(dirpath, name)
                real = realpath(full)
                if _inside_src(real) and isfile(real):
                    found.append(relpath(full, src_real).replace(sep, "/"))
        return sorted(found)

    # The answer to a failure, and paths as chat assistants write them (answers.py).
    redirect, reader_wraps, describe_failure, answer_notes = _pdfagent_answers(
        src_real, _pdfagent_run.__code__.co_filename, walkfiles, srcpath
    )

    def dataset_file(file_name):
        """(the data folder, the real path of `file_name` in it) for sns.load_dataset."""
        return src_real, srcpath(file_name)

    return SimpleNamespace(
        src_real=src_real, srcpath=srcpath, listdir=listdir, walkfiles=walkfiles,
        dataset_file=dataset_file, reader_wraps=reader_wraps,
        describe_failure=describe_failure, answer_notes=answer_notes,
        exact_str=exact_str, splitext=splitext, isfile=isfile,
    )


def _pdfagent_run_load(given):
    """`(load, loadmat)` as the code is handed them: closures over the reader table and
    srcpath()."""
    srcpath, exact_str, splitext, isfile = (
        given.srcpath, given.exact_str, given.splitext, given.isfile
    )

    def loadmat(file_name, *args, **kwargs):
        """scipy.io.loadmat, imported on first use (scipy.io costs time to import)."""
        from scipy.io import loadmat as scipy_loadmat

        return scipy_loadmat(file_name, *args, **kwargs)

    # One reader table (readers.py) serves load() here and the inspection of a file
    # (describe_data, the window's preview), so both read a file the same way.
    readers = _pdfagent_readers()

    def load(name):
        """The natural Python object for a data file in SRC, by its extension (readers.py):

        .mat          dict of variable name -> value. v5/v6/v7 files through
                      scipy.io.loadmat(simplify_cells=True): structs become dicts, cell
                      arrays lists, 1xN arrays 1-D. v7.3 files (HDF5) through h5py with the
                      same result: arrays transposed back to MATLAB's order (HDF5 stores
                      them reversed) and squeezed, char arrays as str, logical as bool,
                      complex as complex, structs (groups) as dicts, cells as lists,
                      sparse as scipy.sparse.csc_matrix; MATLAB's '#refs#' and
                      '#subsystem#' bookkeeping is left out.
        .fig          a MATLAB figure as plain data: {'name', 'size', 'axes': [{'title',
                      'xlabel', 'ylabel', 'xlim', 'ylim', 'xscale', 'legend', 'lines',
                      'bars', 'scatters', ..., each series {'x', 'y', 'color', 'label', ...}}],
                      'annotations', 'unknown'} (figfile.py; docs/formats.md has a redraw).
        .csv .tsv .tab .txt .dat
                      pandas DataFrame (.csv: comma, or semicolon when the first line has
                      no comma; .tsv/.tab: tab; .txt/.dat: tab, comma or semicolon if
                      present, otherwise runs of whitespace; a first row of numbers is
                      data, not a header). For other options use pd.read_csv(name, ...).
        .xlsx         pandas DataFrame of the first sheet (openpyxl).
        .npy          numpy array;  .npz: dict of name -> array. Pickled objects are refused.
        .json         the parsed value (dict, list, ...).
        .h5 .hdf5     dict of name -> array, groups as dicts (h5py).
        .png .jpg .jpeg .gif .webp .bmp
                      numpy array of the pixels (PIL).
        """
        if not isinstance(name, str):
            raise TypeError(f"load({name!r}): give the file name as text, e.g. load('data.mat')")
        name = exact_str(name)
        path = srcpath(name)
        ext = splitext(name)[1].lower()
        row = readers.formats.get(ext)
        if row is None:
            raise ValueError(
                f"load({name!r}): unknown file type {ext or '(no extension)'!r}; load() reads "
                + ", ".join(sorted(readers.formats))
                + ". For anything else read srcpath(name) with numpy or pandas"
            )
        if not isfile(path):
            # The answer lists the nearest names (answers.py reads the name from here).
            raise FileNotFoundError(
                f"load({name!r}): no such file in the source folder; listdir() or "
                "walkfiles() show what is there"
            )
        try:
            return row.load(path, ext)
        except readers.Refused as exc:
            raise ValueError(f"load({name!r}): refused: {exc}") from None
        except Exception as exc:  # noqa: BLE001 - every reader failure names the file
            raise ValueError(
                f"load({name!r}): could not read it as a {ext} file: "
                f"{type(exc).__name__}: {exc}"
            ) from None

    return load, loadmat


def _pdfagent_write_answer(run_dir, failure, notes, guard_refusals=()):
    """The run's answer for the host (`.pdfagent-answer.json`, read by pipeline/answer.rs):
    the failure as data, the notes of paths read from the data folder, and what the
    run-time guard refused (guard.py; the host puts it into the result and each figure's
    provenance record)."""
    import json
    import os

    answer = {
        "failure": failure,
        "notes": list(notes)[:8],
        "guard": [dict(r) for r in list(guard_refusals)[:32]],
    }
    try:
        with open(os.path.join(run_dir, ".pdfagent-answer.json"), "w", encoding="utf-8") as f:
            json.dump(answer, f)
    except (OSError, TypeError, ValueError):
        pass  # the text on stderr still says it


def _pdfagent_import_libraries():
    """numpy and matplotlib imported, on Agg; return `(np, plt)`."""
    import numpy as np
    import matplotlib

    matplotlib.use("Agg")
    _pdfagent_skip_set_signatures()
    import matplotlib.pyplot as plt
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    # plt.savefig ends with canvas.draw_idle(), which on Agg (no screen, no event loop)
    # renders the whole figure a second time after it was saved: ~30 ms of nothing per figure.
    FigureCanvasAgg.draw_idle = lambda self, *args, **kwargs: None
    return np, plt


def _pdfagent_guard():
    """Starting a program and opening a socket refused where they happen (a belt: the
    operating system's confinement is the wall). Not `sys.modules['subprocess'] = None`:
    pandas and matplotlib import subprocess, and that would break ordinary code."""
    import os

    # What os.system, os.exec*, subprocess's child start and the like become: the code
    # can call it (its name, `_no_programs`, is in a failure's frames).
    def _no_programs(*args, **kwargs):
        raise PermissionError("starting programs is not allowed in figure code")

    no_programs = _no_programs

    for name in (
        "system", "popen", "fork", "forkpty", "posix_spawn", "posix_spawnp", "startfile",
        "execl", "execle", "execlp", "execlpe", "execv", "execve", "execvp", "execvpe",
        "spawnl", "spawnle", "spawnlp", "spawnlpe", "spawnv", "spawnve", "spawnvp", "spawnvpe",
    ):
        if hasattr(os, name):
            setattr(os, name, no_programs)

    import subprocess

    subprocess.Popen._execute_child = no_programs

    import socket

    class _NoNetwork(socket.socket):
        def __init__(self, *args, **kwargs):
            raise PermissionError("network access is not allowed in figure code")

    socket.socket = _NoNetwork


def _pdfagent_warm_up(np, plt, serving, run_dir, report):
    """A warm worker's start-up, paid before its code comes; return `(run_dir, report,
    request_file)`: a fork server's child's own (its run directory, its confinement report,
    the file its figure comes in), otherwise the ones given and None."""
    # Called with out_path and code None, the worker warms up (pandas imported, a small
    # figure drawn through the Agg renderer so fonts and the PNG writer are loaded), installs
    # the capture, says so with a marker file in its run directory, and blocks reading one
    # JSON request {"out": ..., "code": ..., "options": ...} from stdin until the parent
    # closes the pipe (_pdfagent_take_request). It runs that code once and exits: a process
    # that ran code is never reused. Called with options "serve", it is a fork server
    # instead (fork_server.py): after the warm-up it forks children ahead of their figures,
    # and only a child returns from here — confined to its own run directory, it installs
    # the capture there and then waits for its figure (_pdfagent_serve_wait), so none of
    # that is left for the code's turn.
    import gc
    import io
    import select

    request_file = None

    def _input_waiting():
        # Something to read on stdin (fd 0): a single-use worker's code, or in a fork
        # server's child its "go" (the server made that pipe the child's fd 0).
        try:
            return bool(select.select([0], [], [], 0)[0])
        except (OSError, ValueError):  # Windows: select() takes sockets only
            return False

    # Code submitted while this worker is still warming up: the optional steps below
    # would only delay it (figures back to back), so they are skipped. A fork server
    # always warms up fully: every child it forks gains from it.
    _code_waiting = (lambda: False) if serving else _input_waiting

    if not _code_waiting():
        try:
            import pandas  # noqa: F401 - cached in sys.modules for the code
        except ImportError:
            pass

    def draw_one(stop, encode):
        """A small figure through the Agg renderer: fonts, ticks and the text layout
        (and, with `encode`, the whole drawing and the PNG writer) loaded and their
        caches filled. Drawn in short steps (≈ 2–20 ms each in a fork server's child,
        measured) and left at the next step once stop() says a figure is waiting: a
        figure never waits for a whole drawing."""
        x = np.linspace(0, 1, 50)

        def renderer():
            return plt.gcf().canvas.get_renderer()

        steps = [
            lambda: plt.plot(x, np.sin(x), label="warm"),  # a figure and its axes
            lambda: (plt.xlabel("x"), plt.ylabel("y"), plt.title("warm"), plt.legend()),
            # Ticks made and their labels laid out, then drawn, an axis at a time.
            lambda: plt.gca().xaxis.get_tightbbox(renderer()),
            lambda: plt.gca().yaxis.get_tightbbox(renderer()),
            lambda: plt.gca().xaxis.draw(renderer()),
            lambda: plt.gca().yaxis.draw(renderer()),
            lambda: plt.gca().get_legend().draw(renderer()),
        ]
        if encode:
            # The whole figure drawn and written as a PNG. Not in a child drawing ahead:
            # it would copy few pages besides those above (the figure's own page faults
            # measured ≈ 430 with it, ≈ 470 without), and the PNG writer's pages are new
            # in every figure.
            steps.append(lambda: plt.savefig(io.BytesIO(), format="png"))
        try:
            for step in steps:
                if stop():
                    break
                step()
        finally:
            plt.close("all")
        # Everything so far lives until exit: keep the cyclic collector from walking it
        # again and again while the code runs (measured: the first figure ~30 ms faster).
        gc.collect()
        gc.freeze()

    draw_one(stop=_code_waiting, encode=True)
    if serving:
        run_dir, report, request_file, draw_ahead = _pdfagent_serve(
            run_dir, globals()["__pdfagent_confine_child__"]
        )
        # In a child forked ahead of its figure, confined: draw once more, so the pages a
        # figure writes are copied from the server's now (copy-on-write after the fork),
        # not while the figure waits for them. Left as soon as the "go" (or the end of
        # the pipe) is there. Not when a figure already waits for this child, or several
        # run at once: the host says so.
        if draw_ahead:
            draw_one(stop=_input_waiting, encode=False)
    return run_dir, report, request_file


def _pdfagent_confinement_warning(report):
    """`warn()`: says on stderr when the confinement `report` is missing or partial."""
    import sys

    warning = None
    if not report:
        warning = "confinement: none - the worker was started without a confinement plan"
    elif not report.get("fully_enforced"):
        warning = report.get("summary") or "confinement: partial"

    def _warn():
        if warning:
            print("pdfagent: WARNING: " + warning, file=sys.stderr, flush=True)

    return _warn


def _pdfagent_take_request(run_dir, serving, request_file):
    """A warm worker's figure: `(out_path, code, options_json)`, read from stdin (a
    single-use worker, after its ready marker) or from the request file (a fork server's
    child, at its "go"); the code pipe is closed after it."""
    import json
    import os
    import sys

    if serving:
        request = _pdfagent_serve_wait(request_file)
        # The figure starts: the kernel timer that kills this child at its time-out, armed
        # now (a child forked ahead may wait long for its figure) and locked against the
        # code (confine/wall_clock.rs). No figure runs without it.
        try:
            globals()["__pdfagent_arm_wall_clock__"]("", 0)
        except Exception as exc:  # noqa: BLE001 - reported, then the child ends unrun
            os.write(2, f"pdfagent: the figure's time limit could not be set: {exc}\n".encode())
            os._exit(125)
    else:
        with open(os.path.join(run_dir, ".pdfagent-warm-ready"), "wb"):
            pass
        request = json.loads(sys.stdin.buffer.read().decode("utf-8"))
    with open(os.path.join(run_dir, ".pdfagent-warm-taken"), "wb"):
        pass
    sys.stdin.close()
    try:
        os.close(0)  # the code pipe is done with: nothing more can come through it
    except OSError:
        pass
    out_path, code = request["out"], request["code"]
    options_json = json.dumps(request.get("options") or {})
    del request
    return out_path, code, options_json


def _pdfagent_skip_set_signatures():
    """Leave out the signature matplotlib builds for every Artist subclass's `set()`.

    At import, matplotlib gives each of its ~100 Artist classes a `set()` whose
    `__signature__` and docstring list every property, found by inspecting all the class's
    setters: ≈ 100 ms of a cold worker's ≈ 400 ms of imports, for help() and IDEs only.
    `set(**kwargs)` itself checks its arguments against the setters when called, so it
    behaves the same without them. Called after `import matplotlib`, before pyplot (which
    defines the subclasses); a matplotlib without the hook is left as it is.
    """
    from matplotlib import artist

    artist_class = artist.Artist
    if not hasattr(artist_class, "_update_set_signature_and_docstring"):
        return

    def mark_only(cls):
        cls.set._autogenerated_signature = True

    artist_class._update_set_signature_and_docstring = classmethod(mark_only)
