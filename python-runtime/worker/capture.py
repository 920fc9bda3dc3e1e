# PDFAgent figure capture, pasted into the worker script after the preamble (see
# pipeline/script.rs). It lets code written the way models and people write it make figures
# unchanged: `plt.savefig('fig.png', dpi=300)`, `fig.savefig(name)` in a loop, `plt.show()`,
# `matplotlib.use('TkAgg')`, `plt.style.use(name)`.
#
# The figures of a run, in this order of precedence (the parent applies it, see
# pipeline/figures/capture.rs):
#   out    the file saved at OUT (the contract the tool descriptions teach);
#   saved  otherwise every image saved with savefig/imsave under any other file name, in the
#          order first saved: written to `capture-NN.EXT` in the run directory instead;
#   shown  otherwise every figure open at plt.show() or when the code ends, saved here in
#          the requested format.
# What was captured is listed in `.pdfagent-figures.json` in the run directory. The parent
# trusts none of it: it reads only `capture-NN.EXT` names it builds itself, and checks every
# file as it checks OUT.
#
# Only top-level `def _pdfagent_*` here: the code runs in a namespace of its own, and no
# other name may be defined at module level (pipeline/script.rs tests it; see README.md).
# `_pdfagent_capture_install` installs the hooks; the `_pdfagent_capture_*` after it are its
# stages.


def _pdfagent_capture_install(run_dir, src_real):
    """Install the capture hooks; return `(set_out, finish, explain)`.

    `set_out(path, options)` names OUT and the run's options (`format`, `max_figures`,
    `preview`): a warm worker learns them only with the code. `finish()`, once the code has
    run, captures the figures still open if nothing else was saved and writes the
    manifest. `explain(exc)` says what to do about a refused file access."""
    import os
    import sys

    import numpy as np
    import matplotlib
    import matplotlib.image as mimage
    import matplotlib.pyplot as plt
    import matplotlib.style as mstyle
    from matplotlib import _pylab_helpers
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    state = {"out": None, "format": "png", "max": 16, "preview": False}
    # `saving`: inside a save of ours. matplotlib's own PNG writer calls imsave, which must
    # then write where it was told.
    state.update(out_entry=None, seq=0, notes=[], saving=False)
    saved = []  # entries of images saved under other names, in the order first saved
    saved_by_name = {}
    shown = []  # entries of figures captured at plt.show() / the end
    # What the checks below compute with, bound once: reassigning a module's function
    # (`os.path.commonpath = ...`) cannot change what they decide.
    private = _pdfagent_private_path()
    key, commonpath, abspath, realpath = (
        private.normcase, private.commonpath, private.abspath, private.realpath
    )
    fspath, exact_str, bytes_decode = os.fspath, str.__str__, bytes.decode
    fs_encoding = sys.getfilesystemencoding()

    def inside(real, top):
        try:
            return commonpath([key(real), key(top)]) == key(top)
        except ValueError:  # another drive on Windows
            return False

    def exact_name(fname):
        """A file name the code passed, as an exact str: a str or bytes subclass could
        answer the checks one way and be opened as another name."""
        fname = fspath(fname)  # __fspath__ may return a subclass too
        if isinstance(fname, bytes):
            return bytes_decode(fname, fs_encoding, "surrogateescape")
        return exact_str(fname)

    run_real = realpath(run_dir)

    # The stages, each a function of its own below: which data files the code reads
    # (recorded only), the figure report, the style and settings checks, what a refused file
    # access means, where each figure goes, the manifest; then the hooks the code reaches
    # (savefig, imsave, show, the backend and style calls, and what they call that can touch
    # a file), installed by the stage of their concern as closures over the run's state:
    # their qualified names are in the reachability snapshot.
    inputs, recording, max_inputs = _pdfagent_capture_inputs(src_real, key, inside)
    describe = _pdfagent_capture_describer(np, FigureCanvasAgg)
    plain_style = _pdfagent_capture_style_check(mstyle, exact_str)
    refuse_unsafe_settings = _pdfagent_capture_settings_check(matplotlib)
    explain = _pdfagent_capture_explainer(run_real, src_real, inside)
    is_out, next_file, capture_file, record = _pdfagent_capture_slots(
        run_dir, state, saved, saved_by_name, key, abspath
    )
    write_manifest = _pdfagent_capture_manifest_writer(run_dir)

    save, entry, orig_savefig = _pdfagent_capture_writers(
        run_dir, state, describe, refuse_unsafe_settings, Figure
    )
    _pdfagent_capture_savers(
        state, matplotlib, mimage, Figure, save, entry, orig_savefig, exact_name,
        is_out, capture_file, record, refuse_unsafe_settings,
    )
    capture_open, nothing_saved = _pdfagent_capture_show(
        state, saved, shown, plt, _pylab_helpers, Figure, save, entry, orig_savefig,
        next_file, refuse_unsafe_settings,
    )
    _pdfagent_capture_backends(matplotlib, plt)
    _pdfagent_capture_styles(mstyle, plain_style)
    _pdfagent_capture_no_rc_files(matplotlib, plt, mstyle)
    _pdfagent_capture_draw_check(Figure, refuse_unsafe_settings)

    def set_out(path, options):
        fmt = str(options.get("format", "png")).lower()
        state.update(
            out=path,
            format=fmt if fmt in ("png", "svg", "pdf") else "png",
            max=int(options.get("max_figures", 16)),
            preview=bool(options.get("preview", False)),
        )
        recording["on"] = True  # the code runs next: the warm-up's opens are not its inputs

    def finish():
        """Capture what is still open if nothing was saved; write the manifest."""
        out = state["out"]
        if state["out_entry"] is None and out is not None and os.path.lexists(out):
            # OUT written some other way (canvas.print_figure, PIL): the parent checks it.
            state["out_entry"] = {"index": 0, "format": state["format"], "captured": "out"}
        if nothing_saved():
            capture_open()
        if state["out_entry"] is not None:
            figures = [state["out_entry"]]
        else:
            figures = saved or shown
        recording["on"] = False
        manifest = {
            "figures": [{k: v for k, v in item.items() if k != "path"} for item in figures],
            "notes": state["notes"][:8],
            "inputs": inputs[:max_inputs],
        }
        write_manifest(manifest)

    return set_out, finish, explain


