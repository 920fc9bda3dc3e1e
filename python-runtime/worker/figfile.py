# MATLAB .fig files (issue #42): a .fig file is a MAT-file whose variable hgS_070000 holds
# the figure's handle-graphics tree (figure -> axes -> series, texts, legends). This file
# turns that tree into plain data (dicts, lists, numpy float arrays) for load('x.fig') and
# describes it for the inspection (describe_data, the window's preview). It is pasted after
# readers.py, whose table has the .fig row; it runs only inside the confined worker.
#
# Three generations: before R2014b (types `line`, `hggroup`, `specgraph.*`), R2014b to R2024
# (`graph2d.lineseries`, `specgraph.barseries`, ... plus MCOS objects in hgM_070000 that are
# not needed: hgS_070000 holds every value drawn), both as MAT v5 (scipy.io) or v7.3 (HDF5,
# h5py: the same tree); and R2025 and later, whose hgS_080000 is empty and whose figure lives
# only in MCOS objects (hgM_080000): decoded by mcos.py (pasted right after this file) and
# mapped onto the same node shape (mcos_root), so one walk reads every generation.
#
# A .fig file is untrusted input: the walk is bounded (depth, nodes, referenced objects in
# v7.3) and every value is checked for its kind before it is used, so a malformed file ends
# in one sentence (FigError, turned into the table's refusal), never a hang or a traceback.


def _pdfagent_fig_readers(ctx):
    """The .fig row of the reader table: load_fig (the figure as plain data) and inspect_fig
    (its description and preview), by name."""
    from types import SimpleNamespace

    Refused = ctx.Refused
    WHOLE_BYTES = ctx.WHOLE_BYTES
    fig = _pdfagent_fig_parts()

    def load_fig(path, ext):
        try:
            return fig.read(path)
        except fig.FigError as exc:
            raise Refused(str(exc)) from None
        except MemoryError:
            raise Refused(fig.TOO_BIG) from None

    def inspect_fig(path, rel, ext, size, say):
        if size > WHOLE_BYTES:
            say(f"MATLAB figure file; too large to describe here ({size} bytes); "
                f"load({rel!r}) returns it as data")
            return None
        try:
            figure = fig.read(path)
        except fig.FigError as exc:
            raise Refused(str(exc)) from None
        except MemoryError:
            raise Refused(fig.TOO_BIG) from None
        return _pdfagent_fig_describe(figure, rel, say, ctx)

    return SimpleNamespace(load_fig=load_fig, inspect_fig=inspect_fig)


def _pdfagent_fig_parts():
    """The reading of a .fig file into plain data: read(path) and its error, FigError. The
    stages below take `const` (_pdfagent_fig_constants) first."""
    from types import SimpleNamespace

    const = _pdfagent_fig_constants()

    def read(path):
        return _pdfagent_fig_read(const, path)

    return SimpleNamespace(read=read, FigError=const.FigError, TOO_BIG=const.TOO_BIG,
                           SERIES_KINDS=const.SERIES_KINDS)


