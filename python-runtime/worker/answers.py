# PDFAgent's answers to a failed run (issue #41), pasted after the run-time hardening (see
# pipeline/script.rs). Where the error is raised the facts are at hand — the DataFrame whose
# column is missing, the data folder's files, the shapes of a plotting call's arguments — so
# the fix is computed here, in the worker, and never by re-reading files in the host.
#
# _pdfagent_answers() returns:
#   - `redirect`: the readers' path arguments (pandas, numpy, scipy.io, PIL, matplotlib's
#     imread, load, srcpath) taken as written by chat assistants (`/mnt/data/x.csv`,
#     `/content/x.csv`, `C:\Users\me\x.csv`, `~/x.csv`, `./data/x.csv`) read the one file of
#     the data folder with that name, with a note saying which;
#   - `reader_wraps`: harden.py's table entries that put `redirect` in front of the readers;
#   - `describe(exc)`: the failure as data (frames marked user/library/pdfagent, the
#     exception's type and message, the fix) for the contract (`RunFailure` in contract.rs);
#   - `notes`: what the redirect did, for the answer.
# Only facts the worker owns are read: library objects of exact library types (a subclass the
# code defined could run its own code here, outside any run-time guard on user code) and the
# data folder's names; never a value computed by calling into the code's objects.


def _pdfagent_answers(src_real, script_file, walkfiles, srcpath):
    """(redirect, reader_wraps, describe, notes), see above. `redirect` and the listing of
    the data folder stay closures here: the code calls `redirect` through the readers, and
    the notes and the listing are state it must not reach; the stages below take `ans`
    (what they share: the listing, the runtime's prefixes, the words of the fixes) first."""
    import os
    import re
    import sys
    from types import SimpleNamespace

    notes = []
    isfile = os.path.isfile
    MAX_FILES = 8

    # --- the data folder's names ---------------------------------------------------------
    listing = {"files": None}

    def data_files():
        if listing["files"] is None:
            try:
                listing["files"] = walkfiles()[:20000]
            except Exception:  # noqa: BLE001 - a listing that fails suggests nothing
                listing["files"] = []
        return listing["files"]

    # --- paths as chat assistants write them ----------------------------------------------
    def redirect(asked, call):
        """`asked` as the reader will be handed it: unchanged when it names a file, or else
        the real path of the one file of the data folder with its name."""
        if type(asked) is not str or not asked or "\0" in asked or "://" in asked:
            # A URL is never a foreign path: it stays as written, and the reader's own
            # refusal (no network) answers it, instead of a local file read in its place.
            return asked
        try:
            if isfile(asked):
                return asked
        except (OSError, ValueError):
            pass
        found = _pdfagent_answers_same_named(asked, data_files)
        if not found:
            return asked
        if len(found) > 1:
            raise FileNotFoundError(
                f"{call}({asked!r}): the data folder has several files named "
                f"{found[0].rsplit('/', 1)[-1]!r}: {', '.join(repr(f) for f in found[:MAX_FILES])}; "
                "give the one you mean by its path relative to the data folder"
            )
        if asked.replace("\\", "/").lstrip("./") == found[0]:
            return asked
        note = f"{asked!r} is not a path here: read {found[0]!r} from the data folder instead"
        if note not in notes:
            notes.append(note)
        return srcpath(found[0])

    ans = SimpleNamespace(
        src_real=src_real, script_file=script_file, data_files=data_files,
        sep_re=re.compile(r"[\\/]+"), MAX_KEYS=20, MAX_FILES=MAX_FILES,
        # --- where a frame comes from ------------------------------------------------------
        prefixes=sorted(
            {os.path.realpath(p) for p in (sys.prefix, sys.base_prefix, sys.exec_prefix)} | {
                os.path.dirname(os.path.dirname(os.__file__))},
            key=len, reverse=True,
        ),
        container_words={
            "DataFrame": "the DataFrame's columns",
            "Series": "the Series' index",
            "npz": "the .npz file's arrays",
            "dict": "the dict's keys",
        },
        shape_words=("shape", "dimension", "same size", "broadcast", "same length", "1D",
                     "2D", "must be the same", "same first"),
    )

    def describe(exc):
        return _pdfagent_answers_describe(ans, exc)

    return redirect, _pdfagent_answers_reader_wraps(redirect), describe, notes


