# PDFAgent's reader table: the ONE place that knows how each kind of data file is read. It
# runs only inside the confined worker, never in the app's process, for two callers:
#   - load('file') in figure code (preamble.py): the natural object for the file;
#   - the inspection of a file (inspect.py, a fixed script of ours behind pipeline::inspect):
#     the text MCP's describe_data returns and the window shows, and the window's structured
#     preview (table rows, variables, first values, a JSON outline, an image's size).
# Both go through the same rows below, so they read a file the same way: one separator
# guess, one header rule, one pickle refusal, one set of size limits.
#
# The worker script pastes this file after the preamble (an inspection's script, before
# inspect.py). Only the function below sits at the top level, so the figure code's namespace
# gains no names; libraries are imported where they are used, so a figure that never calls
# load() pays nothing for them.


def _pdfagent_readers():
    import json
    import os
    from types import SimpleNamespace

    # openpyxl (behind .xlsx here, and behind pd.read_excel in figure code) calls
    # mimetypes.init(), which reads /etc/mime.types and the like: outside the confinement,
    # so a PermissionError. Python's built-in table is all any of them needs.
    import mimetypes

    mimetypes.knownfiles = []

    # --- limits: an inspection reads a file whole only up to WHOLE_BYTES ------------------
    # Above it: tables the first SAMPLE_ROWS rows, .mat v5 the header (shapes, no dtypes),
    # .npy no min/max, JSON nothing. load() has no such limit: the code asked for the data.
    WHOLE_BYTES = 50 << 20
    SAMPLE_ROWS = 10_000
    TEXT_CHARS = 6000
    ITEMS = 40
    HEAD_ROWS = 5
    PREVIEW_ROWS, PREVIEW_COLS, CELL_CHARS = 20, 30, 60
    FIRST_VALUES = 8
    OUTLINE_DEPTH, OUTLINE_KEYS, OUTLINE_CHARS = 3, 40, 80
    SNIFF_CHARS = 65536

    class Refused(Exception):
        """A file the readers will not read; the message says why and what to do."""

    PICKLE_REFUSAL = (
        "the file holds Python objects (a pickle), and loading a pickle runs code; "
        "save plain arrays instead (np.save/np.savez of numeric or string arrays)"
    )

    def cell(value, limit=CELL_CHARS):
        text = str(value)
        return text if len(text) <= limit else text[: limit - 1] + "…"

    # --- tables: .csv .tsv .tab .txt .dat ------------------------------------------------
    SEPARATOR_NAMES = {",": "comma", ";": "semicolon", "\t": "tab", r"\s+": "whitespace"}

    def first_line(path):
        with open(path, encoding="utf-8", errors="replace") as f:
            sample = f.read(SNIFF_CHARS)
        return next((line for line in sample.splitlines() if line.strip()), "")

    def separator(first, ext):
        """The one separator guess, from the file's first non-empty line."""
        if ext in (".tsv", ".tab"):
            return "\t"
        if ext == ".csv":
            # Spreadsheets in many locales write CSV with semicolons.
            return ";" if "," not in first and ";" in first else ","
        return next((c for c in ("\t", ",", ";") if c in first), r"\s+")

    def is_number(text):
        try:
            float(text)
            return True
        except ValueError:
            return False

    def has_header(first, sep):
        """A first row made only of numbers is data, not a header."""
        fields = first.split() if sep == r"\s+" else first.split(sep)
        values = [x.strip().strip('"') for x in fields if x.strip()]
        return not (values and all(is_number(x) for x in values))

    def read_table(path, ext, nrows=None):
        import pandas as pd

        first = first_line(path)
        sep = separator(first, ext)
        header = has_header(first, sep)
        frame = pd.read_csv(
            path,
            sep=sep,
            header="infer" if header else None,
            nrows=nrows,
            engine="python" if sep == r"\s+" else "c",
        )
        return frame, sep, header

    def load_table(path, ext):
        return read_table(path, ext)[0]

    def read_call(rel, sep, header):
        args = [repr(rel)]
        if sep != ",":
            args.append(f"sep={sep!r}")
        if not header:
            args.append("header=None")
        return f"pd.read_csv({', '.join(args)})"

    def describe_frame(frame, say):
        import pandas as pd

        say("columns (name: type):")
        for name in list(frame.columns)[:ITEMS]:
            say(f"  {name!r}: {frame[name].dtype}")
        if len(frame.columns) > ITEMS:
            say(f"  ... and {len(frame.columns) - ITEMS} more columns")
        with pd.option_context("display.width", 160, "display.max_columns", 12):
            say(f"first {min(HEAD_ROWS, len(frame))} rows:")
            say(frame.head(HEAD_ROWS).to_string())

    def table_preview(frame, sep, header, rows_total):
        rows = frame.head(PREVIEW_ROWS).itertuples(index=False)
        return {
            "kind": "table",
            "separator": SEPARATOR_NAMES.get(sep) if sep else None,
            "header": header,
            "columns": [cell(c) for c in list(frame.columns)[:PREVIEW_COLS]],
            "rows": [[cell(v) for v in row[:PREVIEW_COLS]] for row in rows],
            "rows_total": rows_total,
        }

    def count_lines(path):
        with open(path, "rb") as f:
            return sum(chunk.count(b"\n") for chunk in iter(lambda: f.read(1 << 20), b""))

    def inspect_table(path, rel, ext, size, say):
        big = size > WHOLE_BYTES
        frame, sep, header = read_table(path, ext, SAMPLE_ROWS if big else None)
        how = f"read with load({rel!r}) (a pandas DataFrame) or {read_call(rel, sep, header)}"
        layout = (
            f"{SEPARATOR_NAMES[sep]}-separated, "
            + ("the first row is the header" if header else "no header row (columns 0, 1, ...)")
        )
        rows_total = None
        if big:
            about = max(count_lines(path) - (1 if header else 0), 0)
            say(
                f"table (large file): about {about} rows (line count) x {len(frame.columns)} "
                f"columns, {layout}; types from the first {len(frame)} rows; {how}"
            )
        else:
            rows_total = len(frame)
            say(f"table: {len(frame)} rows x {len(frame.columns)} columns, {layout}; {how}")
        describe_frame(frame, say)
        return table_preview(frame, sep, header, rows_total)

    # --- Excel: .xlsx --------------------------------------------------------------------
    def read_xlsx(path, nrows=None):
        import pandas as pd

        with pd.ExcelFile(path, engine="openpyxl") as book:
            return book.parse(0, nrows=nrows), book.sheet_names

    def load_xlsx(path, ext):
        return read_xlsx(path)[0]

    def inspect_xlsx(path, rel, ext, size, say):
        big = size > WHOLE_BYTES
        frame, sheets = read_xlsx(path, SAMPLE_ROWS if big else None)
        shown = ", ".join(repr(s) for s in sheets[:ITEMS])
        more = f" and {len(sheets) - ITEMS} more" if len(sheets) > ITEMS else ""
        say(f"Excel workbook, {len(sheets)} sheet(s): {shown}{more}")
        rows = f"{len(frame)} rows" if not big else f"the first {len(frame)} rows"
        say(
            f"first sheet {sheets[0]!r}: {rows} x {len(frame.columns)} columns; read with "
            f"load({rel!r}) (a pandas DataFrame of the first sheet) or "
            f"pd.read_excel({rel!r}, sheet_name=...)"
        )
        describe_frame(frame, say)
        return table_preview(frame, None, True, None if big else len(frame))

    # --- MATLAB: .mat v5 (scipy.io) and v7.3 (HDF5, h5py) --------------------------------
    HDF5_SIGNATURE = b"\x89HDF\r\n\x1a\n"

    def mat_version(path):
        with open(path, "rb") as f:
            head = f.read(520)
        if head[512:520] == HDF5_SIGNATURE or head[:8] == HDF5_SIGNATURE:
            return "7.3"
        return "5" if head[:6] == b"MATLAB" else "4"

    def load_mat(path, ext):
        if mat_version(path) == "7.3":
            return load_mat73(path)
        from scipy.io import loadmat as scipy_loadmat

        data = scipy_loadmat(path, simplify_cells=True)
        return {k: v for k, v in data.items() if not k.startswith("__")}

    def as_complex(arr):
        names = arr.dtype.names or ()
        if "real" in names and "imag" in names:
            return arr["real"] + 1j * arr["imag"]
        return arr

    def matlab_class(obj):
        cls = obj.attrs.get("MATLAB_class", b"")
        return cls.decode() if isinstance(cls, bytes) else str(cls)

    def load_mat73(path):
        import h5py
        import numpy as np

        def value(f, obj):
            if isinstance(obj, h5py.Group):
                if "MATLAB_sparse" in obj.attrs:
                    from scipy.sparse import csc_matrix

                    jc = np.asarray(obj["jc"][()])
                    rows = int(obj.attrs["MATLAB_sparse"])
                    data = np.asarray(obj["data"][()]) if "data" in obj else np.zeros(0)
                    ir = np.asarray(obj["ir"][()]) if "ir" in obj else np.zeros(0, dtype=np.int64)
                    return csc_matrix((as_complex(data), ir, jc), shape=(rows, len(jc) - 1))
                return {k: value(f, obj[k]) for k in obj if not k.startswith("#")}
            cls = matlab_class(obj)
            if obj.attrs.get("MATLAB_empty", 0):
                return "" if cls == "char" else np.zeros(0)
            raw = obj[()]
            if h5py.check_ref_dtype(obj.dtype) is not None:
                arr = np.asarray(raw, dtype=object).T
                items = [value(f, f[ref]) if ref else None for ref in arr.flat]
                if arr.ndim == 2 and 1 in arr.shape or arr.ndim < 2:
                    return items
                out = np.empty(arr.shape, dtype=object)
                out.flat[:] = items
                return out.tolist()
            arr = as_complex(np.asarray(raw)).T
            if cls == "char":
                arr = np.atleast_2d(arr)
                rows = ["".join(chr(c) for c in row) for row in arr.astype(np.uint32)]
                return rows[0] if len(rows) == 1 else rows
            if cls == "logical":
                arr = arr.astype(bool)
            arr = np.squeeze(arr)
            return arr[()] if arr.ndim == 0 else arr

        with h5py.File(path, "r", locking=False) as f:
            return {k: value(f, f[k]) for k in f if not k.startswith("#")}

    def variable(name, shape, cls, dtype, fields=None, note=None):
        """One variable of a .mat/.npz/.h5 file: a description line and a preview row."""
        shape = tuple(int(n) for n in shape) if shape is not None else None
        kind = "struct" if fields is not None else dtype
        line = f"  {name}: {shape if shape is not None else '?'}"
        line += f" {cls}" if cls else ""
        if fields is not None:
            line += f", fields {fields[:ITEMS]}"
        elif dtype and dtype != cls:
            line += f"{',' if cls else ''} {dtype}"
        if note:
            line += f" - {note}"
        row = {"name": name, "shape": list(shape or ()), "class": cls or None, "dtype": kind}
        return line, row

    def variables(found, noun, say, total=None):
        """Says the first ITEMS of `found` (each the arguments of variable()) and how many
        more of `total` there are; returns their preview."""
        total = len(found) if total is None else total
        rows = []
        for item in found[:ITEMS]:
            line, row = variable(*item)
            say(line)
            rows.append(row)
        if total > ITEMS:
            say(f"  ... and {total - ITEMS} more {noun}")
        return {"kind": "variables", "variables": rows}

    def numpy_kind(dtype):
        """What a MATLAB array's values become in load(): a numpy dtype name, or str/cell."""
        if dtype.hasobject:
            return "cell"
        if dtype.kind == "U":
            return "str"
        return str(dtype)

    def inspect_mat(path, rel, ext, size, say):
        version = mat_version(path)
        how = (
            f"read with load({rel!r}) (a dict: structs as dicts, cells as lists, 1xN arrays 1-D)"
        )
        if version != "7.3":
            how += f" or loadmat({rel!r})"
        found = mat73_variables(path) if version == "7.3" else mat5_variables(path, size)
        what = "MATLAB v7.3 (HDF5) file" if version == "7.3" else f"MATLAB v{version} file"
        say(
            f"{what}; {how}; {len(found)} variables "
            "(name: MATLAB shape, MATLAB class, numpy dtype):"
        )
        return variables(found, "variables", say)

    def mat5_variables(path, size):
        from scipy.io import loadmat as scipy_loadmat, whosmat

        values = scipy_loadmat(path) if size <= WHOLE_BYTES else {}
        found = []
        for name, shape, cls in whosmat(path):
            value = values.get(name)
            fields = None
            dtype = None
            if value is not None and value.dtype.names:
                fields = list(value.dtype.names)
            elif value is not None:
                dtype = numpy_kind(value.dtype)
            found.append((name, shape, cls, dtype, fields))
        return found

    def mat73_variables(path):
        """Names, MATLAB shapes and classes from the HDF5 metadata: no data is read."""
        import h5py
        import numpy as np

        found = []
        with h5py.File(path, "r", locking=False) as f:
            for name in f:
                if name.startswith("#"):
                    continue
                obj = f[name]
                cls = matlab_class(obj) or None
                if isinstance(obj, h5py.Group):
                    if "MATLAB_sparse" in obj.attrs:
                        cols = len(obj["jc"]) - 1 if "jc" in obj else 0
                        shape = (int(obj.attrs["MATLAB_sparse"]), cols)
                        found.append((name, shape, cls, "sparse", None))
                    else:
                        fields = [k for k in obj if not k.startswith("#")]
                        found.append((name, (1, 1), cls or "struct", None, fields))
                    continue
                shape = tuple(reversed(obj.shape))
                if obj.attrs.get("MATLAB_empty", 0):
                    shape = (0, 0)
                if h5py.check_ref_dtype(obj.dtype) is not None:
                    dtype = "cell"
                elif cls == "char":
                    dtype = "str"
                elif cls == "logical":
                    dtype = "bool"
                elif obj.dtype.names and "real" in obj.dtype.names:
                    dtype = str(np.result_type(obj.dtype["real"], np.complex64))
                else:
                    dtype = str(obj.dtype)
                found.append((name, shape, cls, dtype, None))
        return found

    # --- numpy: .npy .npz (never a pickle) ------------------------------------------------
    def np_load(path, **kwargs):
        import numpy as np

        try:
            return np.load(path, allow_pickle=False, **kwargs)
        except ValueError as exc:
            if "allow_pickle" in str(exc):
                raise Refused(PICKLE_REFUSAL) from None
            raise

    def load_npy(path, ext):
        return np_load(path)

    def load_npz(path, ext):
        with np_load(path) as archive:
            try:
                return {key: archive[key] for key in archive.files}
            except ValueError as exc:
                if "allow_pickle" in str(exc):
                    raise Refused(PICKLE_REFUSAL) from None
                raise

    def npy_header(f):
        """(shape, dtype) from an .npy header: the data is not read."""
        import numpy as np

        fmt = np.lib.format
        version = fmt.read_magic(f)
        read = fmt.read_array_header_1_0 if version == (1, 0) else fmt.read_array_header_2_0
        shape, _, dtype = read(f)
        return shape, dtype

    def inspect_npy(path, rel, ext, size, say):
        with open(path, "rb") as f:
            shape, dtype = npy_header(f)
        if dtype.hasobject:
            say(f"numpy array: shape {tuple(shape)}, dtype {dtype}")
            raise Refused(PICKLE_REFUSAL)
        say(
            f"numpy array; read with load({rel!r}) or np.load({rel!r}): "
            f"shape {tuple(shape)}, dtype {dtype}"
        )
        array = np_load(path, mmap_mode="r")
        first = [cell(v) for v in array.flat[:FIRST_VALUES].tolist()]
        if first:
            say(f"  first values: {', '.join(first)}")
        if array.size and array.dtype.kind in "biuf" and size <= WHOLE_BYTES:
            say(f"  min {array.min().item()!r}, max {array.max().item()!r}")
        shape = [int(n) for n in shape]
        return {"kind": "array", "shape": shape, "dtype": str(dtype), "first": first}

    def inspect_npz(path, rel, ext, size, say):
        import zipfile

        with zipfile.ZipFile(path) as archive:
            names = [n for n in archive.namelist() if n.endswith(".npy")]
            say(
                f"numpy archive; read with load({rel!r}) (a dict of name -> array) or "
                f"np.load({rel!r})[name]; {len(names)} arrays (name: shape dtype):"
            )
            found = []
            for name in names[:ITEMS]:
                with archive.open(name) as f:
                    shape, dtype = npy_header(f)
                refused = f"refused: {PICKLE_REFUSAL}" if dtype.hasobject else None
                found.append((name[:-4], shape, None, str(dtype), None, refused))
        return variables(found, "arrays", say, total=len(names))

    # --- JSON ------------------------------------------------------------------------------
    def load_json(path, ext):
        with open(path, encoding="utf-8") as f:
            return json.load(f)

    def summary(value):
        if isinstance(value, dict):
            return f"object with {len(value)} keys"
        if isinstance(value, list):
            kinds = sorted({type(v).__name__ for v in value[:100]})
            return f"array of {len(value)} ({', '.join(kinds) or 'empty'})"
        text = repr(value)
        return f"{type(value).__name__} {text[:60]}{'...' if len(text) > 60 else ''}"

    def outline(value, depth=0, key="(root)"):
        node = {"key": cell(key, OUTLINE_CHARS), "type": type(value).__name__, "len": None,
                "value": None, "children": []}
        if isinstance(value, dict):
            node["len"] = len(value)
            if depth < OUTLINE_DEPTH:
                items = list(value.items())[:OUTLINE_KEYS]
                node["children"] = [outline(v, depth + 1, k) for k, v in items]
        elif isinstance(value, list):
            node["len"] = len(value)
            if depth < OUTLINE_DEPTH and value:
                node["children"] = [outline(value[0], depth + 1, "[0]")]
        else:
            node["value"] = cell(repr(value), OUTLINE_CHARS)
        return node

    def inspect_json(path, rel, ext, size, say):
        if size > WHOLE_BYTES:
            say(f"JSON file too large to describe (over {WHOLE_BYTES >> 20} MB)")
            return None
        value = load_json(path, ext)
        how = (
            f"pd.read_json({rel!r}, typ='series')" if isinstance(value, dict)
            else f"pd.read_json({rel!r})"
        )
        say(f"JSON; read with load({rel!r}) (the parsed value) or {how}. Top level: {summary(value)}")
        if isinstance(value, dict):
            for key in list(value)[:ITEMS]:
                say(f"  {key!r}: {summary(value[key])}")
            if len(value) > ITEMS:
                say(f"  ... and {len(value) - ITEMS} more keys")
        elif isinstance(value, list) and value and isinstance(value[0], dict):
            say(f"  first element keys: {list(value[0])[:ITEMS]}")
        return {"kind": "json", "outline": outline(value)}

    # --- HDF5: .h5 .hdf5 -------------------------------------------------------------------
    def load_hdf5(path, ext):
        import h5py

        def value(obj):
            if isinstance(obj, h5py.Group):
                return {k: value(obj[k]) for k in obj}
            return obj[()]

        with h5py.File(path, "r", locking=False) as f:
            return value(f)

    def inspect_hdf5(path, rel, ext, size, say):
        import h5py

        found = []
        with h5py.File(path, "r", locking=False) as f:

            def visit(name, obj):
                if isinstance(obj, h5py.Dataset):
                    found.append((name, obj.shape, None, str(obj.dtype)))

            f.visititems(visit)
        say(
            f"HDF5 file; read with load({rel!r}) (a dict: groups as dicts, datasets as arrays); "
            f"{len(found)} datasets (name: shape dtype):"
        )
        return variables(found, "datasets", say)

    # --- images: decoded by PIL here only; the window shows their bytes itself ------------
    IMAGE_FORMATS = ["PNG", "JPEG", "GIF", "WEBP", "BMP"]

    def open_image(path):
        from PIL import Image

        # Only these decoders are asked: never a plugin that starts a program (EPS).
        return Image.open(path, formats=IMAGE_FORMATS)

    def load_image(path, ext):
        import numpy as np

        with open_image(path) as image:
            return np.asarray(image)

    def inspect_image(path, rel, ext, size, say):
        with open_image(path) as image:
            width, height = image.size
            mode, kind = image.mode, image.format
            frames = getattr(image, "n_frames", 1)
        animated = f", {frames} frames" if frames > 1 else ""
        say(
            f"{kind} image, {width} x {height} px, mode {mode}{animated}; read with "
            f"load({rel!r}) (a numpy array: rows x columns, x channels for colour) or "
            f"plt.imread({rel!r})"
        )
        return {"kind": "image", "format": kind, "width": width, "height": height, "mode": mode}

    # --- anything else: described, not loaded ---------------------------------------------
    def inspect_unknown(path, rel, ext, size, say):
        with open(path, "rb") as f:
            head = f.read(2048)
        try:
            text = head.decode("utf-8")
        except UnicodeDecodeError:
            say(f"binary file of an unknown format; load() reads {', '.join(sorted(FORMATS))}")
            return None
        say(f"text file of an unknown format; load() reads {', '.join(sorted(FORMATS))}; "
            "first lines:")
        for line in text.splitlines()[:HEAD_ROWS]:
            say("  " + cell(line, 200))
        return None

    # --- the table ---------------------------------------------------------------------------
    TABLES = (".csv", ".tsv", ".tab", ".txt", ".dat")
    IMAGES = (".png", ".jpg", ".jpeg", ".gif", ".webp", ".bmp")
    FORMATS = {}
    for extensions, load_one, inspect_one in (
        (TABLES, load_table, inspect_table),
        ((".xlsx",), load_xlsx, inspect_xlsx),
        ((".mat",), load_mat, inspect_mat),
        ((".npy",), load_npy, inspect_npy),
        ((".npz",), load_npz, inspect_npz),
        ((".json",), load_json, inspect_json),
        ((".h5", ".hdf5"), load_hdf5, inspect_hdf5),
        (IMAGES, load_image, inspect_image),
    ):
        for extension in extensions:
            FORMATS[extension] = SimpleNamespace(load=load_one, inspect=inspect_one)

    def inspect(path, rel, want_preview):
        """{"text": the description, "preview": the window's structured part or None}."""
        size = os.path.getsize(path)
        ext = os.path.splitext(rel)[1].lower()
        lines = [f"{rel}: {size} bytes"]
        row = FORMATS.get(ext)
        preview = None
        try:
            preview = (row.inspect if row else inspect_unknown)(path, rel, ext, size, lines.append)
        except Refused as exc:
            lines.append(f"refused: {exc}")
        except Exception as exc:  # noqa: BLE001 - any reader failure is told the same way
            # Readers name the file by its real path: the caller knows it by `rel` only.
            why = str(exc).replace(path, rel)
            lines.append(f"could not read it as a {ext} file: {type(exc).__name__}: {why}")
        text = "\n".join(lines)
        if len(text) > TEXT_CHARS:
            text = text[:TEXT_CHARS] + "\n... (description truncated)"
        return {"text": text, "preview": (preview or {"kind": "none"}) if want_preview else None}

    return SimpleNamespace(formats=FORMATS, Refused=Refused, inspect=inspect)