def _pdfagent_fig_constants():
    """What every stage of the reading shares: its error, its limits, and MATLAB's names
    and defaults."""
    from types import SimpleNamespace

    class FigError(Exception):
        """A .fig file that cannot be read; the message says what it holds and what to do."""

    MAX_DEPTH = 64
    MAX_NODES = 200_000
    MAX_H5_OBJECTS = 400_000
    EXPORT = "export its data from MATLAB (save('data.mat', 'x', 'y') or writematrix) and load that"
    TOO_BIG = "the figure's data does not fit in the worker's memory; " + EXPORT
    HDF5_SIGNATURE = b"\x89HDF\r\n\x1a\n"
    NO_MCOS_FIGURE = ("its MATLAB figure objects (hgM) hold no figure; open it in MATLAB and "
                      + EXPORT)
    # R2025-and-later classes as the node types of the hgS tree, so one walk reads both.
    MCOS_TYPES = {
        "matlab.ui.Figure": "figure",
        "matlab.graphics.axis.Axes": "axes",
        "matlab.graphics.chart.primitive.Line": "graph2d.lineseries",
        "matlab.graphics.primitive.Line": "line",
        "matlab.graphics.chart.primitive.Scatter": "specgraph.scattergroup",
        "matlab.graphics.chart.primitive.Bar": "specgraph.barseries",
        "matlab.graphics.chart.primitive.ErrorBar": "specgraph.errorbarseries",
        "matlab.graphics.chart.primitive.Area": "specgraph.areaseries",
        "matlab.graphics.chart.primitive.Stem": "specgraph.stemseries",
        "matlab.graphics.chart.primitive.Stair": "specgraph.stairseries",
        "matlab.graphics.chart.primitive.Contour": "specgraph.contourgroup",
        "matlab.graphics.chart.primitive.Quiver": "specgraph.quivergroup",
        "matlab.graphics.chart.primitive.Histogram": "histogram",
        "matlab.graphics.chart.primitive.Surface": "graph3d.surfaceplot",
        "matlab.graphics.primitive.Surface": "surface",
        "matlab.graphics.primitive.Image": "image",
        "matlab.graphics.primitive.Patch": "patch",
        "matlab.graphics.primitive.Text": "text",
        "matlab.graphics.illustration.Legend": "scribe.legend",
        "matlab.graphics.illustration.ColorBar": "scribe.colorbar",
        "matlab.graphics.primitive.Group": "hggroup",
        "matlab.graphics.primitive.Transform": "hgtransform",
        "matlab.graphics.shape.internal.AnnotationPane": "annotationpane",
        "matlab.ui.control.UIControl": "uicontrol",
    }

    # MATLAB's default colour orders: R2014b and later, and before (when the file stores no
    # ColorOrder and a series no Color, the series take them in turn).
    ORDER_2014B = [[0.0, 0.447, 0.741], [0.85, 0.325, 0.098], [0.929, 0.694, 0.125],
                   [0.494, 0.184, 0.556], [0.466, 0.674, 0.188], [0.301, 0.745, 0.933],
                   [0.635, 0.078, 0.184]]
    ORDER_OLD = [[0.0, 0.0, 1.0], [0.0, 0.5, 0.0], [1.0, 0.0, 0.0], [0.0, 0.75, 0.75],
                 [0.75, 0.0, 0.75], [0.75, 0.75, 0.0], [0.25, 0.25, 0.25]]
    DEFAULT_AXES_POSITION = [0.13, 0.11, 0.775, 0.815]
    DEFAULT_FIGURE_SIZE = [560.0, 420.0]

    # Node type -> the list of its axes it joins. `line` is the pre-R2014b line.
    KINDS = {
        "line": "lines", "graph2d.lineseries": "lines",
        "specgraph.barseries": "bars", "histogram": "bars",
        "specgraph.errorbarseries": "errorbars",
        "specgraph.scattergroup": "scatters",
        "specgraph.areaseries": "areas",
        "specgraph.stemseries": "stems",
        "specgraph.stairseries": "stairs",
        "specgraph.contourgroup": "contours",
        "specgraph.quivergroup": "quivers",
        "surface": "surfaces", "graph3d.surfaceplot": "surfaces",
        "image": "images",
        "patch": "patches",
        "text": "texts",
    }
    SERIES_KINDS = ("lines", "errorbars", "bars", "scatters", "areas", "stems", "stairs",
                    "surfaces", "images", "contours", "patches", "quivers")
    CYCLED = ("lines", "errorbars", "stems", "stairs", "scatters", "bars", "areas")
    # Containers whose children are drawn in the same axes.
    GROUPS = ("hggroup", "hgtransform", "specgraph.scattergroup_children")
    # Numeric properties -> the series' key.
    ARRAYS = (("XData", "x"), ("YData", "y"), ("ZData", "z"), ("CData", "c"),
              ("UData", "u"), ("LData", "l"), ("VData", "v"), ("WData", "w"),
              ("YPositiveDelta", "u"), ("YNegativeDelta", "l"),
              ("XPositiveDelta", "xu"), ("XNegativeDelta", "xl"),
              ("SizeData", "s"), ("Vertices", "vertices"), ("Faces", "faces"),
              ("LevelList", "levels"), ("BinEdges", "binedges"), ("BinCounts", "bincounts"),
              ("Data", "data"), ("BaseValue", "basevalue"), ("BarWidth", "barwidth"))
    # The properties that must hold numbers when present (a text there is a damaged file).
    DATA = ("XData", "YData", "ZData", "CData", "UData", "LData", "Vertices", "Faces",
            "BinEdges", "BinCounts", "Data")
    # MATLAB's long marker names as the short ones MATLAB also takes (and matplotlib too).
    MARKERS = {"square": "s", "diamond": "d", "pentagram": "p", "hexagram": "h"}
    # Style properties: (property, key, default where the file stores none).
    STYLE = (("LineStyle", "linestyle", "-"), ("LineWidth", "linewidth", 0.5),
             ("Marker", "marker", "none"), ("MarkerSize", "markersize", 6.0))
    EXTRA_COLORS = (("MarkerFaceColor", "markerfacecolor"),
                    ("MarkerEdgeColor", "markeredgecolor"),
                    ("FaceColor", "facecolor"), ("EdgeColor", "edgecolor"))

    return SimpleNamespace(FigError=FigError, MAX_DEPTH=MAX_DEPTH, MAX_NODES=MAX_NODES,
                           MAX_H5_OBJECTS=MAX_H5_OBJECTS, EXPORT=EXPORT, TOO_BIG=TOO_BIG,
                           HDF5_SIGNATURE=HDF5_SIGNATURE, NO_MCOS_FIGURE=NO_MCOS_FIGURE,
                           MCOS_TYPES=MCOS_TYPES, ORDER_2014B=ORDER_2014B, ORDER_OLD=ORDER_OLD,
                           DEFAULT_AXES_POSITION=DEFAULT_AXES_POSITION,
                           DEFAULT_FIGURE_SIZE=DEFAULT_FIGURE_SIZE, KINDS=KINDS,
                           SERIES_KINDS=SERIES_KINDS, CYCLED=CYCLED, GROUPS=GROUPS, ARRAYS=ARRAYS,
                           DATA=DATA, MARKERS=MARKERS, STYLE=STYLE, EXTRA_COLORS=EXTRA_COLORS)


# --- reading the file into nodes: {"type", "props", "children", "special"} --------------
def _pdfagent_fig_read(const, path):
    with open(path, "rb") as f:
        head = f.read(520)
    if head[512:520] == const.HDF5_SIGNATURE or head[:8] == const.HDF5_SIGNATURE:
        variables, root = _pdfagent_fig_hdf5_root(const, path)
    elif head[:6] == b"MATLAB":
        variables, root = _pdfagent_fig_mat5_root(const, path)
    else:
        raise const.FigError("it is not a MATLAB figure: a .fig file is a MAT-file, and this "
                             "one has no MAT-file header; open it in MATLAB and " + const.EXPORT)
    if root is None:
        raise const.FigError(_pdfagent_fig_missing_tree(const, variables, head[:6] != b"MATLAB"))
    return _pdfagent_fig_figure_data(const, root, variables)


def _pdfagent_fig_missing_tree(const, variables, hdf5):
    names = sorted(variables)
    if any(n.startswith("hgM_08") or n.startswith("hgS_08") for n in names) and hdf5:
        return ("it is a MATLAB R2025-or-later figure saved with -v7.3 (HDF5): its "
                "handle-graphics tree (hgS_080000) is empty and its figure lives only in "
                "MATLAB objects (hgM_080000) that are read here from MAT v5 files only; "
                "save it with savefig without -v7.3, or open it in MATLAB and " + const.EXPORT)
    if any(n.startswith("hgM_08") or n.startswith("hgS_08") for n in names):
        return ("it is a MATLAB R2025-or-later figure whose handle-graphics tree "
                "(hgS_080000) is empty and whose MATLAB objects (hgM_080000) are not "
                "in the file (it has no subsystem data); the file is damaged or was "
                "not saved by MATLAB; open it in MATLAB and " + const.EXPORT)
    return (f"it holds no figure (no hgS_070000 variable; variables: "
            f"{', '.join(names[:8]) or 'none'}); if it is data, rename it to .mat; "
            "otherwise " + const.EXPORT)