def _pdfagent_answers_reader_wraps(redirect):
    """harden.py's table entries that put `redirect` in front of the readers: module ->
    entry(module) -> {name: the reader wrapped}."""
    path_keywords = (
        "filepath_or_buffer", "io", "path_or_buf", "file", "fname", "fp", "file_name", "name",
    )

    def wrap(reader, call):
        def read(*args, **kwargs):
            if args:
                args = (redirect(args[0], call),) + args[1:]
            else:
                for key in path_keywords:
                    if key in kwargs:
                        kwargs[key] = redirect(kwargs[key], call)
                        break
            return reader(*args, **kwargs)

        read.__name__ = getattr(reader, "__name__", "read")
        read.__qualname__ = getattr(reader, "__qualname__", read.__name__)
        read.__doc__ = getattr(reader, "__doc__", None)
        return read

    def wraps_for(names, calls):
        def entry(module):
            found = {}
            for name, call in zip(names, calls, strict=True):
                reader = vars(module).get(name)
                if reader is not None:
                    found[name] = wrap(reader, call)
            return found

        return entry

    return {
        "pandas.io.parsers.readers": wraps_for(
            ("read_csv", "read_table", "read_fwf"), ("pd.read_csv", "pd.read_table", "pd.read_fwf")),
        "pandas.io.excel._base": wraps_for(("read_excel",), ("pd.read_excel",)),
        "pandas.io.json._json": wraps_for(("read_json",), ("pd.read_json",)),
        "numpy.lib._npyio_impl": wraps_for(
            ("load", "loadtxt", "genfromtxt"), ("np.load", "np.loadtxt", "np.genfromtxt")),
        "scipy.io.matlab._mio": wraps_for(("loadmat",), ("loadmat",)),
        "PIL.Image": wraps_for(("open",), ("Image.open",)),
        "matplotlib.image": wraps_for(("imread",), ("plt.imread",)),
    }


def _pdfagent_answers_nearest(name, choices, limit):
    """`choices` ordered closest to `name` first (difflib), at most `limit`."""
    import difflib

    choices = [c for c in choices if isinstance(c, str)]
    close = difflib.get_close_matches(name, choices, n=limit, cutoff=0.0)
    return close[:limit]


def _pdfagent_answers_nearest_files(ans, asked):
    files = ans.data_files()
    last = ans.sep_re.split(asked)[-1] if asked else ""
    by_base = {}
    for f in files:
        by_base.setdefault(f.rsplit("/", 1)[-1], []).append(f)
    ranked = []
    for base in _pdfagent_answers_nearest(last, list(by_base), ans.MAX_FILES):
        ranked.extend(by_base[base])
    return ranked[:ans.MAX_FILES], len(files)


def _pdfagent_answers_same_named(asked, files):
    """Files of the data folder (`files()`, listed only when `asked` names a file at all)
    the foreign path `asked` may mean."""
    import re

    parts = [p for p in re.split(r"[\\/]+", asked) if p not in ("", ".", "~")]
    if not parts:
        return []
    found = [f for f in files() if f.rsplit("/", 1)[-1] == parts[-1]]
    if len(found) > 1:
        # `./data/runs/a.csv`: the files whose own relative path ends the path asked.
        tail = "/" + "/".join(parts)
        suffix = [f for f in found if tail.endswith("/" + f)]
        if len(suffix) == 1:
            found = suffix
    return found


def _pdfagent_answers_library_of(ans, filename):
    """`pandas`, `numpy`, … for a file of the runtime, `None` otherwise."""
    import re

    norm = filename.replace("\\", "/")
    if "/site-packages/" in norm:
        return norm.split("/site-packages/", 1)[1].split("/", 1)[0].removesuffix(".py")
    for prefix in ans.prefixes:
        p = prefix.replace("\\", "/")
        if norm.startswith(p + "/"):
            rest = norm[len(p) + 1:].split("/")
            rest = [r for r in rest if not re.fullmatch(r"lib|Lib|python3\.?\d*|lib-dynload", r)]
            return (rest[0].removesuffix(".py").removesuffix(".pyc") if rest else "python")
    return None