def _pdfagent_capture_writers(run_dir, state, describe, refuse_unsafe_settings, Figure):
    """What every capture hook writes with: `(save, entry, orig_savefig)`. `save(write,
    ...)` writes a figure through matplotlib's own writer with the settings checked;
    `entry(...)` is a figure's manifest entry with its report and preview. Closures: the
    hooks the code calls reach them, and they hold the run's state."""
    import io
    import os

    orig_savefig = Figure.savefig

    def save(write, *args, **kwargs):
        refuse_unsafe_settings()
        state["saving"] = True
        try:
            return write(*args, **kwargs)
        finally:
            state["saving"] = False

    def preview(fig, path, fmt, index):
        """A small PNG/JPEG of the figure for clients that show images inline."""
        make = globals().get("_pdfagent_preview")
        if not state["preview"] or make is None:
            return None
        try:
            if fmt == "png":
                with open(path, "rb") as f:
                    png = f.read()
            elif fig is not None:
                buf = io.BytesIO()
                width, height = fig.get_size_inches()
                dpi = min(float(fig.dpi), 1000.0 / max(width, height, 1e-3))
                save(orig_savefig, fig, buf, format="png", dpi=dpi)
                png = buf.getvalue()
            else:
                return None
            data, mime, _w, _h = make(png)
            ext = "jpg" if mime == "image/jpeg" else "png"
            with open(os.path.join(run_dir, f"preview-{index:02d}.{ext}"), "wb") as f:
                f.write(data)
            return ext
        except Exception:  # noqa: BLE001 - no preview is no failure
            return None

    def entry(fig, captured, fmt, index, name, path, tight):
        report, text = describe(fig, fmt, tight)
        item = {"index": index, "format": fmt, "captured": captured}
        if name is not None:
            item["name"] = str(name)[:200]
        if report is not None:
            item["report"] = report
            item["report_text"] = text
        item["preview"] = preview(fig, path, fmt, index)
        return item

    return save, entry, orig_savefig


