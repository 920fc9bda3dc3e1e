# MATLAB objects in a MAT-file (issue #42): the MCOS subsystem. A MAT-file that holds class
# objects (a figure saved by R2025 or later, a `string`, a `datetime`, a `table`) keeps their
# properties in one blob at the end of the file, which scipy.io.loadmat returns untouched as
# the variable `__function_workspace__`; the variables themselves are only references into it
# (a uint32 column 0xDD000000, ndims, dims, object ids, class id). This file reads that blob
# with scipy's own MAT v5 element reader (the blob is a small MAT stream) and decodes the
# `FileWrapper__` metadata by hand: names, classes, objects and each object's property map.
# Pasted after figfile.py; its one user is the .fig reader (and through it load()).
#
# The layout (documented from public readers, e.g. the `mat-io` project's
# docs/subsystem_data_format.md): the stream holds a struct whose field MCOS is an opaque
# FileWrapper__ whose cell array holds, in cell 0, the metadata (uint32 version 2..4, the
# number of names, eight region offsets, the NUL-separated names, then five regions: classes
# (4 words each), saveobj property maps, objects (6 words each), property maps, dynamic
# properties), then an empty cell, one cell per saved property value, and at the end the
# classes' default values (one struct per class).
#
# The blob is untrusted: every offset, count and index is checked against what holds it
# before use, the walks are bounded, and anything out of place ends in McosError, one
# sentence; never a hang, never a traceback.


def _pdfagent_mcos():
    """The MCOS subsystem decoder: subsystem(blob) -> a reader of objects, ref(value) -> the
    object ids of a reference (or None), McosError. The stages below take `const` first."""
    from functools import partial
    from types import SimpleNamespace

    class McosError(Exception):
        """A subsystem that cannot be read; the message says why, in one sentence."""

    const = SimpleNamespace(
        McosError=McosError,
        MAGIC=0xDD000000,
        MAX_OBJECTS=1_000_000,
        MAX_NAMES=1_000_000,
        MAX_VALUE_DEPTH=32,
        DAMAGED="its MATLAB object data (the MAT-file's subsystem) is damaged or crafted",
        # ordinary .mat files: string, datetime, duration, categorical, table
        MAX_CONVERTED=200_000,
    )
    return SimpleNamespace(subsystem=partial(_pdfagent_mcos_subsystem, const),
                           ref=partial(_pdfagent_mcos_ref, const),
                           string_value=_pdfagent_mcos_string_value,
                           mat_objects=partial(_pdfagent_mcos_mat_objects, const),
                           McosError=McosError, MAX_VALUE_DEPTH=const.MAX_VALUE_DEPTH)


def _pdfagent_mcos_fail(const, why):
    raise const.McosError(f"{const.DAMAGED}: {why}")


def _pdfagent_mcos_ref(const, value):
    """(object ids, class id) of an MCOS reference, or None: a uint32 column 0xDD000000,
    ndims, dims..., ids..., class id (scipy gives it bare, or as a MatlabOpaque's arr)."""
    import numpy as np

    if isinstance(value, np.ndarray) and value.dtype.names and "arr" in value.dtype.names:
        if value.size != 1:
            return None
        value = value.reshape(-1)[0]["arr"]
    if not isinstance(value, np.ndarray) or value.dtype != np.uint32 or value.size < 3:
        return None
    if value.ndim > 2 or value.ndim == 2 and value.shape[1] != 1:
        return None
    words = value.reshape(-1)
    if words[0] != const.MAGIC:
        return None
    ndims = int(words[1])
    if ndims < 2 or 2 + ndims >= words.size:
        return None
    count = 1
    for d in words[2:2 + ndims]:
        count *= int(d)
    if count < 0 or 2 + ndims + count + 1 != words.size:
        return None
    return [int(i) for i in words[2 + ndims:2 + ndims + count]], int(words[-1])


def _pdfagent_mcos_read_stream(const, blob):
    """The blob's one element (a struct with an MCOS field) through scipy's MAT v5 reader:
    the blob is a MAT stream without the 116-byte text header."""
    import numpy as np
    import io

    from scipy.io.matlab import _mio5

    if len(blob) < 16 or blob[2:4] not in (b"IM", b"MI"):
        _pdfagent_mcos_fail(const, "it does not start like a MAT stream")
    head = b"MATLAB 5.0 MAT-file, subsystem".ljust(116, b" ") + b"\0" * 8 + blob[:4]
    try:
        reader = _mio5.MatFile5Reader(io.BytesIO(head + blob[8:]))
        reader.initialize_read()
        reader.mat_stream.seek(128)
        header, _ = reader.read_var_header()
        value = reader.read_var_array(header, process=True)
    except MemoryError:
        raise
    except Exception as exc:  # noqa: BLE001 - scipy's own words, in one sentence
        _pdfagent_mcos_fail(const, f"scipy cannot read it ({type(exc).__name__}: {str(exc)[:160]})")
    if not isinstance(value, np.ndarray) or not value.dtype.names \
            or "MCOS" not in value.dtype.names or value.size < 1:
        _pdfagent_mcos_fail(const, "it holds no MCOS objects")
    wrapper = value.reshape(-1)[0]["MCOS"]
    if not isinstance(wrapper, np.ndarray) or not wrapper.dtype.names \
            or "arr" not in wrapper.dtype.names or wrapper.size != 1:
        _pdfagent_mcos_fail(const, "its MCOS entry is not a FileWrapper__")
    cells = wrapper.reshape(-1)[0]["arr"]
    if not isinstance(cells, np.ndarray) or cells.dtype != object or cells.size < 4:
        _pdfagent_mcos_fail(const, "its FileWrapper__ holds no cell array")
    return cells.reshape(-1, order="F")