def _pdfagent_answers_scrub(ans, text):
    """A message without host paths: the data folder's files by their relative name,
    the runtime's as <runtime>, the worker's own as <pdfagent>."""
    import os
    import re

    text = text.replace(ans.src_real + os.sep, "").replace(ans.src_real, "SRC")
    text = text.replace(ans.script_file, "<pdfagent>")
    run_dir = os.path.dirname(ans.script_file)
    if run_dir:
        text = text.replace(run_dir + os.sep, "").replace(run_dir, "<run>")
    for prefix in ans.prefixes:
        text = re.sub(re.escape(prefix) + r"[^\s'\")]*", "<runtime>", text)
    return text


def _pdfagent_answers_frames_of(ans, tb):
    import linecache

    frames = []
    while tb is not None:
        code = tb.tb_frame.f_code
        line = tb.tb_lineno
        if code.co_filename == "<code>":
            source = linecache.getline("<code>", line).strip()
            frames.append({"kind": "user", "file": "<code>", "line": line,
                           "function": code.co_name, "source": source or None,
                           "_frame": tb.tb_frame})
        elif code.co_filename == ans.script_file:
            frames.append({"kind": "pdfagent", "file": "<pdfagent>", "line": line,
                           "function": code.co_name, "source": None,
                           "_frame": tb.tb_frame})
        else:
            lib = _pdfagent_answers_library_of(ans, code.co_filename) or "<runtime>"
            frames.append({"kind": "library", "file": lib, "line": line,
                           "function": getattr(code, "co_qualname", code.co_name),
                           "source": None, "_frame": tb.tb_frame})
        tb = tb.tb_next
    return frames


# --- objects this answer may read (exact library types only) ---------------------------
def _pdfagent_answers_exact_kind(obj):
    """'DataFrame', 'Series', 'npz', 'dict' for the containers whose keys are listed."""
    t = type(obj)
    if t is dict:
        return "dict"
    mod = (getattr(t, "__module__", "") or "").split(".")[0]
    name = t.__name__
    if mod == "pandas" and name in ("DataFrame", "Series"):
        return name
    if mod == "numpy" and name == "NpzFile":
        return "npz"
    return None


def _pdfagent_answers_keys_of(obj, kind):
    if kind == "DataFrame":
        return [str(c) for c in list(obj.columns)[:5000]]
    if kind == "Series":
        return [str(c) for c in list(obj.index)[:5000]]
    if kind == "npz":
        return [str(f) for f in obj.files]
    return [str(k) for k in list(dict.keys(obj))[:5000]]


def _pdfagent_answers_key_list(ans, missing, keys, what):
    ordered = _pdfagent_answers_nearest(str(missing), keys, ans.MAX_KEYS)
    rest = len(keys) - len(ordered)
    shown = ", ".join(repr(k) for k in ordered)
    more = f", … ({rest} more)" if rest > 0 else ""
    return f"{what} (closest first): {shown}{more}"


def _pdfagent_answers_subscripted(frame, missing):
    """The container a user line subscripts with `missing`: found by name in the frame
    (`d['x']`, `d['a']['b']` through exact dicts), never by evaluating the line."""
    import ast

    try:
        import linecache

        line = linecache.getline("<code>", frame.f_lineno).strip()
        tree = ast.parse(line)
    except (SyntaxError, ValueError):
        return None

    def resolve(node):
        if isinstance(node, ast.Name):
            scope = frame.f_locals
            if node.id in scope:
                return scope[node.id], True
            if node.id in frame.f_globals:
                return frame.f_globals[node.id], True
            return None, False
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
            inner, ok = resolve(node.value)
            if ok and type(inner) is dict and node.slice.value in inner:
                return dict.__getitem__(inner, node.slice.value), True
        return None, False

    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript):
            key = node.slice.value if isinstance(node.slice, ast.Constant) else None
            if key is None and isinstance(node.slice, ast.Name):
                key = frame.f_locals.get(node.slice.id, frame.f_globals.get(node.slice.id))
            if key != missing:
                continue
            obj, ok = resolve(node.value)
            if ok and _pdfagent_answers_exact_kind(obj):
                return obj
    return None