def _pdfagent_capture_savers(state, matplotlib, mimage, Figure, save, entry, orig_savefig,
                             exact_name, is_out, capture_file, record, refuse_unsafe_settings):
    """savefig / imsave: OUT as it is, every other file name captured. The replacements
    are closures: the code calls them, and they hold the run's state and the originals."""
    import os

    path_like = os.PathLike
    matplotlib_name = _pdfagent_capture_format_names()

    def savefig(self, fname, *args, **kwargs):
        if state["saving"] or not isinstance(fname, (str, bytes, path_like)):
            return orig_savefig(self, fname, *args, **kwargs)  # a file object
        fname = exact_name(fname)
        tight = kwargs.get("bbox_inches", matplotlib.rcParams["savefig.bbox"]) == "tight"
        if is_out(fname):
            result = save(orig_savefig, self, fname, *args, **kwargs)
            state["out_entry"] = entry(self, "out", state["format"], 0, None, fname, tight)
            return result
        refuse_unsafe_settings()  # before a capture slot is taken
        path, index, fmt = capture_file(fname, kwargs.get("format"))
        kwargs["format"] = matplotlib_name[fmt]
        result = save(orig_savefig, self, path, *args, **kwargs)
        record(entry(self, "saved", fmt, index, fname, path, tight), fname, path)
        return result

    savefig.__doc__ = orig_savefig.__doc__
    Figure.savefig = savefig

    orig_imsave = mimage.imsave

    def imsave(fname, arr, **kwargs):
        if state["saving"] or not isinstance(fname, (str, bytes, path_like)):
            return orig_imsave(fname, arr, **kwargs)
        fname = exact_name(fname)
        if is_out(fname):
            result = save(orig_imsave, fname, arr, **kwargs)
            state["out_entry"] = entry(None, "out", state["format"], 0, None, fname, False)
            return result
        path, index, fmt = capture_file(fname, kwargs.get("format"))
        kwargs["format"] = matplotlib_name[fmt]
        result = save(orig_imsave, path, arr, **kwargs)
        record(entry(None, "saved", fmt, index, fname, path, False), fname, path)
        return result

    mimage.imsave = imsave


def _pdfagent_capture_format_names():
    """The run's format -> matplotlib's name for it."""
    return {"png": "png", "svg": "svg", "pdf": "pdf", "jpg": "jpeg"}


def _pdfagent_capture_show(state, saved, shown, plt, _pylab_helpers, Figure, save, entry,
                           orig_savefig, next_file, refuse_unsafe_settings):
    """plt.show(): the figures open now are the run's figures (as notebooks do). Returns
    `(capture_open, nothing_saved)` for the end of the run. Closures: the code calls show,
    and it holds the run's state."""
    matplotlib_name = _pdfagent_capture_format_names()

    def open_figures():
        managers = sorted(_pylab_helpers.Gcf.get_all_fig_managers(), key=lambda m: m.num)
        figures = [m.canvas.figure for m in managers]
        # A figure with nothing in it (plt.figure() and never drawn on) is no figure.
        return [f for f in figures if f.axes or f.images or f.texts or f.patches or f.lines]

    def capture_open():
        out_format = state["format"]
        refuse_unsafe_settings()  # before a capture slot is taken
        for fig in open_figures():
            path, index = next_file(out_format)
            save(orig_savefig, fig, path, format=matplotlib_name[out_format], bbox_inches="tight")
            item = entry(fig, "shown", out_format, index, None, path, True)
            item["path"] = path
            shown.append(item)

    def nothing_saved():
        return state["out_entry"] is None and not saved

    def show(*args, **kwargs):
        if nothing_saved():
            capture_open()
        plt.close("all")

    plt.show = show
    Figure.show = lambda self, *args, **kwargs: None
    # plt.pause() would sleep (and call show); plt.ion()/ioff() are harmless on Agg.
    plt.pause = lambda *args, **kwargs: None
    return capture_open, nothing_saved