def _pdfagent_fig_mat5_root(const, path):
    import numpy as np

    from scipy.io import loadmat as scipy_loadmat

    try:
        data = scipy_loadmat(path, squeeze_me=True, struct_as_record=False)
    except MemoryError:
        raise
    except Exception as exc:  # noqa: BLE001 - scipy's own words, in one sentence
        raise const.FigError(f"it is not a readable MAT-file ({type(exc).__name__}: "
                             f"{str(exc)[:200]}); open it in MATLAB and " + const.EXPORT) from None
    variables = [k for k in data if not k.startswith("__")]
    tree = data.get("hgS_070000")
    if tree is None or getattr(tree, "_fieldnames", None) is None:
        # R2025 and later: hgS_080000 is empty, the figure is only in hgM_080000's MCOS
        # objects (a file without hgS_070000 but with hgM_070000 is read the same way).
        blob = data.get("__function_workspace__")
        for name in ("hgM_080000", "hgM_070000"):
            if name in data and isinstance(blob, np.ndarray) and blob.dtype == np.uint8:
                return variables, _pdfagent_fig_mcos_root(const, data[name], blob)
        return variables, None
    counter = [0]
    return variables, _pdfagent_fig_mat5_node(const, tree, 0, counter)


# --- R2025 and later: the figure as MCOS objects (mcos.py decodes the subsystem) -------
def _pdfagent_fig_mcos_root(const, hgm, blob):
    mcos = _pdfagent_mcos()
    try:
        store = mcos.subsystem(blob.tobytes())
        wrapper = mcos.ref(getattr(hgm, "GraphicsObjects", None))
        if wrapper is None or len(wrapper[0]) != 1:
            raise const.FigError(const.NO_MCOS_FIGURE)
        _, props = store.object(wrapper[0][0])
        figure = mcos.ref(props.get("Format3Data"))
        if figure is None or len(figure[0]) != 1 or not figure[0][0]:
            raise const.FigError(const.NO_MCOS_FIGURE)
        return _pdfagent_fig_mcos_node(const, mcos, store, figure[0][0], 0, [0], set())
    except mcos.McosError as exc:
        raise const.FigError(f"{exc}; open it in MATLAB and " + const.EXPORT) from None


def _pdfagent_fig_count_node(const, depth, counter):
    """One more node of a figure's tree (hgS struct, v7.3 group or MATLAB object),
    refused past the depth and object limits every reader of a figure shares."""
    if depth > const.MAX_DEPTH:
        raise const.FigError("its figure tree is nested deeper than any MATLAB figure "
                             f"({const.MAX_DEPTH} levels); the file is damaged or not a figure")
    counter[0] += 1
    if counter[0] > const.MAX_NODES:
        raise const.FigError(f"its figure tree has more than {const.MAX_NODES} objects; " + const.EXPORT)


def _pdfagent_fig_mcos_node(const, mcos, store, oid, depth, counter, seen):
    import numpy as np

    _pdfagent_fig_count_node(const, depth, counter)
    if oid in seen:
        raise const.FigError("its figure objects refer back to themselves (a cycle); the file "
                             "is damaged or crafted; open it in MATLAB and " + const.EXPORT)
    seen.add(oid)
    cls, raw = store.object(oid)
    kind = const.MCOS_TYPES.get(cls, cls)
    props, refs, children = {}, {}, []
    for pname, value in raw.items():
        short = pname.rsplit(".", 1)[-1]
        base = short[:-3] if short.endswith("_IS") else \
            short[:-2] if short.endswith("_I") else short
        r = mcos.ref(value)
        if short in ("SerializableChildren", "Children"):
            children = [i for i in (r[0] if r else []) if i]
            continue
        if r is not None:
            ids = [i for i in r[0] if i]
            if ids and store.classname(r[1]) == "string":
                value = mcos.string_value(store.object(ids[0])[1])
            else:
                refs[base] = ids
                continue
        if base not in props or short == base:
            props[base] = value
    # hgS lists children top-most first; the objects keep them in drawing order.
    kids = [_pdfagent_fig_mcos_node(const, mcos, store, i, depth + 1, counter, seen) for i in children[::-1]]
    special = None
    if kind == "axes":
        special = []
        for label in ("Title", "XLabel", "YLabel", "ZLabel"):
            ids = refs.get(label) or []
            if ids and ids[0] not in seen:
                kids.append(_pdfagent_fig_mcos_node(const, mcos, store, ids[0], depth + 1, counter, seen))
                special.append(float(len(kids)))
            else:
                special.append(0.0)
        special = np.array(special)
        # Limits, scales and directions live on the axes' data space (limits also as
        # LimWithInfs) or on its rulers.
        helpers = [store.object(ids[0])[1] for ids in
                   (refs.get(k) for k in ("DataSpace", "XRuler", "YRuler", "ZRuler"))
                   if ids and ids[0] not in seen]
        for axis in "XYZ":
            for extra in helpers:
                for key in ("Lim", "LimWithInfs", "Scale", "Dir"):
                    value = extra.get(f"{axis}{key}_I", extra.get(f"{axis}{key}"))
                    if value is not None and mcos.ref(value) is None:
                        props.setdefault(axis + key.replace("WithInfs", ""), value)
            ruler = refs.get(f"{axis}Ruler") or []
            if ruler and ruler[0] not in seen:
                limits = store.object(ruler[0])[1].get("Limits_I")
                if limits is not None and mcos.ref(limits) is None:
                    props.setdefault(axis + "Lim", limits)
            # Manual limits equal to MATLAB's default are not stored: [0 1].
            if axis + "Lim" not in props and any(
                    _pdfagent_fig_text(extra.get(axis + mode)) == "manual" for extra in helpers[:1]
                    for mode in ("LimMode", "LimWithInfsMode")):
                props[axis + "Lim"] = np.array([0.0, 1.0])
    elif kind == "figure":
        # The size in pixels: the position object's cache, when its units are pixels.
        where = refs.get("StoragePosition") or []
        if where and where[0] not in seen:
            unit = store.object(where[0])[1]
            if _pdfagent_fig_text(unit.get("Units_I")) == "pixels":
                props.setdefault("Position", unit.get("PositionCache"))
    elif kind == "scribe.legend":
        props.setdefault("String", props.get("SerializableString"))
    elif kind == "scribe.colorbar":
        label = refs.get("Label") or []
        if label and label[0] not in seen:
            props["Label"] = _pdfagent_fig_mcos_node(const, mcos, store, label[0], depth + 1, counter,
                                                            seen)["props"].get("String")
    return {"type": kind, "props": props, "children": kids, "special": special}