def _pdfagent_answers_missing_key_fix(ans, exc, frames):
    import re

    missing = exc.args[0] if exc.args else None
    # pandas: "None of [Index(['x'], dtype=...)] are in the [columns]", "['x'] not in index"
    names = [missing]
    if isinstance(missing, str) and ("not in index" in missing or "are in the [" in missing):
        names = re.findall(r"'([^']*)'", missing.split("]")[0]) or [missing]
    elif isinstance(missing, str) and missing.endswith(" is not a file in the archive"):
        names = [missing.removesuffix(" is not a file in the archive")]
    missing = names[0]
    for frame in reversed(frames):
        f = frame["_frame"]
        if frame["kind"] == "library":
            for local in ("self", "obj", "data", "frame"):
                obj = f.f_locals.get(local)
                kind = _pdfagent_answers_exact_kind(obj)
                if kind and kind != "dict":
                    keys = _pdfagent_answers_keys_of(obj, kind)
                    if any(str(n) not in keys for n in names):
                        return _pdfagent_answers_key_list(ans, names[0], keys, f"no {names[0]!r}: " + ans.container_words[kind])
        elif frame["kind"] == "user":
            obj = _pdfagent_answers_subscripted(f, missing)
            if obj is not None:
                kind = _pdfagent_answers_exact_kind(obj)
                return _pdfagent_answers_key_list(ans, missing, _pdfagent_answers_keys_of(obj, kind), f"no {missing!r}: " + ans.container_words[kind])
    return None


def _pdfagent_answers_seaborn_fix(ans, exc, frames):
    import re

    m = re.search(r"Could not interpret value `([^`]*)` for `?(\w+)", str(exc))
    if not m:
        return None
    for frame in reversed(frames):
        data = frame["_frame"].f_locals.get("data")
        if _pdfagent_answers_exact_kind(data) == "DataFrame":
            return _pdfagent_answers_key_list(ans, m.group(1), _pdfagent_answers_keys_of(data, "DataFrame"),
                                                   f"{m.group(2)}={m.group(1)!r} is no column: the DataFrame's columns")
    return None


def _pdfagent_answers_file_fix(ans, exc):
    import os
    import re

    asked = getattr(exc, "filename", None)
    if asked is None:
        # load('x') / srcpath('x') name it in the message; numpy's "x.txt not found."
        m = re.search(r"\(\s*'([^']+)'", str(exc)) or re.match(r"(\S+) not found", str(exc))
        asked = m.group(1) if m else None
    if not isinstance(asked, (str, bytes)):
        return None
    asked = os.fsdecode(asked)
    shown = _pdfagent_answers_scrub(ans, asked)
    found = _pdfagent_answers_same_named(asked, ans.data_files)
    if len(found) > 1 and "has several files named" in str(exc):
        return None  # redirect() said it, with the list
    if len(found) > 1:
        return (f"several files of the data folder are named {found[0].rsplit('/', 1)[-1]!r}: "
                + ", ".join(repr(f) for f in found[:ans.MAX_FILES])
                + "; read one by its path relative to the data folder")
    close, total = _pdfagent_answers_nearest_files(ans, asked)
    if not close:
        return f"{shown!r} is not in the data folder, which has no files"
    return (f"{shown!r} is not in the data folder; name a file by its path relative to "
            f"the data folder. Its nearest files (of {total}): "
            + ", ".join(repr(c) for c in close))


def _pdfagent_answers_shapes_of(frame):
    """`name: shape` for the array arguments of the library call the code made."""
    f = frame["_frame"]
    code = f.f_code
    count = code.co_argcount + code.co_kwonlyargcount
    names = list(code.co_varnames[:count])
    if code.co_flags & 0x04:  # *args
        names.append(code.co_varnames[count])
    out = []
    for name in names:
        value = f.f_locals.get(name)
        if name == "self":
            continue
        values = [(name, value)]
        if code.co_flags & 0x04 and name == names[-1] and type(value) is tuple:
            values = [(f"argument {i + 1}", v) for i, v in enumerate(value)]
        for label, v in values:
            t = type(v)
            mod = (getattr(t, "__module__", "") or "").split(".")[0]
            if t.__name__ == "ndarray" and mod == "numpy" or (
                    mod == "pandas" and t.__name__ in ("Series", "DataFrame", "Index")):
                out.append(f"{label}: shape {tuple(v.shape)}")
            elif t in (list, tuple) and v and label != "self":
                out.append(f"{label}: {t.__name__} of {len(v)}")
    return out