def _pdfagent_mcos_subsystem(const, blob):
    """The objects of a subsystem blob (bytes): classname(class_id), object(oid) ->
    (class name, {property: raw value}), count (the number of object ids)."""
    from types import SimpleNamespace

    import numpy as np

    cells = _pdfagent_mcos_read_stream(const, bytes(blob))
    meta = cells[0]
    if not isinstance(meta, np.ndarray) or meta.dtype != np.uint8 or meta.size < 40:
        _pdfagent_mcos_fail(const, "its metadata cell is not a byte array")
    meta = meta.reshape(-1, order="F").tobytes()
    size = len(meta)
    version, nnames = (int(v) for v in np.frombuffer(meta, "<u4", 2, 0))
    if not 2 <= version <= 4:
        _pdfagent_mcos_fail(const, f"its FileWrapper__ version is {version}, not 2, 3 or 4")
    if nnames > const.MAX_NAMES:
        _pdfagent_mcos_fail(const, f"it declares {nnames} names")
    offsets = [int(v) for v in np.frombuffer(meta, "<u4", 8, 8)]
    used = offsets[:6]
    if used[0] < 40 or any(b < a for a, b in zip(used, used[1:], strict=False)) \
            or used[-1] > size or any(o % 4 for o in used):
        _pdfagent_mcos_fail(const, "its region offsets are out of order or beyond the metadata")
    names = [n.decode("utf-8", "replace") for n in meta[40:used[0]].split(b"\0")]
    if len(names) < nnames:
        _pdfagent_mcos_fail(const, f"it declares {nnames} names but holds {len(names)}")
    names = names[:nnames]

    def region(k):
        return np.frombuffer(meta, "<u4", (used[k + 1] - used[k]) // 4, used[k]) \
            .astype(np.int64)

    classes, saveobj, objects, props = region(0), region(1), region(2), region(3)
    nclasses = len(classes) // 4
    nobjects = len(objects) // 6
    if nobjects > const.MAX_OBJECTS:
        _pdfagent_mcos_fail(const, f"it declares {nobjects} objects")
    tail = {2: 1, 3: 2}.get(version, 3)
    values = cells[2:len(cells) - tail]
    defaults = cells[-1]
    defaults = defaults.reshape(-1, order="F") if isinstance(defaults, np.ndarray) \
        and defaults.dtype == object else np.zeros(0, dtype=object)

    def blocks(words):
        """Start of each property map in a region: a count n, n (name, kind, value)
        triples, padded to 8 bytes. Each step moves forward, so this ends."""
        starts, at = [], 0
        while at < len(words):
            n = int(words[at])
            if n < 0 or at + 1 + 3 * n > len(words):
                _pdfagent_mcos_fail(const, "a property map runs past its region")
            starts.append(at)
            at += 1 + 3 * n
            at += at % 2
        return starts

    maps = {False: blocks(props), True: blocks(saveobj)}

    def name(index):
        if not 1 <= index <= len(names):
            _pdfagent_mcos_fail(const, f"a name index ({index}) is outside its {len(names)} names")
        return names[index - 1]

    def classname(cid):
        if not 0 < cid < nclasses:
            _pdfagent_mcos_fail(const, f"a class id ({cid}) is outside its {nclasses - 1} classes")
        space, cname = int(classes[4 * cid]), int(classes[4 * cid + 1])
        return (name(space) + "." if space else "") + name(cname)

    def class_of(oid):
        if not 0 < oid < nobjects:
            _pdfagent_mcos_fail(const, f"an object id ({oid}) is outside its {nobjects - 1} objects")
        return int(objects[6 * oid])

    def object_(oid):
        cid = class_of(oid)
        saved_id, normal_id = int(objects[6 * oid + 3]), int(objects[6 * oid + 4])
        is_saveobj = saved_id != 0
        index = saved_id if is_saveobj else normal_id
        starts, words = maps[is_saveobj], saveobj if is_saveobj else props
        if not 0 <= index < len(starts):
            _pdfagent_mcos_fail(const, f"object {oid}'s property map ({index}) does not exist")
        out = {}
        default = defaults[cid] if cid < defaults.size else None
        if isinstance(default, np.ndarray) and default.dtype.names and default.size == 1:
            for field in default.dtype.names:
                out[field] = default.reshape(-1)[0][field]
        at = starts[index]
        for k in range(int(words[at])):
            pname, kind, value = (int(w) for w in words[at + 1 + 3 * k:at + 4 + 3 * k])
            pname = name(pname)
            if kind == 0:
                out[pname] = name(value)
            elif kind == 1:
                if not 0 <= value < len(values):
                    _pdfagent_mcos_fail(const, f"a property value index ({value}) is outside its "
                                               f"{len(values)} values")
                out[pname] = values[value]
            elif kind == 2:
                out[pname] = value
            else:
                _pdfagent_mcos_fail(const, f"a property of object {oid} has an unknown kind ({kind})")
        return classname(cid), out

    return SimpleNamespace(classname=classname, class_of=class_of, object=object_,
                           count=nobjects)


def _pdfagent_mcos_string_value(props):
    """A MATLAB `string` object's text (its saveobj word array 'any': version 1, ndims,
    dims, one length per string, then the UTF-16 characters), or None."""
    import numpy as np

    data = props.get("any")
    if not isinstance(data, np.ndarray) or data.dtype != np.uint64 or data.size < 2:
        return None
    words = data.reshape(-1)
    if int(words[0]) != 1:
        return None
    ndims = int(words[1])
    if ndims > 32 or 2 + ndims > words.size:
        return None
    count = 1
    for d in words[2:2 + ndims]:
        count *= int(d)
    if count < 0 or 2 + ndims + count > words.size:
        return None
    dims = [int(d) for d in words[2:2 + ndims]]
    lengths = [int(n) for n in words[2 + ndims:2 + ndims + count]]
    chars = words[2 + ndims + count:].tobytes()
    out, at = [], 0
    for n in lengths:
        if n == 0xFFFFFFFFFFFFFFFF:  # <missing>
            out.append(None)
            continue
        if at + 2 * n > len(chars):
            return None
        out.append(chars[at:at + 2 * n].decode("utf-16-le", "replace"))
        at += 2 * n
    if len(out) == 1:
        return out[0]
    if sum(d != 1 for d in dims) <= 1:  # a row or a column: a list
        return out
    return np.array(out, dtype=object).reshape(dims, order="F")


def _pdfagent_mcos_mat_objects(const, path):
    """The MATLAB objects among a MAT v5 file's variables, as Python values:
    {name: value}. A file without objects gives {}; damaged objects raise McosError."""
    import numpy as np

    from scipy.io.matlab import _mio5

    found, blob = [], None
    with open(path, "rb") as f:
        reader = _mio5.MatFile5Reader(f)
        try:
            reader.initialize_read()
            f.seek(128)
            while not reader.end_of_stream():
                header, following = reader.read_var_header()
                value = reader.read_var_array(header, process=True)
                if header.name in (b"", None) and isinstance(value, np.ndarray) \
                        and value.dtype == np.uint8 and _pdfagent_mcos_ref(const, value) is None \
                        and not value.dtype.names:
                    blob = value.tobytes()
                elif _pdfagent_mcos_ref(const, value) is not None:
                    opaque = value.reshape(-1)[0]
                    name = opaque["s0"]
                    name = name.decode("latin1") if isinstance(name, bytes) else str(name)
                    found.append((name, value))
                f.seek(following)
        except MemoryError:
            raise
        except const.McosError:
            raise
        except Exception as exc:  # noqa: BLE001 - scipy's own words, in one sentence
            _pdfagent_mcos_fail(const, f"scipy cannot read its variables ({type(exc).__name__}: "
                                       f"{str(exc)[:160]})")
    if not found:
        return {}
    if blob is None:
        _pdfagent_mcos_fail(const, "its variables are MATLAB objects but the file has no subsystem data")
    store = _pdfagent_mcos_subsystem(const, blob)
    budget = [const.MAX_CONVERTED]
    return {name: _pdfagent_mcos_convert(const, store, value, 0, budget, ()) for name, value in found}


def _pdfagent_mcos_convert(const, store, value, depth, budget, path):
    """A property value as Python data: objects converted, cells as lists, structs as
    dicts, char as str, numbers as arrays (squeezed like load()'s)."""
    import numpy as np

    if depth > const.MAX_VALUE_DEPTH:
        _pdfagent_mcos_fail(const, f"its objects are nested deeper than {const.MAX_VALUE_DEPTH} levels")
    budget[0] -= 1
    if budget[0] < 0:
        _pdfagent_mcos_fail(const, f"it holds more than {const.MAX_CONVERTED} values in objects")
    r = _pdfagent_mcos_ref(const, value)
    if r is not None:
        ids, cid = r
        cls = store.classname(cid)
        objects = [_pdfagent_mcos_convert_object(const, store, oid, cls, depth + 1, budget, path) if oid
                   else None for oid in ids]
        return objects[0] if len(objects) == 1 else objects
    if not isinstance(value, np.ndarray):
        return value
    if value.dtype.kind == "U":
        rows = [str(v) for v in value.reshape(-1)]
        return rows[0] if len(rows) == 1 else rows
    if value.dtype.names:
        records = [{k: _pdfagent_mcos_convert(const, store, item[k], depth + 1, budget, path)
                    for k in value.dtype.names} for item in value.reshape(-1)]
        return records[0] if len(records) == 1 else records
    if value.dtype == object:
        return [_pdfagent_mcos_convert(const, store, item, depth + 1, budget, path)
                for item in value.reshape(-1, order="F")]
    return np.squeeze(value) if value.size != 1 else value.reshape(-1)[0]


def _pdfagent_mcos_convert_object(const, store, oid, cls, depth, budget, path):
    import numpy as np

    if oid in path:
        return f"<{cls} object {oid}, refers back to itself>"
    path = path + (oid,)
    _, props = store.object(oid)
    if cls == "string":
        return _pdfagent_mcos_string_value(props)
    if cls == "datetime":
        data = props.get("data")
        if isinstance(data, np.ndarray) and data.dtype.kind in "fc":
            millis = np.real(data).astype(float)
            out = np.full(millis.shape, np.datetime64("NaT"), dtype="datetime64[ms]")
            ok = np.isfinite(millis)
            out[ok] = millis[ok].astype(np.int64).astype("datetime64[ms]")
            return out.reshape(-1)[0] if out.size == 1 else np.squeeze(out)
    if cls == "duration":
        millis = props.get("millis")
        if isinstance(millis, np.ndarray) and millis.dtype.kind == "f":
            out = np.full(millis.shape, np.timedelta64("NaT"), dtype="timedelta64[ms]")
            ok = np.isfinite(millis)
            out[ok] = millis[ok].astype(np.int64).astype("timedelta64[ms]")
            return out.reshape(-1)[0] if out.size == 1 else np.squeeze(out)
    if cls == "categorical":
        import pandas as pd

        names = _pdfagent_mcos_convert(const, store, props.get("categoryNames"), depth, budget, path)
        codes = props.get("codes")
        if isinstance(codes, np.ndarray) and codes.dtype.kind in "iu":
            names = [names] if isinstance(names, str) else list(names or [])
            codes = codes.reshape(-1, order="F").astype(np.int64) - 1  # 0: undefined
            if codes.size and (codes.max() >= len(names) or codes.min() < -1):
                _pdfagent_mcos_fail(const, "a categorical's codes point past its categories")
            return pd.Categorical.from_codes(codes, categories=names,
                                             ordered=bool(props.get("isOrdinal", 0)))
    if cls == "table":
        return _pdfagent_mcos_table(const, store, props, depth, budget, path)
    return {"class": cls, **{k: _pdfagent_mcos_convert(const, store, v, depth + 1, budget, path)
                             for k, v in props.items()}}


def _pdfagent_mcos_table(const, store, props, depth, budget, path):
    import numpy as np

    import pandas as pd

    columns = props.get("data")
    names = _pdfagent_mcos_convert(const, store, props.get("varnames"), depth, budget, path)
    names = [names] if isinstance(names, str) else list(names or [])
    nrows = int(np.asarray(props.get("nrows", 0)).reshape(-1)[0]) \
        if np.asarray(props.get("nrows", 0)).size else 0
    if not isinstance(columns, np.ndarray) or columns.dtype != object \
            or columns.size != len(names):
        _pdfagent_mcos_fail(const, "a table's columns do not match its variable names")
    out = {}
    for name, column in zip(names, columns.reshape(-1, order="F"), strict=True):
        value = _pdfagent_mcos_convert(const, store, column, depth + 1, budget, path)
        if isinstance(value, np.ndarray) and value.ndim == 2 and value.shape[0] == nrows:
            for j in range(value.shape[1]):  # a matrix column: one column per part
                out[f"{name}_{j + 1}"] = value[:, j]
            continue
        if not isinstance(value, (list, np.ndarray, pd.Categorical)):
            value = [value]
        if len(value) != nrows:
            _pdfagent_mcos_fail(const, f"a table's column {name!r} has {len(value)} rows, not {nrows}")
        out[name] = value
    rows = _pdfagent_mcos_convert(const, store, props.get("rownames"), depth, budget, path)
    index = rows if isinstance(rows, list) and len(rows) == nrows else None
    return pd.DataFrame(out, index=index)
