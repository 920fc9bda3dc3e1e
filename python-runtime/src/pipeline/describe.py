# PDFAgent describe_data: a FIXED script of ours (never model code) that the confined
# worker runs to tell an agent what a data file holds, so it can write correct code without
# guessing. The file to describe is given as data: `request.json` next to this script holds
# {"path": "<absolute path inside SRC>", "rel": "<path as the agent gave it>"}; nothing of the
# request is ever spliced into this text. The description goes to stdout, capped.

MAX_CHARS = 6000
MAX_ITEMS = 40
HEAD_ROWS = 5


def _main():
    import json
    import os
    import sys

    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "request.json"), encoding="utf-8") as f:
        request = json.load(f)
    path = request["path"]
    rel = request["rel"]
    size = os.path.getsize(path)
    lines = [f"{rel}: {size} bytes; read it with srcpath({rel!r})"]
    ext = os.path.splitext(path)[1].lower()
    describe = {
        ".csv": _table,
        ".tsv": _table,
        ".tab": _table,
        ".txt": _table,
        ".dat": _table,
        ".mat": _mat,
        ".npy": _npy,
        ".npz": _npz,
        ".json": _json,
        ".h5": _hdf5,
        ".hdf5": _hdf5,
    }.get(ext, _unknown)
    try:
        describe(path, rel, size, ext, lines)
    except Exception as exc:  # noqa: BLE001 - any reader failure is reported the same way
        lines.append(f"could not read it as {ext or 'this format'}: {type(exc).__name__}: {exc}")
    text = "\n".join(lines)
    if len(text) > MAX_CHARS:
        text = text[:MAX_CHARS] + "\n... (description truncated)"
    sys.stdout.write(text + "\n")


def _type_name(value):
    return type(value).__name__


def _table(path, rel, size, ext, lines):
    import pandas as pd

    if ext == ".csv":
        sep, how = ",", "pd.read_csv(srcpath(%r))" % rel
    elif ext in (".tsv", ".tab"):
        sep, how = "\t", "pd.read_csv(srcpath(%r), sep='\\t')" % rel
    else:
        sep, how = r"\s+|,|;|\t", "pd.read_csv(srcpath(%r), sep=None, engine='python')" % rel
    kwargs = {"sep": sep} if ext in (".csv", ".tsv", ".tab") else {"sep": None, "engine": "python"}
    big = size > 50 * 1024 * 1024
    frame = pd.read_csv(path, nrows=10000 if big else None, **kwargs)
    if big:
        with open(path, "rb") as f:
            newlines = sum(chunk.count(b"\n") for chunk in iter(lambda: f.read(1 << 20), b""))
        lines.append(f"table (large file): about {max(newlines - 1, 0)} rows (line count); "
                     f"types inferred from the first {len(frame)} rows")
    else:
        lines.append(f"table: {len(frame)} rows x {len(frame.columns)} columns; read with {how}")
    lines.append("columns (name: type):")
    for name in list(frame.columns)[:MAX_ITEMS]:
        lines.append(f"  {name!r}: {frame[name].dtype}")
    if len(frame.columns) > MAX_ITEMS:
        lines.append(f"  ... and {len(frame.columns) - MAX_ITEMS} more columns")
    with pd.option_context("display.width", 160, "display.max_columns", 12):
        lines.append(f"first {min(HEAD_ROWS, len(frame))} rows:")
        lines.append(frame.head(HEAD_ROWS).to_string())


def _mat_version(path):
    with open(path, "rb") as f:
        head = f.read(128)
    if head.startswith(b"MATLAB 7.3"):
        return "7.3"
    return "5" if head[:6] == b"MATLAB" else "4 or unknown"


def _mat(path, rel, size, ext, lines):
    version = _mat_version(path)
    if version == "7.3":
        lines.append("MATLAB v7.3 (HDF5) file")
        _hdf5(path, rel, size, ext, lines, mat=True)
        return
    from scipy.io import loadmat, whosmat

    variables = whosmat(path)
    lines.append(f"MATLAB v{version} file; read with loadmat(srcpath({rel!r})); "
                 f"{len(variables)} variables (name: shape, MATLAB class, numpy dtype):")
    data = loadmat(path) if size <= 100 * 1024 * 1024 else {}
    for name, shape, cls in variables[:MAX_ITEMS]:
        extra = ""
        value = data.get(name)
        if value is not None:
            extra = f", {value.dtype}"
            if value.dtype.names:
                extra += f", struct fields {list(value.dtype.names)[:MAX_ITEMS]}"
        lines.append(f"  {name}: {tuple(shape)} {cls}{extra}")
    if len(variables) > MAX_ITEMS:
        lines.append(f"  ... and {len(variables) - MAX_ITEMS} more variables")