def _pdfagent_answers_shape_fix(ans, exc, frames):
    text = str(exc).lower()
    if not any(w.lower() in text for w in ans.shape_words):
        return None
    last_user = max((i for i, f in enumerate(frames) if f["kind"] == "user"), default=None)
    if last_user is None or last_user + 1 >= len(frames):
        return None
    called = frames[last_user + 1]
    # Past decorators' wrappers (`make_keyword_only.<locals>.wrapper`) to the call itself.
    for frame in frames[last_user + 1:]:
        if frame["kind"] != "library":
            break
        if "<locals>" not in frame["function"]:
            called = frame
            break
    shapes = _pdfagent_answers_shapes_of(called)
    if not shapes:
        return None
    return (f"the arrays given to {called['file']} {called['function']}: "
            + "; ".join(shapes[:8])
            + " — make them agree (the same length along the plotted axis; for a 2-D array "
            "where 1-D is expected pick a row or column, e.g. a[0] or a[:, 0])")


def _pdfagent_answers_name_fix(exc, frames):
    import difflib

    name = getattr(exc, "name", None)
    if not isinstance(name, str):
        return None
    imports = {"pd": "import pandas as pd", "np": "import numpy as np",
               "plt": "import matplotlib.pyplot as plt", "sns": "import seaborn as sns",
               "mpl": "import matplotlib as mpl", "stats": "from scipy import stats",
               "signal": "from scipy import signal", "matplotlib": "import matplotlib"}
    if name in imports:
        return f"add `{imports[name]}` at the top"
    user = [f for f in frames if f["kind"] == "user"]
    scope = dict(user[-1]["_frame"].f_globals) if user else {}
    if user:
        scope.update(user[-1]["_frame"].f_locals)
    close = difflib.get_close_matches(name, [k for k in scope if not k.startswith("__")], n=3)
    if close:
        return f"did you mean {', '.join(close)}?"
    return None


def _pdfagent_answers_attribute_fix(ans, exc):
    import difflib
    import re

    name = getattr(exc, "name", None)
    obj = getattr(exc, "obj", None)
    owner = None
    if obj is not None:
        owner = obj.__name__ if type(obj).__name__ == "module" else type(obj).__name__
    else:
        # A module's own __getattr__ (numpy's) raises without .obj: read the message.
        m = (re.match(r"module '([\w.]+)' has no attribute '(\w+)'", str(exc))
             or re.match(r"'(\w+)' object has no attribute '(\w+)'", str(exc)))
        n = re.match(r"`np\.(\w+)` was removed", str(exc))
        if m:
            owner, name = m.group(1), m.group(2)
        elif n:
            owner, name = "numpy", n.group(1)
    if not isinstance(name, str) or owner is None:
        return None
    fix = _pdfagent_renamed().get((owner, name))
    if fix is None and type(obj).__name__ == "module":
        for (mod, old), new in _pdfagent_renamed().items():
            if old == name and owner.startswith(mod + "."):
                fix = new
    if fix:
        return fix
    kind = _pdfagent_answers_exact_kind(obj)
    if kind == "DataFrame":
        return _pdfagent_answers_key_list(ans, name, _pdfagent_answers_keys_of(obj, kind), f"no column or method {name!r}: the DataFrame's columns")
    t = type(obj)
    mod = getattr(t, "__module__", "") or ""
    if t.__name__ == "module" or mod.split(".")[0] in (
            "numpy", "pandas", "matplotlib", "scipy", "seaborn", "mpl_toolkits"):
        try:
            names = [n for n in type.__dir__(t) if not n.startswith("_")] if t.__name__ != "module" else [
                n for n in vars(obj) if not n.startswith("_")]
        except TypeError:
            return None
        close = difflib.get_close_matches(name, names, n=3)
        if close:
            return f"did you mean {', '.join(close)}?"
    return None


def _pdfagent_answers_import_fix(exc):
    import re

    m = re.search(r"cannot import name '(\w+)' from '([\w.]+)'", str(exc))
    if m:
        fix = _pdfagent_renamed().get((m.group(2), m.group(1)))
        if fix:
            return fix
    return None