def _pdfagent_fig_mat5_node(const, obj, depth, counter):
    import numpy as np

    _pdfagent_fig_count_node(const, depth, counter)
    fields = getattr(obj, "_fieldnames", None)
    if fields is None:
        raise const.FigError("a node of its figure tree is not a struct; the file is damaged "
                             "or not a figure")
    props = getattr(obj, "properties", None)
    pfields = getattr(props, "_fieldnames", None) or []
    children = getattr(obj, "children", None)
    if isinstance(children, np.ndarray):
        children = list(children.flat) if children.dtype == object else []
    elif children is None or getattr(children, "_fieldnames", None) is None:
        children = []
    else:
        children = [children]
    return {
        "type": _pdfagent_fig_text(getattr(obj, "type", "")) or "?",
        "props": {k: getattr(props, k) for k in pfields},
        "children": [_pdfagent_fig_mat5_node(const, c, depth + 1, counter) for c in children],
        "special": _pdfagent_fig_numbers(getattr(obj, "special", None)),
    }


def _pdfagent_fig_hdf5_root(const, path):
    import h5py

    budget = [const.MAX_H5_OBJECTS]
    try:
        f = h5py.File(path, "r", locking=False)
    except Exception as exc:  # noqa: BLE001
        raise const.FigError(f"it is not a readable MATLAB v7.3 (HDF5) file "
                             f"({type(exc).__name__}); open it in MATLAB and " + const.EXPORT) from None
    with f:
        variables = [k for k in f if not k.startswith("#")]
        if "hgS_070000" not in f:
            return variables, None
        try:
            tree = _pdfagent_fig_h5_value(const, f, f["hgS_070000"], 0, budget, ())
            root = _pdfagent_fig_h5_node(const, tree, 0, [0])
        except const.FigError:
            raise
        except MemoryError:
            raise
        except Exception as exc:  # noqa: BLE001 - a broken reference, a bad dataset
            raise const.FigError(f"its HDF5 figure tree is damaged ({type(exc).__name__}: "
                                 f"{str(exc)[:200]}); open it in MATLAB and " + const.EXPORT) from None
        return variables, root


def _pdfagent_fig_h5_value(const, f, obj, depth, budget, seen):
    """An HDF5 object of a v7.3 MAT-file as plain values: a struct -> dict, a struct
    array or cell -> list, char -> str, numbers -> array. Bounded: depth, objects, and
    a reference back to an object being read (a cycle) is an error."""
    import numpy as np

    import h5py

    if depth > const.MAX_DEPTH:
        raise const.FigError("its figure tree is nested deeper than any MATLAB figure "
                             f"({const.MAX_DEPTH} levels) or refers back to itself; the file is "
                             "damaged or not a figure")
    budget[0] -= 1
    if budget[0] < 0:
        raise const.FigError(f"its HDF5 tree has more than {const.MAX_H5_OBJECTS} objects; " + const.EXPORT)
    key = obj.id  # equal for the same object, however it was reached
    if key in seen:
        raise const.FigError("its HDF5 figure tree refers back to itself (a cycle); the file "
                             "is damaged or crafted; open it in MATLAB and " + const.EXPORT)
    seen = seen + (key,)
    cls = obj.attrs.get("MATLAB_class", b"")
    cls = cls.decode("latin1") if isinstance(cls, bytes) else str(cls)
    if isinstance(obj, h5py.Group):
        fields = [k for k in obj if not k.startswith("#")]
        values = {k: _pdfagent_fig_h5_value(const, f, obj[k], depth + 1, budget, seen) for k in fields}
        # A struct array: each field a list (a dataset of references) of equal length.
        # (A cell array is a dataset of references too, but marked MATLAB_class cell.)
        if fields and cls == "struct" and all(
            isinstance(obj[k], h5py.Dataset) and h5py.check_ref_dtype(obj[k].dtype)
            is not None and obj[k].attrs.get("MATLAB_class", b"") in (b"", "")
            for k in fields
        ):
            lengths = {len(v) for v in values.values() if isinstance(v, list)}
            if len(lengths) == 1 and all(isinstance(v, list) for v in values.values()):
                n = lengths.pop()
                return [{k: values[k][i] for k in fields} for i in range(n)]
        return values
    if not isinstance(obj, h5py.Dataset):
        raise const.FigError("its HDF5 tree holds an object that is neither a group nor a "
                             "dataset; the file is damaged")
    if obj.attrs.get("MATLAB_empty", 0):
        return "" if cls == "char" else np.zeros(0)
    if obj.size > 50_000_000:
        raise const.FigError(const.TOO_BIG)
    if h5py.check_ref_dtype(obj.dtype) is not None:
        refs = np.asarray(obj[()], dtype=object).T.flat
        out = []
        for ref in refs:
            if not ref:
                out.append(None)
                continue
            try:
                target = f[ref]
            except Exception:  # noqa: BLE001
                raise const.FigError("its HDF5 figure tree holds a reference to nothing (a "
                                     "dangling reference); the file is damaged; open it in "
                                     "MATLAB and " + const.EXPORT) from None
            out.append(_pdfagent_fig_h5_value(const, f, target, depth + 1, budget, seen))
        return out
    raw = obj[()]
    arr = np.asarray(raw)
    if arr.dtype.names:
        if "real" in arr.dtype.names:
            arr = arr["real"]
        else:
            raise const.FigError("its HDF5 tree holds a compound value where numbers belong; "
                                 "the file is damaged")
    arr = arr.T
    if cls == "char":
        arr = np.atleast_2d(arr).astype(np.uint32)
        rows = ["".join(chr(c) for c in row if c < 0x110000) for row in arr]
        return rows[0] if len(rows) == 1 else rows
    arr = np.squeeze(arr)
    return arr