def _hdf5(path, rel, size, ext, lines, mat=False):
    try:
        import h5py
    except ImportError:
        what = "MATLAB v7.3 (HDF5) file" if mat else "HDF5 file"
        lines.append(f"{what}: not readable yet (the bundled runtime has no HDF5 reader)")
        return
    with h5py.File(path, "r") as f:
        found = []

        def visit(name, obj):
            if isinstance(obj, h5py.Dataset) and len(found) < MAX_ITEMS:
                found.append(f"  {name}: {obj.shape} {obj.dtype}")

        f.visititems(visit)
    lines.append(f"{len(found)} datasets (name: shape dtype):")
    lines.extend(found)


def _npy(path, rel, size, ext, lines):
    import numpy as np

    try:
        array = np.load(path, mmap_mode="r", allow_pickle=False)
    except ValueError as exc:
        lines.append(f"numpy array that cannot be read safely (object/pickled data): {exc}")
        return
    lines.append(f"numpy array; read with np.load(srcpath({rel!r})): "
                 f"shape {array.shape}, dtype {array.dtype}")
    if array.size and array.dtype.kind in "biuf" and array.size <= 50_000_000:
        lines.append(f"  min {array.min().item()!r}, max {array.max().item()!r}")


def _npz(path, rel, size, ext, lines):
    import numpy as np
    import zipfile

    fmt = np.lib.format
    with zipfile.ZipFile(path) as archive:
        names = [n for n in archive.namelist() if n.endswith(".npy")]
        lines.append(f"numpy archive; read with np.load(srcpath({rel!r}))[name]; "
                     f"{len(names)} arrays (name: shape dtype):")
        for name in names[:MAX_ITEMS]:
            with archive.open(name) as f:
                version = fmt.read_magic(f)
                if version == (1, 0):
                    shape, _, dtype = fmt.read_array_header_1_0(f)
                else:
                    shape, _, dtype = fmt.read_array_header_2_0(f)
            lines.append(f"  {name[:-4]}: {shape} {dtype}")
        if len(names) > MAX_ITEMS:
            lines.append(f"  ... and {len(names) - MAX_ITEMS} more arrays")


def _summary(value):
    if isinstance(value, dict):
        return f"object with {len(value)} keys"
    if isinstance(value, list):
        kinds = sorted({_type_name(v) for v in value[:100]})
        return f"array of {len(value)} ({', '.join(kinds) or 'empty'})"
    text = repr(value)
    return f"{_type_name(value)} {text[:60]}{'...' if len(text) > 60 else ''}"


def _json(path, rel, size, ext, lines):
    import json

    if size > 50 * 1024 * 1024:
        lines.append("JSON file too large to describe (over 50 MB)")
        return
    with open(path, encoding="utf-8") as f:
        value = json.load(f)
    how = (f"pd.read_json(srcpath({rel!r}), typ='series')" if isinstance(value, dict)
           else f"pd.read_json(srcpath({rel!r}))")
    lines.append(f"JSON; read with {how}. Top level: {_summary(value)}")
    if isinstance(value, dict):
        for key in list(value)[:MAX_ITEMS]:
            lines.append(f"  {key!r}: {_summary(value[key])}")
        if len(value) > MAX_ITEMS:
            lines.append(f"  ... and {len(value) - MAX_ITEMS} more keys")
    elif isinstance(value, list) and value and isinstance(value[0], dict):
        lines.append(f"  first element keys: {list(value[0])[:MAX_ITEMS]}")


def _unknown(path, rel, size, ext, lines):
    with open(path, "rb") as f:
        head = f.read(2048)
    try:
        text = head.decode("utf-8")
    except UnicodeDecodeError:
        lines.append("binary file of an unknown format")
        return
    lines.append("text file of an unknown format; first lines:")
    lines.extend("  " + line for line in text.splitlines()[:HEAD_ROWS])


_main()