def _pdfagent_capture_backends(matplotlib, plt):
    """Backends: any built-in name is accepted and the worker stays on Agg (the
    replacements are closures: the code calls them, and they hold the original)."""
    orig_switch_backend = plt.switch_backend

    def use(backend, *args, **kwargs):
        _pdfagent_capture_check_backend(backend, "matplotlib.use")

    def switch_backend(newbackend):
        # pyplot calls this itself (by its module-level name) to load its backend.
        _pdfagent_capture_check_backend(newbackend, "plt.switch_backend")
        orig_switch_backend("agg")

    orig_switch_backend("agg")
    matplotlib.use = use
    plt.switch_backend = switch_backend


def _pdfagent_capture_styles(mstyle, plain_style):
    """Styles: built-in names and dicts only (a style file could set anything); the
    replacements are closures holding the originals."""
    orig_style_use = mstyle.use
    orig_style_context = mstyle.context

    def style_use(style):
        return orig_style_use(plain_style(style, "plt.style.use"))

    def style_context(style, after_reset=False):
        return orig_style_context(plain_style(style, "plt.style.context"), after_reset=after_reset)

    mstyle.use = style_use
    mstyle.context = style_context


def _pdfagent_capture_draw_check(Figure, refuse_unsafe_settings):
    """Every figure's drawing checks the settings first (a closure holding the original)."""
    orig_figure_draw = Figure.draw

    def figure_draw(self, renderer, *args, **kwargs):
        refuse_unsafe_settings()
        return orig_figure_draw(self, renderer, *args, **kwargs)

    figure_draw.__doc__ = orig_figure_draw.__doc__
    Figure.draw = figure_draw


def _pdfagent_capture_inputs(src_real, key, inside):
    """Start recording which data files the code reads; return `(inputs, recording,
    max_inputs)`: the list filled in, the switch `recording["on"]`, and the most kept."""
    import os
    import sys

    # --- which data files the code read (for the figure's provenance): RECORDED only -----
    # An audit hook sees every open() (numpy, pandas, scipy, plain names) and srcpath()
    # (which load() and h5py's readers go through). It never raises and never refuses: the
    # operating system's confinement is the wall, and the selftest's canaries test it. The
    # parent trusts none of this list: it resolves each path inside SRC and hashes the file
    # itself (pipeline/figures/provenance).
    max_inputs = 65  # one more than the parent keeps, so it can tell the list was cut
    inputs = []
    recording = {"on": False, "busy": False}

    def note_input(path):
        if isinstance(path, os.PathLike):
            path = os.fspath(path)
        if not isinstance(path, (str, bytes)) or len(inputs) >= max_inputs:
            return
        path = os.fsdecode(path)
        if os.path.isabs(path) and not key(path).startswith(key(src_real)):
            return  # the runtime's own files (imports, fonts): not worth resolving
        real = os.path.realpath(path)
        if real == src_real or not inside(real, src_real) or not os.path.isfile(real):
            return
        rel = os.path.relpath(real, src_real).replace(os.sep, "/")
        if rel not in inputs:
            inputs.append(rel)

    def audit(event, args):
        if not recording["on"] or recording["busy"]:
            return
        recording["busy"] = True
        try:
            if event == "open" and len(args) >= 3:
                path, mode, flags = args[0], args[1], args[2]
                if isinstance(mode, str):
                    reading = not any(c in mode for c in "wax+")
                else:
                    reading = isinstance(flags, int) and flags & os.O_ACCMODE == os.O_RDONLY
                if reading:
                    note_input(path)
            elif event == "pdfagent.srcpath" and args:
                note_input(args[0])
        except Exception:  # noqa: BLE001 - recording never fails the code
            pass
        finally:
            recording["busy"] = False

    sys.addaudithook(audit)
    return inputs, recording, max_inputs