def _pdfagent_fig_h5_node(const, tree, depth, counter):
    _pdfagent_fig_count_node(const, depth, counter)
    if isinstance(tree, list) and len(tree) == 1:
        tree = tree[0]
    if not isinstance(tree, dict):
        raise const.FigError("a node of its figure tree is not a struct; the file is damaged "
                             "or not a figure")
    props = tree.get("properties")
    children = tree.get("children")
    if isinstance(children, dict):
        children = [children]
    elif not isinstance(children, list):
        children = []
    return {
        "type": _pdfagent_fig_text(tree.get("type", "")) or "?",
        "props": props if isinstance(props, dict) else {},
        "children": [_pdfagent_fig_h5_node(const, c, depth + 1, counter) for c in children],
        "special": _pdfagent_fig_numbers(tree.get("special")),
    }


# --- values ----------------------------------------------------------------------------
def _pdfagent_fig_text(value):
    """A MATLAB string value as str: char -> str, a cell or char matrix -> lines joined."""
    import numpy as np

    if value is None:
        return None
    if isinstance(value, str):
        return value
    if isinstance(value, bytes):
        return value.decode("latin1")
    if isinstance(value, (list, tuple)):
        parts = [_pdfagent_fig_text(v) for v in value]
        return "\n".join(p for p in parts if p is not None)
    if isinstance(value, np.ndarray):
        if value.dtype.kind == "U":
            return "\n".join(str(v).rstrip() for v in value.flat)
        if value.dtype == object:
            return _pdfagent_fig_text(list(value.flat))
        if value.size == 0:
            return ""
    return None


def _pdfagent_fig_numbers(value):
    """A numeric MATLAB value as a float array, or None (absent, or not numbers: a
    string where numbers belong is not taken as data)."""
    import numpy as np

    if value is None or isinstance(value, (str, bytes, dict, list)):
        return None
    try:
        arr = np.asarray(value)
    except Exception:  # noqa: BLE001
        return None
    if arr.dtype.kind not in "biuf":
        return None
    return arr.astype(float)


def _pdfagent_fig_empty(value):
    import numpy as np

    return isinstance(value, (str, bytes, list)) and len(value) == 0 or (
        isinstance(value, np.ndarray) and value.size == 0)


def _pdfagent_fig_scalar(value, default=None):
    arr = _pdfagent_fig_numbers(value)
    if arr is None or arr.size != 1:
        return default
    return float(arr.reshape(-1)[0])


def _pdfagent_fig_vector(value, n=None):
    arr = _pdfagent_fig_numbers(value)
    if arr is None or (n is not None and arr.size != n):
        return None
    return [float(v) for v in arr.reshape(-1)]


def _pdfagent_fig_color(value):
    """An RGB colour ([r, g, b], 0..1), MATLAB's named colours as they are ('none',
    'flat', 'auto'), or None."""
    name = _pdfagent_fig_text(value)
    if name:
        return name
    rgb = _pdfagent_fig_vector(value, 3)
    return rgb


def _pdfagent_fig_prop(node, name, default=None):
    return node["props"].get(name, default)


# --- the figure as data ----------------------------------------------------------------
def _pdfagent_fig_figure_data(const, root, variables):
    new_style = any(v.startswith(("hgM_07", "hgM_08")) for v in variables)
    generation = "R2025 or later" if "hgM_080000" in variables else \
        "R2014b or later" if new_style else "before R2014b"
    out = {"name": "", "size": list(const.DEFAULT_FIGURE_SIZE), "axes": [], "annotations": [],
           "unknown": [], "generation": generation}
    if root["type"] != "figure":
        out["unknown"].append({"type": root["type"], "path": "root"})
        return out
    out["name"] = _pdfagent_fig_text(_pdfagent_fig_prop(root, "Name")) or ""
    position = _pdfagent_fig_vector(_pdfagent_fig_prop(root, "Position"), 4)
    if position:
        out["size"] = position[2:]
    cmap = _pdfagent_fig_numbers(_pdfagent_fig_prop(root, "Colormap"))
    out["colormap"] = cmap if cmap is not None and cmap.ndim == 2 else None
    legends, colorbars = [], []
    for i, child in enumerate(root["children"]):
        path = f"figure/children[{i}]"
        kind = child["type"]
        if kind == "axes":
            out["axes"].append(_pdfagent_fig_axes_data(const, child, path, new_style, out["unknown"]))
            out["axes"][-1]["_index"] = i
        elif kind == "scribe.legend":
            legends.append((i, child))
        elif kind == "scribe.colorbar":
            colorbars.append((i, child))
        elif kind.startswith("scribe.") or kind == "annotationpane":
            _pdfagent_fig_annotations(child, path, out["annotations"], 0)
        elif kind.startswith("ui"):
            out["unknown"].append({"type": kind, "path": path,
                                   "note": "user-interface control: not drawn data"})
        else:
            out["unknown"].append({"type": kind, "path": path})
    for i, node in legends:
        _pdfagent_fig_attach_legend(const, out["axes"], i, node)
    for i, node in colorbars:
        target = _pdfagent_fig_preceding_axes(out["axes"], i)
        if target is not None:
            target["colorbar"] = _pdfagent_fig_colorbar_data(node)
    for ax in out["axes"]:
        del ax["_index"]
        _pdfagent_fig_labels_from_legend(ax)
    _pdfagent_fig_mark_right_axes(out["axes"])
    return out


def _pdfagent_fig_annotations(node, path, out, depth):
    if depth > 4:
        return
    kind = node["type"]
    if kind in ("scribe.scribeoverlay", "scribe.scribeaxes", "annotationpane"):
        for j, child in enumerate(node["children"]):
            _pdfagent_fig_annotations(child, f"{path}/children[{j}]", out, depth + 1)
        return
    item = {"type": kind.split(".")[-1], "string": _pdfagent_fig_text(_pdfagent_fig_prop(node, "String")),
            "position": _pdfagent_fig_vector(_pdfagent_fig_prop(node, "Position")),
            "x": _pdfagent_fig_vector(_pdfagent_fig_prop(node, "X")),
            "y": _pdfagent_fig_vector(_pdfagent_fig_prop(node, "Y")),
            "color": _pdfagent_fig_color(_pdfagent_fig_prop(node, "Color"))}
    out.append(item)