def _pdfagent_answers_keyword_fix(exc):
    import re

    m = (re.search(r"unexpected keyword argument '(\w+)'", str(exc))
         or re.match(r"keyword grid_(\w+) is not recognized", str(exc)))
    if not m:
        return None
    return _pdfagent_renamed_keywords().get(m.group(1))


def _pdfagent_answers_fix_for(ans, exc, frames):
    import re

    if isinstance(exc, FileNotFoundError) or (
            isinstance(exc, OSError) and getattr(exc, "errno", None) == 2):
        return _pdfagent_answers_file_fix(ans, exc)
    if isinstance(exc, PermissionError) and "[guard-open]" in str(exc):
        # The run-time guard refused a path outside the data folder (a chat assistant's
        # `/mnt/data/x.csv` naming no file here): the nearest files the folder has.
        m = re.search(r"refused opening '([^']+)'", str(exc))
        if m:
            return _pdfagent_answers_file_fix(ans, FileNotFoundError(2, "not in the data folder", m.group(1)))
    if isinstance(exc, KeyError):
        return _pdfagent_answers_missing_key_fix(ans, exc, frames)
    text = str(exc)
    if "unexpected keyword argument" in text or re.match(r"keyword grid_\w+ is not recognized", text):
        return _pdfagent_answers_keyword_fix(exc)
    if isinstance(exc, ImportError):
        return _pdfagent_answers_import_fix(exc)
    if isinstance(exc, AttributeError):
        return _pdfagent_answers_attribute_fix(ans, exc)
    if isinstance(exc, NameError):
        return _pdfagent_answers_name_fix(exc, frames)
    if isinstance(exc, ValueError) and "absolute paths are refused" in text:
        return _pdfagent_answers_file_fix(ans, exc)
    if isinstance(exc, (ValueError, TypeError, IndexError)):
        return _pdfagent_answers_seaborn_fix(ans, exc, frames) or _pdfagent_answers_shape_fix(ans, exc, frames)
    return None


def _pdfagent_answers_describe(ans, exc):
    """The failure as the contract's `RunFailure` (a dict ready for JSON)."""
    tb = exc.__traceback__
    frames = _pdfagent_answers_frames_of(ans, tb)
    # The preamble's own frame that ran the code is not part of the story.
    while frames and frames[0]["kind"] == "pdfagent" and frames[0]["function"] == "_pdfagent_run":
        frames.pop(0)
    try:
        fix = _pdfagent_answers_fix_for(ans, exc, frames)
    except Exception:  # noqa: BLE001 - a fix that fails to compute is left out
        fix = None
    t = type(exc)
    type_name = t.__name__ if t.__module__ == "builtins" else f"{t.__module__.split('.')[0]}.{t.__name__}"
    # about data or saving: the reminder of how to read data and save figures is due
    data_names = {"srcpath", "load", "savefig", "imsave", "loadmat", "read_csv"}
    about_files = isinstance(exc, OSError) or any(
        f["function"].rsplit(".", 1)[-1] in data_names for f in frames)
    message = str(exc)
    if isinstance(exc, KeyError) and len(exc.args) == 1:
        message = repr(exc.args[0])
    out = {
        "exception": type_name,
        "message": _pdfagent_answers_scrub(ans, message)[:4000],
        "frames": [{k: v for k, v in f.items() if k != "_frame"} for f in frames][-40:],
        "fix": _pdfagent_answers_scrub(ans, fix)[:2000] if fix else None,
        "about_files": about_files,
    }
    return out


def _pdfagent_failure_text(failure):
    """The failure as a model reads it in one pass: the code's frames whole, the libraries'
    one line each, the message last, then the fix."""
    lines = ["Traceback (your code first; line numbers are your code's own):"]
    frames = failure["frames"]
    i = 0
    while i < len(frames):
        f = frames[i]
        if f["kind"] == "user":
            where = "" if f["function"] == "<module>" else f", in {f['function']}"
            lines.append(f"  line {f['line']}{where}: {f['source'] or ''}".rstrip())
        else:
            j = i
            while j + 1 < len(frames) and frames[j + 1]["kind"] == f["kind"] and frames[j + 1]["file"] == f["file"]:
                j += 1
            inner = frames[j]
            label = f"in {f['file']} {f['function']}"
            if j > i:
                label += f" … {inner['function']} ({j - i + 1} frames)"
            lines.append("    " + label)
            i = j
        i += 1
    lines.append(f"{failure['exception']}: {failure['message']}")
    if failure.get("fix"):
        lines.append(f"Fix: {failure['fix']}")
    return "\n".join(lines)