def _pdfagent_capture_describer(np, FigureCanvasAgg):
    """`describe(fig, fmt, tight)`: a kept figure's report and its text."""

    def describe(fig, fmt, tight):
        """The figure report and its text (when figure_report.py is pasted in too)."""
        make = globals().get("_pdfagent_figure_report")
        as_text = globals().get("_pdfagent_report_text")
        if fig is None or make is None:
            return None, None
        try:
            rgba = None
            if fmt in ("png", "jpg") and isinstance(fig.canvas, FigureCanvasAgg):
                rgba = np.asarray(fig.canvas.buffer_rgba())
            report = make(fig, rgba=rgba, tight=tight)
            return report, (as_text(report) if as_text else None)
        except Exception:  # noqa: BLE001 - a report never fails a figure
            return None, None

    return describe


def _pdfagent_capture_style_check(mstyle, exact_str):
    """`plain_style(style, call)`: a style as matplotlib will be handed it, or a refusal."""

    def closest_styles(asked):
        """The built-in styles nearest to `asked`: seaborn's renamed ones first
        (`seaborn-whitegrid` is `seaborn-v0_8-whitegrid` since matplotlib 3.6)."""
        import difflib

        names = sorted(mstyle.available)
        asked = exact_str(asked) if isinstance(asked, str) else repr(asked)
        first = []
        if asked.startswith("seaborn"):
            renamed = "seaborn-v0_8" + asked[len("seaborn"):]
            if renamed in names:
                first.append(renamed)
        close = difflib.get_close_matches(asked, names, n=5, cutoff=0.0)
        return ", ".join(repr(n) for n in (first + [c for c in close if c not in first])[:5])

    def plain_style(style, call):
        """The style as matplotlib will be handed it: a list of built-in names (exact str)
        and plain dicts with str keys. Checked and converted in one step, so what was
        checked is what is applied (a str subclass could answer `==` one way and be read
        as a file name)."""
        if isinstance(style, (str, dict)) or not hasattr(style, "__iter__"):
            styles = [style]
        else:
            styles = list(style)
        plain = []
        for one in styles:
            if isinstance(one, dict):
                settings = {}
                for name, value in dict.items(one):
                    if not isinstance(name, str):
                        break
                    settings[exact_str(name)] = value
                else:
                    plain.append(settings)
                    continue
            elif isinstance(one, str):
                name = exact_str(one)
                if name == "default" or name in mstyle.library:
                    plain.append(name)
                    continue
            raise ValueError(
                f"{call}({one!r}): PDFAgent uses matplotlib's built-in styles only "
                f"(closest: {closest_styles(one)}; all in plt.style.available) "
                "or a dict of settings; style files and URLs are not read"
            )
        return plain

    return plain_style


def _pdfagent_capture_no_rc_files(matplotlib, plt, mstyle):
    """matplotlib's settings files refused wherever they could be read from."""

    def no_rc_files(*args, **kwargs):
        raise PermissionError(
            "matplotlib settings files are not read; set plt.rcParams['key'] = value instead"
        )

    orig_rc_context = matplotlib.rc_context

    def rc_context(rc=None, fname=None):
        if fname is not None:
            no_rc_files()
        return orig_rc_context(rc)

    matplotlib.rc_context = rc_context
    plt.rc_context = rc_context
    matplotlib.rc_file = no_rc_files
    plt.rc_file = no_rc_files
    matplotlib.rc_params_from_file = no_rc_files
    # A style name the library maps to a file (plt.style.library is a plain dict) still
    # finds no file reader.
    mstyle.rc_params_from_file = no_rc_files