def _pdfagent_fig_preceding_axes(axes, index):
    before = [ax for ax in axes if ax["_index"] < index]
    return before[-1] if before else (axes[0] if axes else None)


def _pdfagent_fig_attach_legend(const, axes, index, node):
    strings = _pdfagent_fig_as_list(_pdfagent_fig_prop(node, "String"))
    entries = [s for s in (_pdfagent_fig_text(v) for v in strings) if s is not None]
    legend = {"entries": entries,
              "location": _pdfagent_fig_text(_pdfagent_fig_prop(node, "Location")) or "northeast"}
    if not axes:
        return
    # The legend's axes: the one whose series carry its entries' names, else the axes
    # just before it in the file (MATLAB saves a legend after its axes).
    def overlap(ax):
        names = {s.get("label") for kind in const.SERIES_KINDS for s in ax[kind]}
        return len(names & set(entries))

    best = max(axes, key=overlap)
    target = best if overlap(best) > 0 else _pdfagent_fig_preceding_axes(axes, index)
    if target is not None and not target["legend"]:
        target["legend"] = legend


def _pdfagent_fig_as_list(value):
    import numpy as np

    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    if isinstance(value, (list, tuple)):
        return list(value)
    if isinstance(value, np.ndarray):
        return list(value.flat) if value.dtype.kind in "UO" else []
    return []


def _pdfagent_fig_labels_from_legend(ax):
    """Series without a DisplayName take the legend's entries in order."""
    entries = (ax["legend"] or {}).get("entries") or []
    if not entries:
        return
    drawn = [s for kind in ("lines", "errorbars", "bars", "scatters", "areas", "stems",
                            "stairs") for s in ax[kind]]
    drawn.sort(key=lambda s: s["order"])
    if all(not s.get("label") for s in drawn):
        for series, entry in zip(drawn, entries, strict=False):
            series["label"] = entry


def _pdfagent_fig_colorbar_data(node):
    return {"location": _pdfagent_fig_text(_pdfagent_fig_prop(node, "Location")) or "eastoutside",
            "label": _pdfagent_fig_text(_pdfagent_fig_prop(node, "Label")) or None,
            "limits": _pdfagent_fig_vector(_pdfagent_fig_prop(node, "Limits"), 2)
            or _pdfagent_fig_vector(_pdfagent_fig_prop(node, "YLim"), 2)}


def _pdfagent_fig_mark_right_axes(axes):
    for ax in axes:
        if ax["yaxis"] == "right":
            ax["twin_of"] = next(
                (j for j, other in enumerate(axes)
                 if other is not ax and other["yaxis"] == "left"
                 and other["position"] == ax["position"]), None)


def _pdfagent_fig_axes_data(const, node, path, new_style, unknown):
    import numpy as np

    order = _pdfagent_fig_numbers(_pdfagent_fig_prop(node, "ColorOrder"))
    if order is None or order.ndim != 2 or order.shape[1] != 3 or len(order) == 0:
        order = np.array(const.ORDER_2014B if new_style else const.ORDER_OLD)
    ax = {"title": "", "xlabel": "", "ylabel": "", "zlabel": ""}
    special = node["special"]
    special_children = set()
    if special is not None:
        for key, position in zip(("title", "xlabel", "ylabel", "zlabel"),
                                 special.reshape(-1)[:4], strict=False):
            k = int(position) - 1
            if 0 <= k < len(node["children"]):
                special_children.add(k)
                ax[key] = _pdfagent_fig_text(_pdfagent_fig_prop(node["children"][k], "String")) or ""
    for axis in "xyz":
        ax[axis + "lim"] = _pdfagent_fig_vector(_pdfagent_fig_prop(node, axis.upper() + "Lim"), 2)
        ax[axis + "scale"] = _pdfagent_fig_text(_pdfagent_fig_prop(node, axis.upper() + "Scale")) or "linear"
        ax[axis + "dir"] = _pdfagent_fig_text(_pdfagent_fig_prop(node, axis.upper() + "Dir")) or "normal"
        grid = _pdfagent_fig_text(_pdfagent_fig_prop(node, axis.upper() + "Grid"))
        ax[axis + "grid"] = (grid or "off") == "on"
        mode = _pdfagent_fig_text(_pdfagent_fig_prop(node, axis.upper() + "TickLabelMode"))
        labels = _pdfagent_fig_prop(node, axis.upper() + "TickLabel")
        ticks = _pdfagent_fig_vector(_pdfagent_fig_prop(node, axis.upper() + "Tick"))
        ax[axis + "ticks"] = ticks
        ax[axis + "ticklabels"] = (
            [_pdfagent_fig_text(v) or "" for v in _pdfagent_fig_as_list(labels)]
            if mode == "manual" else None)
    ax["clim"] = _pdfagent_fig_vector(_pdfagent_fig_prop(node, "CLim"), 2)
    ax["view"] = _pdfagent_fig_vector(_pdfagent_fig_prop(node, "View"), 2)
    ax["position"] = (_pdfagent_fig_vector(_pdfagent_fig_prop(node, "Position"), 4)
                      or list(const.DEFAULT_AXES_POSITION))
    side = _pdfagent_fig_text(_pdfagent_fig_prop(node, "YAxisLocation"))
    ax["yaxis"] = "right" if side == "right" else "left"
    ax["box"] = _pdfagent_fig_text(_pdfagent_fig_prop(node, "Box")) == "on"
    ax["legend"] = None
    ax["colorbar"] = None
    ax["notes"] = []
    for kind in const.SERIES_KINDS + ("texts",):
        ax[kind] = []
    state = {"order": 0, "color": 0, "colors": order}
    for j, child in enumerate(node["children"]):
        if j in special_children:
            continue
        _pdfagent_fig_series_of(const, child, f"{path}/children[{j}]", ax, state, unknown, 0)
    _pdfagent_fig_date_note(ax)
    return ax