def _pdfagent_renamed():
    """(module or type, old name) -> what to write instead, for names the shipped versions
    removed or renamed (numpy 2, pandas 3, matplotlib 3.9+, scipy 1.14+, seaborn 0.13). Tested
    against the shipped versions: tests/tests/mistakes.rs reads each row's old name (it must
    fail) and the name after "use " (it must exist)."""
    return {
        ("numpy", "float"): "np.float was removed: use float (or np.float64)",
        ("numpy", "int"): "np.int was removed: use int (or np.int64)",
        ("numpy", "object"): "np.object was removed: use object",
        ("numpy", "complex"): "np.complex was removed: use complex (or np.complex128)",
        ("numpy", "str"): "np.str was removed: use str",
        ("numpy", "unicode"): "np.unicode was removed: use str",
        ("numpy", "float_"): "np.float_ was removed in NumPy 2: use np.float64",
        ("numpy", "complex_"): "np.complex_ was removed in NumPy 2: use np.complex128",
        ("numpy", "NaN"): "np.NaN was removed in NumPy 2: use np.nan",
        ("numpy", "NAN"): "np.NAN was removed in NumPy 2: use np.nan",
        ("numpy", "Inf"): "np.Inf was removed in NumPy 2: use np.inf",
        ("numpy", "Infinity"): "np.Infinity was removed in NumPy 2: use np.inf",
        ("numpy", "infty"): "np.infty was removed in NumPy 2: use np.inf",
        ("numpy", "PINF"): "np.PINF was removed in NumPy 2: use np.inf",
        ("numpy", "NINF"): "np.NINF was removed in NumPy 2: use -np.inf",
        ("numpy", "product"): "np.product was removed in NumPy 2: use np.prod",
        ("numpy", "cumproduct"): "np.cumproduct was removed in NumPy 2: use np.cumprod",
        ("numpy", "sometrue"): "np.sometrue was removed in NumPy 2: use np.any",
        ("numpy", "alltrue"): "np.alltrue was removed in NumPy 2: use np.all",
        ("numpy", "asfarray"): "np.asfarray was removed in NumPy 2: use np.asarray(x, dtype=float)",
        ("numpy", "msort"): "np.msort was removed in NumPy 2: use np.sort(a, axis=0)",
        ("numpy", "round_"): "np.round_ was removed in NumPy 2: use np.round",
        ("numpy", "string_"): "np.string_ was removed in NumPy 2: use np.bytes_",
        ("numpy", "unicode_"): "np.unicode_ was removed in NumPy 2: use np.str_",
        ("numpy", "mat"): "np.mat was removed in NumPy 2: use np.asarray (or np.asmatrix)",
        ("numpy", "trapz"): "np.trapz was removed: use np.trapezoid",
        ("numpy", "in1d"): "np.in1d was removed: use np.isin",
        ("DataFrame", "append"): "DataFrame.append was removed in pandas 2: use pd.concat([df, other], ignore_index=True)",
        ("Series", "append"): "Series.append was removed in pandas 2: use pd.concat([s, other])",
        ("DataFrame", "iteritems"): "DataFrame.iteritems was removed: use df.items()",
        ("Series", "iteritems"): "Series.iteritems was removed: use s.items()",
        ("DataFrame", "applymap"): "DataFrame.applymap was removed in pandas 3: use df.map",
        ("DataFrame", "as_matrix"): "DataFrame.as_matrix was removed: use df.to_numpy()",
        ("DataFrame", "ix"): ".ix was removed: use df.loc[...] (labels) or df.iloc[...] (positions)",
        ("DataFrame", "get_value"): "DataFrame.get_value was removed: use df.at[row, col]",
        ("DataFrame", "lookup"): "DataFrame.lookup was removed: use df.loc / df.to_numpy() indexing",
        ("DataFrame", "mad"): "DataFrame.mad was removed: use (df - df.mean()).abs().mean()",
        ("Series", "mad"): "Series.mad was removed: use (s - s.mean()).abs().mean()",
        ("pandas", "datetime"): "pd.datetime was removed: use `import datetime` (or pd.Timestamp)",
        ("pandas", "np"): "pd.np was removed: use `import numpy as np`",
        ("pandas", "scatter_matrix"): "use pd.plotting.scatter_matrix",
        ("pandas", "rolling_mean"): "pd.rolling_mean was removed: use series.rolling(window).mean()",
        ("matplotlib.cm", "get_cmap"): "matplotlib.cm.get_cmap was removed: use matplotlib.colormaps[name] (or plt.get_cmap(name))",
        ("Axes", "hold"): "Axes.hold was removed: drop the call (plots always add to the axes)",
        ("matplotlib.pyplot", "hold"): "plt.hold was removed: drop the call (plots always add to the axes)",
        ("Axes", "set_color_cycle"): "set_color_cycle was removed: use ax.set_prop_cycle(color=[...])",
        ("Axes", "set_axis_bgcolor"): "set_axis_bgcolor was removed: use ax.set_facecolor",
        ("Axes", "get_axis_bgcolor"): "get_axis_bgcolor was removed: use ax.get_facecolor",
        ("Legend", "legendHandles"): "Legend.legendHandles was removed: use legend.legend_handles",
        ("FigureCanvasAgg", "set_window_title"): "use fig.canvas.manager.set_window_title (or fig.suptitle)",
        ("scipy.integrate", "simps"): "scipy.integrate.simps was removed: use scipy.integrate.simpson",
        ("scipy.integrate", "trapz"): "scipy.integrate.trapz was removed: use scipy.integrate.trapezoid",
        ("scipy.integrate", "cumtrapz"): "scipy.integrate.cumtrapz was removed: use scipy.integrate.cumulative_trapezoid",
        ("scipy.signal", "gaussian"): "scipy.signal.gaussian moved: use scipy.signal.windows.gaussian",
        ("scipy.signal", "hann"): "scipy.signal.hann moved: use scipy.signal.windows.hann",
        ("scipy.signal", "hanning"): "use scipy.signal.windows.hann",
        ("scipy.signal", "hamming"): "scipy.signal.hamming moved: use scipy.signal.windows.hamming",
        ("scipy.signal", "blackman"): "scipy.signal.blackman moved: use scipy.signal.windows.blackman",
        ("scipy.signal", "kaiser"): "scipy.signal.kaiser moved: use scipy.signal.windows.kaiser",
        ("scipy.stats", "binom_test"): "scipy.stats.binom_test was removed: use scipy.stats.binomtest",
        ("seaborn", "tsplot"): "sns.tsplot was removed: use sns.lineplot",
        ("seaborn", "factorplot"): "sns.factorplot was removed: use sns.catplot",
        ("seaborn", "lvplot"): "sns.lvplot was removed: use sns.boxenplot",
    }