def _pdfagent_capture_settings_check(matplotlib):
    """`refuse_unsafe_settings()`: raises when a setting the figure would be drawn with
    runs a program or loads another backend."""
    # --- the settings a figure is drawn with: checked as they are, however they were set --
    # `dict.update(plt.rcParams, {...})` or a style dict skip matplotlib's own validation,
    # so the resulting values are read back as stored and must be exactly the type they
    # should be. Checked before every save of ours and every drawing of a figure. A setting
    # that would run a program (LaTeX, Ghostscript, ffmpeg) refuses the figure with a
    # sentence rather than being reset behind the code's back: the code learns what to
    # change, and nothing is drawn with a value this check did not see.
    rc = matplotlib.rcParams
    rc_value = dict.__getitem__
    defaults = matplotlib.rcParamsDefault
    program_settings = [
        k for k in ("animation.ffmpeg_path", "animation.convert_path", "text.latex.engine")
        if k in defaults
    ]
    program_defaults = {k: rc_value(defaults, k) for k in program_settings}

    def unsafe_setting():
        """A sentence about the first setting PDFAgent does not draw with, or None."""
        usetex = rc_value(rc, "text.usetex") if "text.usetex" in rc else False
        if usetex is not False:
            return (
                "plt.rcParams['text.usetex'] is on: PDFAgent draws text with matplotlib's "
                "own mathtext and never runs LaTeX; leave text.usetex off and write math as "
                "'$x^2$'"
            )
        distiller = rc_value(rc, "ps.usedistiller") if "ps.usedistiller" in rc else None
        if distiller is not None and distiller is not False:
            return (
                "plt.rcParams['ps.usedistiller'] is set: it runs Ghostscript, which figure "
                "code cannot start; leave it unset"
            )
        for name in program_settings:
            value = rc_value(rc, name)
            if type(value) is not str or value != program_defaults[name]:
                return (
                    f"plt.rcParams[{name!r}] names a program, which figure code cannot "
                    "start; leave it at its default"
                )
        backend = rc_value(rc, "backend")
        if type(backend) is str and backend.lower().startswith("module://"):
            return (
                f"plt.rcParams['backend'] is {backend!r}: PDFAgent draws with Agg and loads "
                "no other backend; leave the backend as it is"
            )
        return None

    def refuse_unsafe_settings():
        why = unsafe_setting()
        if why is not None:
            raise ValueError(f"the figure was not drawn: {why}")

    return refuse_unsafe_settings


def _pdfagent_capture_explainer(run_real, src_real, inside):
    """`explain(exc)`: what to do about a refused file access, or None."""
    import os

    # --- files by plain name: say what to do when the operating system refuses ----------
    # The code runs in SRC, so a plain name reads the data folder. Writing there, or reading
    # or writing outside it, is refused by the confinement (EACCES); the traceback alone
    # would not tell a model where output goes. Only the message is ours: nothing here
    # stands between the code and the operating system's refusal.
    def explain(exc):
        """A sentence for a refused file access the code did not handle, or None."""
        import errno

        if not isinstance(exc, OSError) or exc.errno not in (errno.EACCES, errno.EPERM, errno.EROFS):
            return None
        name = exc.filename
        if not isinstance(name, (str, bytes)):
            return None
        name = os.fsdecode(name)
        real = os.path.realpath(name)
        if inside(real, run_real):
            return None
        if inside(real, src_real):
            return (
                f"pdfagent: {name!r} is in the data folder, which is read-only: save figures "
                "with plt.savefig(OUT) (or any name, like plt.savefig('fig.png')); only "
                "figures are kept, so print() anything else you want to report"
            )
        return (
            f"pdfagent: {name!r} is outside the data folder: the code can read only files in "
            "the data folder (by name relative to it, e.g. 'data.csv' or 'runs/a.txt') and "
            "keeps only figures"
        )

    return explain