def _pdfagent_fig_series_of(const, node, path, ax, state, unknown, depth):
    import numpy as np

    kind = node["type"]
    if kind in const.GROUPS and depth < 8:
        for j, child in enumerate(node["children"]):
            _pdfagent_fig_series_of(const, child, f"{path}/children[{j}]", ax, state, unknown, depth + 1)
        return
    target = const.KINDS.get(kind)
    if target is None and ("BinCounts" in node["props"] or "BinEdges" in node["props"]):
        target = "bars"
    if target is None:
        unknown.append({"type": kind, "path": path})
        return
    if target == "texts":
        string = _pdfagent_fig_text(_pdfagent_fig_prop(node, "String"))
        if string and string.strip():
            ax["texts"].append({
                "string": string,
                "position": _pdfagent_fig_vector(_pdfagent_fig_prop(node, "Position")),
                "color": _pdfagent_fig_color(_pdfagent_fig_prop(node, "Color")) or [0.0, 0.0, 0.0],
                "fontsize": _pdfagent_fig_scalar(_pdfagent_fig_prop(node, "FontSize"), 10.0),
                "order": state["order"],
            })
            state["order"] += 1
        return
    series = {"kind": kind.split(".")[-1],
              "label": _pdfagent_fig_text(_pdfagent_fig_prop(node, "DisplayName")) or ""}
    for name, key in const.ARRAYS:
        value = _pdfagent_fig_prop(node, name)
        arr = _pdfagent_fig_numbers(value)
        if arr is None and value is not None and name in const.DATA and not _pdfagent_fig_empty(value):
            raise const.FigError(f"its {kind} at {path} holds {type(value).__name__} in "
                                 f"{name}, where MATLAB keeps numbers; the file is damaged "
                                 "or crafted; open it in MATLAB and " + const.EXPORT)
        if arr is not None and key not in series:
            series[key] = arr
    if kind == "histogram" or "bincounts" in series:
        series["kind"] = "histogram"
        edges = series.get("binedges", np.zeros(0)).reshape(-1)
        if "bincounts" not in series and "data" in series and edges.size > 1 \
                and np.all(np.diff(edges) > 0):
            # Older files keep the data and the edges only: MATLAB's counts (the last
            # bin holds its right edge, as numpy's does).
            series["bincounts"] = np.histogram(series["data"].reshape(-1), edges)[0] \
                .astype(float)
        if edges.size > 1 and "bincounts" in series:
            series["x"] = (edges[:-1] + edges[1:]) / 2
            series["y"] = series["bincounts"].reshape(-1)
            series["width"] = np.diff(edges)
    if target in ("lines", "errorbars", "bars", "scatters", "areas", "stems", "stairs"):
        series.setdefault("y", np.zeros(0))
        if "x" not in series or series["x"].size == 0 and series["y"].size:
            series["x"] = np.arange(1.0, series["y"].reshape(-1).size + 1.0)
        # A vector as 1-D (a one-point series is stored as a scalar), a matrix kept.
        for key in ("x", "y", "z", "u", "l", "xu", "xl"):
            if key in series and (series[key].ndim == 0 or series[key].ndim > 1
                                  and 1 in series[key].shape):
                series[key] = series[key].reshape(-1)
    # A series without a stored colour takes the next of the axes' colour order, as
    # MATLAB draws it (bars, areas and histograms their face colour).
    if target == "patches" and "x" not in series:
        vertices = series.get("vertices")
        if vertices is not None and vertices.ndim == 2 and vertices.shape[1] >= 2:
            series["x"], series["y"] = vertices[:, 0], vertices[:, 1]
        else:
            series["x"] = series["y"] = np.zeros(0)
    if target in ("surfaces", "contours", "images"):
        grid = series.get("z", series.get("c"))
        if target != "images" and grid is not None and grid.ndim == 2:
            series.setdefault("z", grid)
            series.setdefault("x", np.arange(1.0, grid.shape[1] + 1.0))
            series.setdefault("y", np.arange(1.0, grid.shape[0] + 1.0))
        series.setdefault("z", np.zeros(0))
        series.setdefault("c", series["z"])
        series.setdefault("x", np.zeros(0))
        series.setdefault("y", np.zeros(0))
    stored = _pdfagent_fig_color(_pdfagent_fig_prop(node, "Color"))
    if stored is None and target in ("bars", "areas"):
        stored = _pdfagent_fig_color(_pdfagent_fig_prop(node, "FaceColor"))
        stored = None if stored in ("flat", "auto") else stored
    if target in const.CYCLED:
        if stored is None:
            colors = state["colors"]
            stored = [float(v) for v in colors[state["color"] % len(colors)]]
        state["color"] += 1
    series["color"] = stored
    for name, key, default in const.STYLE:
        value = _pdfagent_fig_prop(node, name)
        series[key] = (_pdfagent_fig_text(value) if isinstance(default, str)
                       else _pdfagent_fig_scalar(value)) if value is not None else None
        if series[key] is None:
            series[key] = default
    series["marker"] = const.MARKERS.get(series["marker"], series["marker"])
    for name, key in const.EXTRA_COLORS:
        value = _pdfagent_fig_color(_pdfagent_fig_prop(node, name))
        if value is not None:
            series[key] = value
    if target == "bars":
        series["horizontal"] = _pdfagent_fig_text(_pdfagent_fig_prop(node, "Horizontal")) == "on"
    if target == "scatters" and "s" not in series:
        series["s"] = np.array([36.0])
    if target == "bars" and "width" not in series:
        series["width"] = np.array([_pdfagent_fig_scalar(_pdfagent_fig_prop(node, "BarWidth"), 0.8)])
    series["order"] = state["order"]
    state["order"] += 1
    ax[target].append(series)


def _pdfagent_fig_date_note(ax):
    import numpy as np

    xs = [s["x"] for kind in ("lines", "scatters", "bars", "stairs", "stems", "areas",
                              "errorbars") for s in ax[kind] if s["x"].size]
    if not xs:
        return
    lo = min(float(np.nanmin(x)) if np.isfinite(x).any() else np.inf for x in xs)
    hi = max(float(np.nanmax(x)) if np.isfinite(x).any() else -np.inf for x in xs)
    if 693_962 <= lo <= hi <= 767_011:  # 1900-01-01 .. 2100-01-01 as MATLAB datenums
        ax["notes"].append(
            "x values look like MATLAB datenums (days from year 0); as dates: "
            "np.datetime64('0000-12-31') + (x - 1) * np.timedelta64(1, 'D') is wrong "
            "by leap rules; use datetime.datetime.fromordinal(int(x) - 366) "
            "+ datetime.timedelta(days=x % 1)")