def _pdfagent_renamed_keywords():
    """Keyword arguments the shipped versions renamed or removed -> what to write instead."""
    return {
        "b": "the keyword b= was renamed: use ax.grid(visible=True)",
        "normed": "normed= was removed: use density=True",
        "axisbg": "axisbg= was removed: use facecolor=",
        "axis_bgcolor": "axis_bgcolor= was removed: use facecolor=",
        "projection": "fig.gca(projection=...) was removed: use fig.add_subplot(projection='3d')",
        "delim_whitespace": "delim_whitespace= was removed in pandas 3: use sep=r'\\s+'",
        "error_bad_lines": "error_bad_lines= was removed: use on_bad_lines='skip' (or 'error')",
        "warn_bad_lines": "warn_bad_lines= was removed: use on_bad_lines='warn'",
        "line_terminator": "line_terminator= was renamed: use lineterminator=",
        "squeeze": "squeeze= was removed from read_csv: use .squeeze('columns') on the result",
        "date_parser": "date_parser= was removed: use date_format='%Y-%m-%d' (or pd.to_datetime after reading)",
        "infer_datetime_format": "infer_datetime_format= was removed: drop it (the format is inferred)",
        "method": "fillna(method=...) was removed: use df.ffill() or df.bfill()",
        "shade": "shade= was removed from sns.kdeplot: use fill=True",
    }