def _pdfagent_capture_manifest_writer(run_dir):
    """`write(manifest)`: the manifest into the run directory, as JSON without NaN or
    infinity (what it needs is imported now, before the code runs)."""
    import json
    import math
    import os

    import numpy as np

    def finite(value):
        """JSON has no NaN or infinity (an empty axes' limits can be either): null instead."""
        if isinstance(value, float):
            return value if math.isfinite(value) else None
        if isinstance(value, dict):
            return {str(k): finite(v) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return [finite(v) for v in value]
        if isinstance(value, (np.floating, np.integer, np.bool_)):
            return finite(value.item())
        return value

    def write(manifest):
        with open(os.path.join(run_dir, ".pdfagent-figures.json"), "w", encoding="utf-8") as f:
            json.dump(finite(manifest), f, ensure_ascii=False, allow_nan=False, default=str)

    return write


def _pdfagent_capture_slots(run_dir, state, saved, saved_by_name, key, abspath):
    """Where each figure goes: `is_out(fname)`, `next_file(fmt)` (the next `capture-NN`
    file, refused past the run's most figures), `capture_file(fname, requested)` (the file
    and slot an image saved under `fname` takes) and `record(item, fname, path)`."""
    import os

    import matplotlib

    # What matplotlib can be asked for -> the format the file is kept as.
    kept_formats = {"png": "png", "svg": "svg", "pdf": "pdf", "jpg": "jpg", "jpeg": "jpg"}

    def is_out(fname):
        out = state["out"]
        return out is not None and key(abspath(fname)) == key(abspath(out))

    def next_file(fmt):
        most = state["max"]
        if state["seq"] >= most:
            raise RuntimeError(
                f"the code made more than {most} figures in one run, and PDFAgent keeps at "
                f"most {most}: make fewer figures, or put several panels into one figure "
                "with plt.subplots"
            )
        state["seq"] += 1
        return os.path.join(run_dir, f"capture-{state['seq']:02d}.{fmt}"), state["seq"]

    def kept_format(fname, requested):
        out_format = state["format"]
        fmt = requested or os.path.splitext(fname)[1][1:] or matplotlib.rcParams["savefig.format"]
        fmt = str(fmt).lower()
        if fmt in kept_formats:
            return kept_formats[fmt]
        state["notes"].append(
            f"{os.path.basename(fname)!r} was kept as {out_format.upper()}: PDFAgent keeps "
            "figures as PNG, SVG, PDF or JPEG"
        )
        return out_format

    def capture_file(fname, requested):
        """Where an image the code saves under `fname` goes instead, and its entry's slot."""
        fmt = kept_format(fname, requested)
        earlier = saved_by_name.get(fname)
        if earlier is not None and earlier["format"] == fmt:
            return earlier["path"], earlier["index"], fmt
        path, index = next_file(fmt)
        return path, index, fmt

    def record(item, fname, path):
        item["path"] = path
        earlier = saved_by_name.get(fname)
        if earlier is not None and earlier["index"] == item["index"]:
            saved[saved.index(earlier)] = item
        else:
            saved.append(item)
        saved_by_name[fname] = item

    return is_out, next_file, capture_file, record


def _pdfagent_capture_check_backend(backend, call):
    """Refuse a backend name matplotlib does not have built in (the worker stays on Agg)."""

    def builtin_backends():
        try:
            from matplotlib.backends import backend_registry

            return {name.lower() for name in backend_registry.list_builtin()}
        except Exception:  # noqa: BLE001 - older matplotlib
            from matplotlib import rcsetup

            return {name.lower() for name in rcsetup.all_backends}

    name = str(backend).lower()
    if name not in builtin_backends():
        raise ValueError(
            f"{call}({backend!r}): not a built-in matplotlib backend; PDFAgent draws with "
            "Agg whatever the backend, so the call can simply be left out"
        )