def _pdfagent_fig_redraw(rel):
    """The few lines that redraw a figure from load(): one matplotlib artist per series of
    the file. describe_data shows them and docs/formats.md gives them."""
    return "\n".join([
        f"fig = load({rel!r})",
        "f = plt.figure(figsize=(fig['size'][0] / 100, fig['size'][1] / 100))",
        "for a in fig['axes']:",
        "    ax = f.add_axes(a['position'])",
        "    for s in a['lines'] + a['stairs'] + a['stems']:",
        "        ax.plot(s['x'], s['y'], color=s['color'], lw=s['linewidth'], label=s['label'],",
        "                ls=s['linestyle'].replace('none', ''), marker=s['marker'].replace('none', ''))",
        "    for s in a['errorbars']:",
        "        ax.errorbar(s['x'], s['y'], yerr=[s.get('l', 0 * s['y']), s.get('u', 0 * s['y'])],",
        "                    color=s['color'], label=s['label'])",
        "    for s in a['scatters']:",
        "        ax.scatter(s['x'], s['y'], color=s['color'], label=s['label'])",
        "    for s in a['bars'] + a['areas']:",
        "        ax.bar(s['x'], s['y'], width=s.get('width', 0.8), color=s['color'], label=s['label'])",
        "    for s in a['images']:",
        "        ax.imshow(s['c'] / (255 if s['c'].max() > 1 else 1) if s['c'].ndim == 3 else s['c'])",
        "    for s in a['surfaces'] + a['contours']:",
        "        ax.contour(s['x'], s['y'], s['z']) if s['z'].ndim == 2 else None",
        "    for s in a['patches']:",
        "        ax.fill(s['x'], s['y'], alpha=0.5)",
        "    ax.set(title=a['title'], xlabel=a['xlabel'], ylabel=a['ylabel'],",
        "           xscale=a['xscale'], yscale=a['yscale'])",
        "    if a['xlim']: ax.set_xlim(a['xlim'])",
        "    if a['ylim']: ax.set_ylim(a['ylim'])",
        "    if a['xdir'] == 'reverse': ax.invert_xaxis()",
        "    if a['ydir'] == 'reverse': ax.invert_yaxis()",
        "    if a['legend']: ax.legend()",
        "plt.savefig(OUT)",
    ])


def _pdfagent_fig_describe(figure, rel, say, ctx):
    """The description of a loaded figure and its preview (the `variables` kind: one row
    per series, so the window shows it without a new kind of preview)."""
    import numpy as np

    cell = ctx.cell
    kinds = ("lines", "errorbars", "bars", "scatters", "areas", "stems", "stairs",
             "surfaces", "images", "contours", "patches", "quivers")
    axes = figure["axes"]
    say(f"MATLAB figure ({figure['generation']}); load({rel!r}) returns it as data: a dict "
        f"with 'name', 'size', 'axes' (each with title, labels, limits, scales, legend, "
        f"colorbar and its series by kind), 'annotations', 'unknown'; {len(axes)} axes:")
    rows = []
    for i, ax in enumerate(axes[: ctx.ITEMS]):
        bits = [f"title {cell(ax['title'])!r}" if ax["title"] else "no title",
                f"x {cell(ax['xlabel'])!r}" if ax["xlabel"] else None,
                f"y {cell(ax['ylabel'])!r}" if ax["ylabel"] else None,
                f"z {cell(ax['zlabel'])!r}" if ax["zlabel"] else None,
                f"xlim {ax['xlim']}" if ax["xlim"] else None,
                f"ylim {ax['ylim']}" if ax["ylim"] else None,
                f"xscale {ax['xscale']}" if ax["xscale"] != "linear" else None,
                f"yscale {ax['yscale']}" if ax["yscale"] != "linear" else None,
                "x reversed" if ax["xdir"] == "reverse" else None,
                "y reversed" if ax["ydir"] == "reverse" else None,
                "right y-axis" if ax["yaxis"] == "right" else None]
        say(f"  axes[{i}]: " + ", ".join(b for b in bits if b))
        if ax["legend"]:
            say(f"    legend ({ax['legend']['location']}): "
                + ", ".join(repr(cell(e)) for e in ax["legend"]["entries"][: ctx.ITEMS]))
        if ax["colorbar"]:
            say(f"    colorbar: {ax['colorbar']}")
        for note in ax["notes"]:
            say(f"    note: {note}")
        shown = 0
        for kind in kinds:
            for j, s in enumerate(ax[kind]):
                # Maps (surfaces, images, contours) by their grid, the rest by 'y'.
                grid = kind in ("surfaces", "images", "contours")
                data = s.get("y")
                if grid or data is None or not data.size:
                    z = s.get("z")
                    data = z if z is not None and z.size else s.get("c")
                n = int(data.size) if data is not None else 0
                finite = data[np.isfinite(data)] if n else np.zeros(0)
                span = (f", range {float(finite.min()):.4g}..{float(finite.max()):.4g}"
                        if finite.size else "")
                label = f" {cell(s['label'])!r}" if s.get("label") else ""
                size = "x".join(str(d) for d in data.shape) if grid and n else str(n)
                if shown < ctx.ITEMS:
                    say(f"    {kind}[{j}] {s['kind']}{label}: {size} values{span}")
                shown += 1
                rows.append({"name": f"axes[{i}].{kind}[{j}]" + (f" {cell(s['label'])}"
                                                                 if s.get("label") else ""),
                             "shape": list(data.shape) if data is not None else [0],
                             "class": s["kind"], "dtype": "float64"})
        if shown > ctx.ITEMS:
            say(f"    ... and {shown - ctx.ITEMS} more series")
        if ax["texts"]:
            say("    texts: " + ", ".join(repr(cell(t["string"])) for t in ax["texts"][:8]))
    if figure["annotations"]:
        say(f"annotations: {len(figure['annotations'])}")
    if figure["unknown"]:
        say("not read (listed under 'unknown'): " + ", ".join(
            sorted({u["type"] for u in figure["unknown"]})[:20]))
    say("redraw it with:")
    for line in _pdfagent_fig_redraw(rel).splitlines():
        say("  " + line)
    return {"kind": "variables", "variables": rows[:200]}
