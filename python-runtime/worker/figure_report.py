# PDFAgent figure report: what a figure shows, told from the live matplotlib objects, so an
# agent that cannot see images can tell a right figure from a wrong one, plus a small
# preview image for the agents that can.
#
# This file is pasted into the worker script next to the preamble, after the user's code
# ran. It holds only top-level functions named _pdfagent_*: no module-level imports or
# statements, so it puts no other name into the code's namespace (every import is inside a
# function). Entry points:
#
#     _pdfagent_figure_report(fig, rgba=None, tight=False) -> dict   (JSON-serialisable)
#     _pdfagent_report_text(report) -> str                            (for text-only models)
#     _pdfagent_preview(png_bytes, max_side=1000, max_b64_chars=60000)
#         -> (bytes, mime, width, height)
#
# The report never raises: each part is inspected under its own try, and a part that fails
# is left out. It reads what the last draw left behind (the text-outside check reuses the
# Agg renderer of the last draw when the figure's size and dpi still match it) and draws
# nothing itself, so it costs about a millisecond for an ordinary figure.
#
# Five sections, in this order: the report and its facts (`_pdfagent_figure_report` calls
# its stages: size, colorbars, each axes' facts, names; then the warnings; then assembles),
# the data drawn (each axes' `data`: what its series, images, bars and reference marks show,
# as counts and ranges, never the data itself), the warnings, the text, the preview.

# === the report and its facts: what the figure shows ==============================================


def _pdfagent_figure_report(fig, rgba=None, tight=False):
    """A compact, deterministic, JSON-serialisable description of `fig`.

    `rgba`: the rendered image as an H x W x 4 uint8 array (or anything numpy reads as
    one), for the saved size and the blank check. `tight`: the figure was saved with
    bbox_inches='tight' (the canvas grew to its text), so the text-outside check is off.
    """
    report = {}
    warnings = []

    def warn(code, message, axes=None):
        w = {"code": code, "message": message}
        if axes is not None:
            w["axes"] = axes
        warnings.append(w)

    try:
        import numpy as np
    except Exception:  # noqa: BLE001
        return {"width_px": 0, "height_px": 0, "axes": [], "warnings": []}

    # The facts: size and figure-level texts, which axes are colorbars and whose, the
    # figure's legends and what each data axes shows, and every axes' name.
    pixels = _pdfagent_report_size(fig, rgba, report, np)
    all_axes = list(getattr(fig, "axes", []))
    cbar_ids, cbars, orphans = _pdfagent_colorbars(all_axes)
    data_axes = [ax for ax in all_axes if id(ax) not in cbar_ids]
    cbar_axes = [ax for ax in all_axes if id(ax) in cbar_ids]
    proxies, fig_legend, inspected = _pdfagent_inspect_all_axes(fig, data_axes, cbars)
    names = _pdfagent_axes_names(fig, inspected, data_axes, cbars)
    # The warnings: per axes, text cut off by the figure's edge, a blank image.
    _pdfagent_check_all_axes(report, inspected, names, cbars, proxies, fig_legend, warn)
    _pdfagent_check_cut_text(fig, pixels, tight, data_axes, cbar_axes, names, warn)
    _pdfagent_check_blank(pixels, warn)
    return _pdfagent_report_assemble(fig, report, inspected, fig_legend, orphans, warnings)


def _pdfagent_report_size(fig, rgba, report, np):
    """The saved size and the figure-level texts into `report`; return the pixels (an
    H x W x C array) or None."""
    pixels = None
    if rgba is not None:
        try:
            pixels = np.asarray(rgba)
            if pixels.ndim != 3 or pixels.shape[2] < 3:
                pixels = None
        except Exception:  # noqa: BLE001
            pixels = None
    try:
        if pixels is not None:
            report["width_px"], report["height_px"] = (
                int(pixels.shape[1]),
                int(pixels.shape[0]),
            )
        else:
            w, h = fig.get_size_inches() * fig.dpi
            report["width_px"], report["height_px"] = round(float(w)), round(float(h))
    except Exception:  # noqa: BLE001
        report["width_px"] = report["height_px"] = 0
    try:
        for attr, key in (
            ("get_suptitle", "suptitle"),
            ("get_supxlabel", "supxlabel"),
            ("get_supylabel", "supylabel"),
        ):
            text = getattr(fig, attr)()
            if text:
                report[key] = _pdfagent_trunc(text)
    except Exception:  # noqa: BLE001, S110
        pass

    return pixels


def _pdfagent_colorbars(all_axes):
    """Which axes are colorbars, and whose: `(ids of colorbar axes, id(parent axes) ->
    [Colorbar], colorbars with no parent)`."""
    cbar_ids = set()
    cbars = {}  # id(parent axes) -> [Colorbar]
    orphans = []
    try:
        found = []  # Colorbar objects, in figure order, each once
        seen = set()
        for ax in all_axes:
            cb = getattr(ax, "_colorbar", None)
            if cb is not None and id(cb) not in seen:
                seen.add(id(cb))
                found.append(cb)
        for ax in all_axes:  # colorbars known only from their mappables
            for m in (*ax.images, *ax.collections):
                cb = getattr(m, "colorbar", None)
                if (
                    cb is not None
                    and id(cb) not in seen
                    and getattr(cb, "ax", None) is not None
                ):
                    seen.add(id(cb))
                    found.append(cb)
        for cb in found:
            cbar_ids.add(id(cb.ax))
        for cb in found:
            parent = getattr(getattr(cb, "mappable", None), "axes", None)
            if parent is None or id(parent) in cbar_ids:
                parents = getattr(cb.ax, "_colorbar_info", {}).get("parents") or []
                parent = next((p for p in parents if id(p) not in cbar_ids), None)
            if parent is None:
                orphans.append(cb)
            else:
                cbars.setdefault(id(parent), []).append(cb)
    except Exception:  # noqa: BLE001, S110
        pass
    return cbar_ids, cbars, orphans


def _pdfagent_inspect_all_axes(fig, data_axes, cbars):
    """The figure-level legends, then each data axes: `(legend labels, the figure legend's
    labels, [(ax, entry, facts)])`."""
    proxies = set()  # legend labels: an empty line with one of these is a legend entry
    fig_legend = []
    try:
        for leg in fig.legends:
            labels = _pdfagent_legend_labels(leg)
            if labels:
                fig_legend.extend(labels)
                proxies.update(labels)
    except Exception:  # noqa: BLE001, S110
        pass
    inspected = []  # (ax, entry, facts)
    for ax in data_axes:
        try:
            entry, facts = _pdfagent_inspect_axes(ax, fig, cbars, proxies)
        except Exception:  # noqa: BLE001
            entry, facts = {}, None
        inspected.append((ax, entry, facts))
    return proxies, fig_legend, inspected


def _pdfagent_axes_names(fig, inspected, data_axes, cbars):
    """id(axes) -> how the warnings name it ("axes 2 of 3 (top right)", twins, colorbars);
    the position and twin go into each entry."""
    total = len(data_axes)
    names = {}
    for i, (ax, entry, _) in enumerate(inspected, 1):
        if total > 1:
            where = _pdfagent_where(ax, fig)
            if where:
                entry["position"] = where
        names[id(ax)] = _pdfagent_name(entry, i, total)
    for i, (ax, entry, _) in enumerate(inspected, 1):
        try:  # a twinx()/twiny() axes lies on top of the one it was made from
            first = next(a for a in ax._twinned_axes.get_siblings(ax) if a in data_axes)
            if first is not ax:
                entry["twin_of"] = data_axes.index(first) + 1
                if not (
                    entry.get("title")
                    or entry.get("title_left")
                    or entry.get("title_right")
                ):
                    names[id(ax)] = (
                        f"axes {i} of {total} (twin of axes {entry['twin_of']})"
                    )
        except Exception:  # noqa: BLE001, S110
            pass
    for ax in data_axes:
        for cb in cbars.get(id(ax), ()):
            names[id(cb.ax)] = f"the colorbar of {names[id(ax)]}"

    return names


def _pdfagent_report_assemble(fig, report, inspected, fig_legend, orphans, warnings):
    """The report, bounded: at most 16 axes and 12 warnings (the rest counted)."""
    entries = [entry for _, entry, _ in inspected]
    report["axes"] = entries[:16]
    if len(entries) > 16:
        report["axes_omitted"] = len(entries) - 16
    if fig_legend:
        _pdfagent_put_legend(report, fig_legend)
    try:
        if orphans:
            report["colorbar"] = _pdfagent_trunc(
                "; ".join(b.long_axis.get_label_text() for b in orphans)
            )
        special = {
            id(getattr(fig, a, None)) for a in ("_suptitle", "_supxlabel", "_supylabel")
        }
        n_texts = sum(1 for t in fig.texts if id(t) not in special)
        if n_texts:
            report["texts"] = n_texts
    except Exception:  # noqa: BLE001, S110
        pass
    report["warnings"] = warnings[:12]
    if len(warnings) > 12:
        report["warnings_omitted"] = len(warnings) - 12
    return report


def _pdfagent_trunc(text, limit=80):
    """`text` as a str of at most `limit` characters (an ellipsis marks a cut)."""
    text = str(text)
    if len(text) > limit:
        return text[: limit - 1] + "\u2026"
    return text


def _pdfagent_num(value):
    """A float rounded to 4 significant digits, or None when it is not finite."""
    import math

    try:
        value = float(value)
    except (TypeError, ValueError):
        return None
    if not math.isfinite(value):
        return None
    rounded = float(f"{value:.4g}")
    return 0.0 if rounded == 0 else rounded


def _pdfagent_limits(axis, lim):
    """View limits of one axis: two rounded floats, or two ISO dates on a date axis."""
    try:
        import matplotlib.dates as mdates

        converter = axis.get_converter()
        if isinstance(
            converter, (mdates.DateConverter, mdates._SwitchableDateConverter)
        ):
            out = []
            for v in lim:
                d = mdates.num2date(v)
                if d.hour == d.minute == d.second == 0:
                    out.append(d.strftime("%Y-%m-%d"))
                else:
                    out.append(d.strftime("%Y-%m-%dT%H:%M"))
            return out
    except Exception:  # noqa: BLE001, S110 - a converter we do not know: plain numbers
        pass
    return [_pdfagent_num(lim[0]), _pdfagent_num(lim[1])]


def _pdfagent_where(ax, fig):
    """Where `ax` sits in the figure: 'top right', 'row 2, column 3', or ''."""
    words_r = {2: ("top", "bottom"), 3: ("top", "middle", "bottom")}
    words_c = {2: ("left", "right"), 3: ("left", "center", "right")}
    try:
        spec = ax.get_subplotspec()
    except Exception:  # noqa: BLE001
        spec = None
    if spec is not None:
        try:
            # fig.colorbar(ax=...) splits the axes' cell into the axes and its colorbar:
            # where the axes sits is where that cell sits.
            grid = spec.get_gridspec()
            for other in fig.axes:
                other_spec = other.get_subplotspec() if other is not ax else None
                if (
                    getattr(other, "_colorbar", None) is not None
                    and other_spec is not None
                    and other_spec.get_gridspec() is grid
                ):
                    spec = spec.get_topmost_subplotspec()
                    break
            nrows, ncols = spec.get_gridspec().get_geometry()
            rows, cols = spec.rowspan, spec.colspan
            parts = []
            if nrows > 1 and len(rows) < nrows:
                if nrows in words_r and len(rows) == 1:
                    parts.append(words_r[nrows][rows.start])
                elif len(rows) == 1:
                    parts.append(f"row {rows.start + 1}")
                else:
                    parts.append(f"rows {rows.start + 1}-{rows.stop}")
            if ncols > 1 and len(cols) < ncols:
                if ncols in words_c and len(cols) == 1:
                    parts.append(words_c[ncols][cols.start])
                elif len(cols) == 1:
                    parts.append(f"column {cols.start + 1}")
                else:
                    parts.append(f"columns {cols.start + 1}-{cols.stop}")
            if (
                nrows in words_r
                and ncols in words_c
                and all(
                    p.split()[0]
                    in ("top", "middle", "bottom", "left", "center", "right")
                    for p in parts
                )
            ):
                return " ".join(parts)
            return ", ".join(parts)
        except Exception:  # noqa: BLE001, S110
            pass
    try:
        pos = ax.get_position()
        cx, cy = (pos.x0 + pos.x1) / 2, (pos.y0 + pos.y1) / 2
        # An axes placed inside another one (fig.add_axes, inset_locator) is an inset.
        for other in fig.axes:
            if other is ax or not other.get_visible():
                continue
            op = other.get_position()
            if (
                op.x0 <= pos.x0
                and pos.x1 <= op.x1
                and op.y0 <= pos.y0
                and pos.y1 <= op.y1
                and op.width * op.height > pos.width * pos.height
            ):
                return "inset"
        v = "top" if cy > 2 / 3 else "bottom" if cy < 1 / 3 else "middle"
        h = "right" if cx > 2 / 3 else "left" if cx < 1 / 3 else "center"
        return "center" if (v, h) == ("middle", "center") else f"{v} {h}"
    except Exception:  # noqa: BLE001
        return ""


def _pdfagent_name(entry, index, total):
    """How messages name an axes: "axes 'Spectrum'" or "axes 2 of 4 (top right)"."""
    title = entry.get("title") or entry.get("title_left") or entry.get("title_right")
    if title:
        return f"axes '{_pdfagent_trunc(title, 40)}'"
    if total == 1:
        return "the axes"
    where = entry.get("position")
    return f"axes {index} of {total}" + (f" ({where})" if where else "")


def _pdfagent_series_name(artist, kind, index):
    label = str(artist.get_label() or "")
    if label and not label.startswith("_"):
        return f"{kind} '{_pdfagent_trunc(label, 30)}'"
    return f"{kind} {index}"


def _pdfagent_legend_labels(legend):
    """Entry labels of a visible legend (None when there is no visible legend)."""
    if legend is None or not legend.get_visible():
        return None
    return [t.get_text() for t in legend.get_texts()]


def _pdfagent_put_legend(entry, labels):
    entry["legend"] = [_pdfagent_trunc(t, 40) for t in labels[:10]]
    if len(labels) > 10:
        entry["legend_total"] = len(labels)


def _pdfagent_series_data(artist, kind):
    """(x, y) float arrays of a line or scatter series, or None if not readable."""
    import numpy as np

    if kind == "line":
        xy = np.asarray(artist.get_xydata(), dtype=float)
        if xy.ndim != 2 or xy.shape[-1] < 2:
            return np.zeros(0), np.zeros(0)
        return xy[:, 0], xy[:, 1]
    offsets = artist.get_offsets()
    if np.ma.isMaskedArray(offsets):
        offsets = offsets.astype(float).filled(np.nan)
    xy = np.asarray(offsets, dtype=float)
    if xy.size == 0:
        return np.zeros(0), np.zeros(0)
    xy = xy.reshape(-1, 2)
    return xy[:, 0], xy[:, 1]


def _pdfagent_inspect_axes(ax, fig, cbars, proxies):
    """(entry, facts) for one data axes: the report entry and what the rules need."""
    entry = {}
    facts = {"series": [], "lines": 0, "line_styles": set(), "content": 0}
    name = getattr(ax, "name", "rectilinear")
    is3d = name == "3d"
    xscale, yscale = _pdfagent_axes_labels_and_scales(ax, entry, name, is3d)
    counts = _pdfagent_count_artists(ax, facts, is3d)
    if counts:
        entry["artists"] = counts
    items = _pdfagent_data_items(ax, facts, is3d)
    if items:
        entry["data"] = items
    try:
        labels = _pdfagent_legend_labels(ax.get_legend())
        if labels is not None:
            _pdfagent_put_legend(entry, labels)
            proxies.update(labels)
    except Exception:  # noqa: BLE001, S110
        pass
    try:
        bars = cbars.get(id(ax))
        if bars:
            entry["colorbar"] = _pdfagent_trunc(
                "; ".join(b.long_axis.get_label_text() for b in bars)
            )
    except Exception:  # noqa: BLE001, S110
        pass
    facts["xscale"], facts["yscale"] = xscale, yscale
    facts["is3d"] = is3d
    facts["name"] = name
    return entry, facts


def _pdfagent_axes_labels_and_scales(ax, entry, name, is3d):
    """Titles, axis labels, the kind of axes, its scales and limits into `entry`; return
    `(xscale, yscale)`."""

    def put(key, value):
        if value:
            entry[key] = _pdfagent_trunc(value)

    try:
        put("title", ax.get_title())
        put("title_left", ax.get_title("left"))
        put("title_right", ax.get_title("right"))
        put("xlabel", ax.get_xlabel())
        put("ylabel", ax.get_ylabel())
        if is3d:
            put("zlabel", ax.get_zlabel())
    except Exception:  # noqa: BLE001, S110
        pass
    if name != "rectilinear":
        entry["kind"] = _pdfagent_trunc(name, 30)
    if not ax.axison:
        entry["axis"] = "off"
    try:
        xscale, yscale = ax.get_xscale(), ax.get_yscale()
        # A scale is listed only when it is not linear; limits only when the axis shows.
        if xscale != "linear":
            entry["xscale"] = xscale
        if yscale != "linear":
            entry["yscale"] = yscale
        if ax.axison:
            entry["xlim"] = _pdfagent_limits(ax.xaxis, ax.get_xlim())
            entry["ylim"] = _pdfagent_limits(ax.yaxis, ax.get_ylim())
        if is3d and ax.axison:
            entry["zlim"] = [_pdfagent_num(v) for v in ax.get_zlim()]
            if ax.get_zscale() != "linear":
                entry["zscale"] = ax.get_zscale()
    except Exception:  # noqa: BLE001
        xscale = yscale = "linear"
    return xscale, yscale


def _pdfagent_count_artists(ax, facts, is3d):
    """What one axes holds, counted by kind (the entry's `artists`); the series, the
    reference lines and spans (`facts["refs"]`: id -> kind), how much content and how much
    data it has go into `facts`."""
    counts = {}
    facts.setdefault("refs", {})
    facts.setdefault("data", 0)

    def count(key, n=1):
        if n:
            counts[key] = counts.get(key, 0) + n

    skip, bar_ids = _pdfagent_contained_ids(ax)
    _pdfagent_count_lines(ax, facts, skip, count)
    clabels = _pdfagent_count_collections(ax, facts, skip, is3d, count)
    _pdfagent_count_patches(ax, facts, bar_ids, count)
    try:
        count("images", len(ax.images))
        facts["content"] += len(ax.images)
        facts["data"] += len(ax.images)
        texts = [t for t in ax.texts if id(t) not in clabels]
        count("texts", len(texts))
        facts["texts"] = len(texts)
        facts["content"] += len(ax.texts) + len(ax.artists) + len(ax.tables)
        facts["content"] += len(ax.child_axes)
    except Exception:  # noqa: BLE001, S110
        pass
    return counts


def _pdfagent_contained_ids(ax):
    """(skip, bar_ids): the ids of artists that belong to a container of another kind
    (error-bar caps and bar lines), and of bar rectangles."""
    from matplotlib.container import BarContainer, ErrorbarContainer
    from matplotlib.patches import Rectangle

    skip = set()
    bar_ids = set()
    try:
        for c in ax.containers:
            if isinstance(c, ErrorbarContainer):
                _, caplines, barlines = c.lines
                skip.update(id(a) for a in (*caplines, *barlines))
            elif isinstance(c, BarContainer):
                bar_ids.update(id(p) for p in c.patches if isinstance(p, Rectangle))
    except Exception:  # noqa: BLE001, S110
        pass
    return skip, bar_ids


def _pdfagent_count_lines(ax, facts, skip, count):
    """The axes' lines: data lines (series) and reference lines (axhline, ...)."""
    refs = facts["refs"]
    data_tf = ax.transData
    try:
        for i, line in enumerate(ax.lines, 1):
            facts["content"] += 1
            if id(line) in skip:
                continue
            ref = _pdfagent_reference_kind(line, ax)
            if ref:
                # axhline/axvline/axline mark a value across the axes: not a data line.
                refs[id(line)] = ref
                count("reference_lines")
                continue
            count("lines")
            facts["data"] += 1
            if not line.get_visible():
                continue
            on_data = line.get_transform() is data_tf
            if on_data:
                facts["lines"] += 1
                try:
                    facts["line_styles"].add(
                        (
                            str(line.get_color()),
                            str(line.get_linestyle()),
                            str(line.get_marker()),
                        )
                    )
                except Exception:  # noqa: BLE001, S110
                    pass
            facts["series"].append((line, "line", i, on_data))
    except Exception:  # noqa: BLE001, S110
        pass


def _pdfagent_count_collections(ax, facts, skip, is3d, count):
    """The axes' collections (contours, surfaces, scatters, meshes); returns the ids of the
    contours' labels (texts that are not the axes' own)."""
    from matplotlib.collections import PathCollection, QuadMesh
    from matplotlib.contour import ContourSet

    data_tf = ax.transData
    clabels = set()
    try:
        n_scatter = 0
        for c in ax.collections:
            facts["content"] += 1
            if id(c) in skip:
                continue
            facts["data"] += 1
            if isinstance(c, ContourSet):
                count("contours")
                clabels.update(id(t) for t in getattr(c, "labelTexts", ()))
            elif type(c).__name__ == "Poly3DCollection":
                count("surfaces")
            elif isinstance(c, PathCollection):
                count("scatter")
                n_scatter += 1
                if c.get_visible():
                    on_data = (not is3d) and c.get_offset_transform() is data_tf
                    facts["series"].append((c, "scatter", n_scatter, on_data))
            elif isinstance(c, QuadMesh) or type(c).__name__ == "PolyQuadMesh":
                count("meshes")
            else:
                count("collections")
    except Exception:  # noqa: BLE001, S110
        pass
    return clabels


def _pdfagent_count_patches(ax, facts, bar_ids, count):
    """The axes' patches: bars, spans (axhspan, ...) and the rest."""
    refs = facts["refs"]
    try:
        patches = list(ax.patches)
        facts["content"] += len(patches)
        n_bars = n_spans = 0
        for p in patches:
            if id(p) in bar_ids:
                n_bars += 1
            elif _pdfagent_reference_kind(p, ax):
                refs[id(p)] = _pdfagent_reference_kind(p, ax)
                n_spans += 1
        count("bars", n_bars)
        count("spans", n_spans)
        count("patches", len(patches) - n_bars - n_spans)
        facts["data"] += len(patches) - n_spans
    except Exception:  # noqa: BLE001, S110
        pass


def _pdfagent_reference_kind(artist, ax):
    """How an artist marks a value across the axes, or None when it draws data: 'hline',
    'vline', 'axline' (axhline, axvline, axline), 'hspan', 'vspan' (axhspan, axvspan).

    axhline and axhspan draw in the axes' blended transform (x in axes fractions, y in data:
    `get_yaxis_transform`), axvline and axvspan in the other one; matplotlib hands out the
    same transform object every time, so identity tells them apart from data drawn in data
    coordinates, whose matrix can equal the blended one (x limits 0..1)."""
    try:
        return _pdfagent_reference_kind_unsafe(artist, ax)
    except Exception:  # noqa: BLE001 - an odd artist: counted as what it is
        return None


def _pdfagent_reference_kind_unsafe(artist, ax):
    from matplotlib.artist import Artist
    from matplotlib.lines import Line2D
    from matplotlib.transforms import BlendedGenericTransform

    if type(artist).__name__ in ("AxLine", "_AxLine"):
        return "axline"
    # A patch's get_transform() adds its own placement: the artist's transform is below it.
    tf = Artist.get_transform(artist)
    horizontal = tf is ax.get_yaxis_transform(which="grid")
    vertical = tf is ax.get_xaxis_transform(which="grid")
    if isinstance(tf, BlendedGenericTransform) and not (horizontal or vertical):
        # blended_transform_factory(ax.transAxes, ax.transData) and its mirror
        horizontal = tf._x is ax.transAxes and tf._y is ax.transData
        vertical = tf._x is ax.transData and tf._y is ax.transAxes
    if not (horizontal or vertical):
        return None
    if isinstance(artist, Line2D):
        import numpy as np

        # Straight across: the data coordinate is one value (else it is a curve drawn in
        # axes fractions, data all the same).
        v = np.asarray(artist.get_ydata() if horizontal else artist.get_xdata(), dtype=float)
        if v.size == 0 or not (v == v.flat[0]).all():
            return None
        return "hline" if horizontal else "vline"
    return "hspan" if horizontal else "vspan"


# === the data drawn: counts and ranges of what each axes draws, never the data ====================


def _pdfagent_data_items(ax, facts, is3d):
    """What `ax` draws, one dict per series, image or container: its kind, how many points
    (bars, cells, levels) it has, the ranges of its data on the axes' own terms (dates as
    dates, categories by name), how many values are not finite, and what colour and size
    map; reference lines and spans after the data. At most 8 (`_pdfagent_cap_items`)."""
    from matplotlib.container import BarContainer, ErrorbarContainer
    from matplotlib.patches import StepPatch

    refs = facts.get("refs", {})
    done = set()  # ids of the artists a container's item describes
    items, marks = [], []

    def add(describe, *args):
        try:
            item = describe(*args)
        except Exception:  # noqa: BLE001 - an odd artist: counted, not described
            item = None
        if item:
            kind = item["kind"]
            (marks if kind in ("hline", "vline", "axline", "hspan", "vspan") else items).append(
                item
            )

    def visible(artist):
        try:
            return artist.get_visible()
        except Exception:  # noqa: BLE001
            return False

    try:
        for c in ax.containers:
            if isinstance(c, BarContainer):
                done.update(id(p) for p in c.patches)
                add(_pdfagent_bars_item, c, ax)
            elif isinstance(c, ErrorbarContainer):
                line, caps, bars = c.lines
                done.update(id(a) for a in (line, *caps, *bars) if a is not None)
                if line is not None and visible(line):
                    add(_pdfagent_line_item, line, ax, is3d, c)
                elif line is None and bars:  # fmt='none': the error bars alone
                    add(_pdfagent_errorbars_item, c, ax)
    except Exception:  # noqa: BLE001, S110
        pass
    for group, describe in (
        (ax.lines, lambda a: _pdfagent_line_item(a, ax, is3d)),
        (ax.collections, lambda a: _pdfagent_collection_item(a, ax, is3d)),
        (ax.images, _pdfagent_image_item),
        (
            ax.patches,
            lambda a: _pdfagent_stairs_item(a, ax) if isinstance(a, StepPatch) else None,
        ),
    ):
        for artist in list(group):
            if id(artist) in done or not visible(artist):
                continue
            if id(artist) in refs:
                add(_pdfagent_reference_item, artist, refs[id(artist)], ax)
            else:
                add(describe, artist)
    capped = _pdfagent_cap_items(items + marks, 8)
    for item in capped:
        item.pop("_part", None)
    return capped


def _pdfagent_item_label(artist):
    """The artist's label when it is one a legend would show."""
    label = str(artist.get_label() or "")
    if label and not label.startswith("_"):
        return _pdfagent_trunc(label, 30)
    return None


def _pdfagent_new_item(kind, artist):
    item = {"kind": kind}
    label = _pdfagent_item_label(artist)
    if label:
        item["label"] = label
    return item


def _pdfagent_value_stats(values):
    """`(min, max, how many are masked or not finite)` of an array, min and max None when
    nothing is finite; chunk by chunk, as an image can be large."""
    import numpy as np

    a = np.ma.asarray(values)
    data = np.ma.getdata(a).reshape(-1)
    mask = np.ma.getmaskarray(a).reshape(-1) if a.mask is not np.ma.nomask else None
    lo = hi = None
    bad = 0
    step = 1 << 20
    for i in range(0, data.size, step):
        d = np.asarray(data[i : i + step], dtype=float)
        ok = np.isfinite(d)
        if mask is not None:
            ok &= ~mask[i : i + step]
        bad += int(d.size - np.count_nonzero(ok))
        if ok.any():
            d = d[ok]
            dlo, dhi = float(d.min()), float(d.max())
            lo = dlo if lo is None else min(lo, dlo)
            hi = dhi if hi is None else max(hi, dhi)
    return lo, hi, bad


def _pdfagent_span_of(values, axis=None):
    """[lo, hi] of the finite values, on `axis`' terms when given (`_pdfagent_axis_values`),
    or None when none is finite."""
    lo, hi, _ = _pdfagent_value_stats(values)
    if lo is None:
        return None
    if axis is None:
        return [_pdfagent_num(lo), _pdfagent_num(hi)]
    return _pdfagent_axis_values(axis, lo, hi)


def _pdfagent_axis_values(axis, lo, hi):
    """Two data values as `axis` shows them: numbers, ISO dates on a date axis, or the
    categories' names on a categorical one."""
    out = _pdfagent_limits(axis, (lo, hi))
    try:
        mapping = getattr(getattr(axis, "units", None), "_mapping", None)
        if mapping:
            names = {int(i): str(k) for k, i in mapping.items()}
            out = [
                _pdfagent_trunc(names[int(v)], 20) if float(v).is_integer() and int(v) in names
                else o
                for v, o in zip((lo, hi), out, strict=True)
            ]
    except Exception:  # noqa: BLE001, S110 - the numbers then
        pass
    return out


def _pdfagent_data_transform(artist, ax):
    """Which coordinates of `artist` are data: (x, y) booleans (axhspan-like fills and line
    collections drawn in a blended transform have one; axes fractions have none)."""
    tf = artist.get_transform()
    if tf is ax.transData:
        return True, True
    if tf is ax.get_xaxis_transform(which="grid"):
        return True, False
    if tf is ax.get_yaxis_transform(which="grid"):
        return False, True
    return False, False


def _pdfagent_put_points(item, cols, axes, ax):
    """The points' number, how many are not finite and the ranges of the finite ones, per
    coordinate (`cols`: float arrays x, y (z); `axes`: which of them to give a range)."""
    import numpy as np

    n = min(c.size for c in cols)
    cols = [np.asarray(c[:n], dtype=float) for c in cols]
    fin = np.ones(n, bool)
    for c in cols:
        fin &= np.isfinite(c)
    item["n"] = int(n)
    bad = int(n - np.count_nonzero(fin))
    if bad:
        item["nan"] = bad
    for key, c, axis, wanted in zip(
        ("x", "y", "z"), cols, (ax.xaxis, ax.yaxis, getattr(ax, "zaxis", None)), axes,
        strict=False,
    ):
        if wanted:
            r = _pdfagent_span_of(c[fin], axis)
            if r:
                item[key] = r


def _pdfagent_floats(values):
    """A flat float array, masked entries as NaN."""
    import numpy as np

    a = np.ma.asarray(values)
    return np.asarray(np.ma.filled(a.astype(float), np.nan), dtype=float).reshape(-1)


def _pdfagent_line_item(line, ax, is3d, container=None):
    """A line (or an errorbar's data line): points, ranges, non-finite values."""
    import numpy as np

    item = _pdfagent_new_item(
        "line" if container is None else "errorbar", line if container is None else container
    )
    if container is None and str(line.get_label()) == "_nolegend_":
        item["_part"] = True  # boxplot and other composite plots label their parts so
    if is3d and hasattr(line, "get_data_3d"):
        cols = [_pdfagent_floats(a) for a in line.get_data_3d()]
        _pdfagent_put_points(item, cols, (True, True, True), ax)
    else:
        xy = np.asarray(line.get_xydata(), dtype=float)
        if xy.ndim != 2 or xy.shape[1] < 2:
            xy = np.zeros((0, 2))
        on_x, on_y = _pdfagent_data_transform(line, ax)
        _pdfagent_put_points(item, [xy[:, 0], xy[:, 1]], (on_x, on_y), ax)
    if container is not None:
        errors = ("x" if container.has_xerr else "") + ("y" if container.has_yerr else "")
        if errors:
            item["errors"] = errors
    return item


def _pdfagent_errorbars_item(container, ax):
    """An errorbar series drawn without its data line (fmt='none'): how many bars, and the
    range they cover."""
    import numpy as np

    item = _pdfagent_new_item("errorbar", container)
    segments = [np.asarray(s, dtype=float).reshape(-1, 2) for s in container.lines[2][0].get_segments()]
    item["n"] = len(segments)
    pts = np.concatenate(segments) if segments else np.zeros((0, 2))
    for key, col, axis in (("x", pts[:, 0], ax.xaxis), ("y", pts[:, 1], ax.yaxis)):
        r = _pdfagent_span_of(col, axis)
        if r:
            item[key] = r
    errors = ("x" if container.has_xerr else "") + ("y" if container.has_yerr else "")
    if errors:
        item["errors"] = errors
    return item


def _pdfagent_put_colour(item, mappable, count_bad=False):
    """What colour maps: the mapped values' range, the colormap, the norm, and the colour
    scale's limits when they differ from the values' (colours saturate)."""
    arr = mappable.get_array()
    if arr is None:
        return
    lo, hi, bad = _pdfagent_value_stats(arr)
    if lo is not None:
        item["values"] = [_pdfagent_num(lo), _pdfagent_num(hi)]
    if count_bad and bad:
        item["nan"] = bad
    item["cmap"] = _pdfagent_trunc(mappable.get_cmap().name, 30)
    norm = mappable.norm
    item["norm"] = _pdfagent_norm_name(norm)
    clim = [_pdfagent_num(norm.vmin), _pdfagent_num(norm.vmax)]
    if lo is not None and clim != item["values"]:
        item["clim"] = clim


def _pdfagent_norm_name(norm):
    """'linear', 'log', 'symlog', 'twoslope', 'boundary', 'power', ... from the norm's class."""
    name = type(norm).__name__
    if name == "Normalize":
        return "linear"
    if name == "NoNorm":
        return "none"
    return _pdfagent_trunc(name.removesuffix("Norm").lower() or name, 20)


def _pdfagent_scatter_item(c, ax, is3d):
    """A scatter: points, ranges, and what its colours and sizes map."""
    import numpy as np

    item = _pdfagent_new_item("scatter", c)
    xyz = getattr(c, "_offsets3d", None) if is3d else None
    if xyz is not None:
        _pdfagent_put_points(item, [_pdfagent_floats(a) for a in xyz], (True,) * 3, ax)
    else:
        x, y = _pdfagent_series_data(c, "scatter")
        on = c.get_offset_transform() is ax.transData
        _pdfagent_put_points(item, [x, y], (on, on), ax)
    _pdfagent_put_colour(item, c)
    sizes = np.asarray(c.get_sizes(), dtype=float).reshape(-1)
    if sizes.size > 1 and np.nanmax(sizes) > np.nanmin(sizes):
        item["sizes"] = _pdfagent_span_of(sizes)
    return item


def _pdfagent_image_item(im):
    """An image: its array's shape, value range, non-finite values; colormap and norm for
    one that maps values to colours (2-D)."""
    import numpy as np

    arr = im.get_array()
    if arr is None:
        return None
    shape = [int(s) for s in np.shape(arr)]
    item = _pdfagent_new_item("image", im)
    item["shape"] = shape
    if len(shape) == 2:
        _pdfagent_put_colour(item, im, count_bad=True)
    else:
        r = _pdfagent_span_of(arr)
        if r:
            item["values"] = r
    return item


def _pdfagent_collection_item(c, ax, is3d):
    """A collection by what it draws: contours, scatter, mesh, surface, fill, segments or
    cells coloured by values; None for others (counted only)."""
    import numpy as np
    from matplotlib.collections import LineCollection, PathCollection, QuadMesh
    from matplotlib.contour import ContourSet

    name = type(c).__name__
    if isinstance(c, ContourSet):
        item = _pdfagent_new_item("contourf" if c.filled else "contour", c)
        levels = np.asarray(c.levels, dtype=float)
        item["n"] = int(levels.size)
        item["levels"] = _pdfagent_span_of(levels)
        zmin, zmax = getattr(c, "zmin", None), getattr(c, "zmax", None)
        if zmin is not None and zmax is not None:
            item["values"] = [_pdfagent_num(zmin), _pdfagent_num(zmax)]
        if getattr(c, "colors", None) is None:
            item["cmap"] = _pdfagent_trunc(c.get_cmap().name, 30)
            item["norm"] = _pdfagent_norm_name(c.norm)
        return item
    if isinstance(c, PathCollection):
        return _pdfagent_scatter_item(c, ax, is3d)
    if isinstance(c, QuadMesh) or name == "PolyQuadMesh":
        item = _pdfagent_new_item("mesh", c)
        arr = c.get_array()
        if arr is not None:
            item["shape"] = [int(s) for s in np.shape(arr)]
        _pdfagent_put_colour(item, c, count_bad=True)
        return item
    if name == "Poly3DCollection":
        item = _pdfagent_new_item("surface", c)
        vec = getattr(c, "_vec", None)  # the polygons' vertices, homogeneous (4 x N)
        if vec is not None and len(vec) >= 3:
            _pdfagent_put_points(item, [np.asarray(v) for v in vec[:3]], (True,) * 3, ax)
            item.pop("n", None)
            item.pop("nan", None)
        _pdfagent_put_colour(item, c)
        return item
    if is3d:
        return None
    if name == "FillBetweenPolyCollection" or isinstance(c, LineCollection):
        segments = name != "FillBetweenPolyCollection"
        item = _pdfagent_new_item("segments" if segments else "fill", c)
        paths = c.get_segments() if segments else [p.vertices for p in c.get_paths()]
        pts = [np.asarray(p, dtype=float).reshape(-1, 2) for p in paths]
        pts = np.concatenate(pts) if pts else np.zeros((0, 2))
        on_x, on_y = _pdfagent_data_transform(c, ax)
        if segments:
            item["n"] = len(paths)
        for key, col, axis, wanted in (
            ("x", pts[:, 0], ax.xaxis, on_x),
            ("y", pts[:, 1], ax.yaxis, on_y),
        ):
            r = _pdfagent_span_of(col, axis) if wanted else None
            if r:
                item[key] = r
        _pdfagent_put_colour(item, c)
        return item
    if c.get_array() is not None:
        item = _pdfagent_new_item("cells", c)
        item["n"] = int(np.size(c.get_array()))
        _pdfagent_put_colour(item, c, count_bad=True)
        return item
    return None


def _pdfagent_bars_item(c, ax):
    """A bar container (bar, barh, hist): the number of bars, where they stand (edges, or
    the categories' names) and the range of their values (heights, or widths)."""
    import numpy as np
    from matplotlib.patches import Rectangle

    bars = [p for p in c.patches if isinstance(p, Rectangle) and p.get_visible()]
    if not bars:
        return None
    horizontal = getattr(c, "orientation", None) == "horizontal"
    item = _pdfagent_new_item("bars", c)
    if "label" not in item:
        label = _pdfagent_item_label(bars[0])  # hist labels each data set's first bar
        if label:
            item["label"] = label
    item["n"] = len(bars)
    axis = ax.yaxis if horizontal else ax.xaxis
    starts = np.array([p.get_y() if horizontal else p.get_x() for p in bars], dtype=float)
    sizes = np.array([p.get_height() if horizontal else p.get_width() for p in bars], dtype=float)
    if getattr(getattr(axis, "units", None), "_mapping", None):
        where = starts + sizes / 2  # the categories' positions, told by name
    else:
        where = np.concatenate([starts, starts + sizes])
    r = _pdfagent_span_of(where, axis)
    if r:
        item["y" if horizontal else "x"] = r
    values = getattr(c, "datavalues", None)
    if values is None:
        values = [p.get_width() if horizontal else p.get_height() for p in bars]
    r = _pdfagent_span_of(_pdfagent_floats(values))
    if r:
        item["values"] = r
    return item


def _pdfagent_stairs_item(p, ax):
    """A step patch (stairs): the number of steps, its edges' and values' ranges."""
    import numpy as np

    values, edges, _ = p.get_data()
    horizontal = getattr(p, "orientation", "vertical") == "horizontal"
    item = _pdfagent_new_item("stairs", p)
    item["n"] = int(np.size(values))
    r = _pdfagent_span_of(_pdfagent_floats(edges), ax.yaxis if horizontal else ax.xaxis)
    if r:
        item["y" if horizontal else "x"] = r
    r = _pdfagent_span_of(_pdfagent_floats(values))
    if r:
        item["values"] = r
    return item


def _pdfagent_reference_item(artist, kind, ax):
    """A reference line or span: where it is (one value, or a range for a span; a point and
    a slope for axline)."""
    item = _pdfagent_new_item(kind, artist)
    if kind in ("hline", "vline"):
        data = artist.get_ydata() if kind == "hline" else artist.get_xdata()
        v = float(data[0])
        axis = ax.yaxis if kind == "hline" else ax.xaxis
        item["y" if kind == "hline" else "x"] = _pdfagent_axis_values(axis, v, v)
    elif kind == "axline":
        get = lambda name: getattr(artist, f"get_{name}", lambda: getattr(artist, f"_{name}"))()  # noqa: E731
        xy1, xy2, slope = get("xy1"), get("xy2"), get("slope")
        item["through"] = [_pdfagent_num(xy1[0]), _pdfagent_num(xy1[1])]
        if xy2 is not None:
            dx = float(xy2[0]) - float(xy1[0])
            slope = (float(xy2[1]) - float(xy1[1])) / dx if dx else None
            if not dx:
                item["x"] = [item["through"][0]] * 2  # vertical
        if slope is not None:
            item["slope"] = _pdfagent_num(slope)
    else:  # hspan, vspan: the patch's corners, in its blended coordinates
        verts = artist.get_patch_transform().transform(artist.get_path().vertices)
        col = 1 if kind == "hspan" else 0
        axis = ax.yaxis if kind == "hspan" else ax.xaxis
        r = _pdfagent_span_of(verts[:, col], axis)
        if r:
            item["y" if kind == "hspan" else "x"] = r
    return item


def _pdfagent_cap_items(items, limit):
    """At most `limit` items (and a few more when many kinds are merged). Unlabelled lines of
    five points or fewer (segments drawn one by one, a boxplot's boxes) and the parts of a
    composite plot (a boxplot's whiskers, caps and medians: `_part`) become one item; past the limit,
    the rest of each kind becomes one item whose `count` says how many it stands for."""
    out, short = [], []
    for it in items:
        if it["kind"] == "line" and "label" not in it and (it.get("n", 0) <= 5 or it.get("_part")):
            if not short:
                out.append(short)  # where the merged item goes
            short.append(it)
        else:
            out.append(it)
    out = [_pdfagent_merge_items(it) if isinstance(it, list) else it for it in out]
    keep = len(out)
    groups = []
    while keep > 0:
        groups = _pdfagent_group_items(out[keep:])
        if keep + len(groups) <= limit:
            break
        keep -= 1
    if keep == 0:
        groups = _pdfagent_group_items(out)
    return out[:keep] + [_pdfagent_merge_items(g) for g in groups]


def _pdfagent_group_items(items):
    """Items grouped by kind, in the order each kind first appears."""
    groups = {}
    for it in items:
        groups.setdefault(it["kind"], []).append(it)
    return list(groups.values())


def _pdfagent_merge_items(group):
    """One item for several of a kind: how many (`count`), their points and non-finite
    values summed, their ranges joined; a colormap or norm only when all share it."""
    if len(group) == 1:
        return group[0]
    merged = {"kind": group[0]["kind"], "count": sum(int(it.get("count", 1)) for it in group)}
    for key in ("n", "nan"):
        total = sum(int(it.get(key, 0)) for it in group)
        if total:
            merged[key] = total
    for key in ("x", "y", "z", "values", "sizes", "levels"):
        spans = [it[key] for it in group if it.get(key)]
        if spans:
            merged[key] = _pdfagent_union(spans)
    for key in ("cmap", "norm", "errors"):
        found = {it.get(key) for it in group}
        if len(found) == 1 and None not in found:
            merged[key] = found.pop()
    return merged


def _pdfagent_union(spans):
    """The range that holds every [lo, hi] of `spans` (numbers, or ISO dates, which order
    as text); the first low and last high when they cannot be compared."""
    los = [s[0] for s in spans if s[0] is not None]
    his = [s[1] for s in spans if s[1] is not None]
    try:
        return [min(los) if los else None, max(his) if his else None]
    except TypeError:
        return [spans[0][0], spans[-1][1]]


# === the warnings: what looks wrong in it =========================================================


def _pdfagent_check_all_axes(report, inspected, names, cbars, proxies, fig_legend, warn):
    """The rules per axes: empty axes, series that cannot be told apart, missing labels."""
    sup_x = bool(report.get("supxlabel"))
    sup_y = bool(report.get("supylabel"))
    content_of = {id(a): (f["content"] if f else 0) for a, _e, f in inspected}
    for i, (ax, entry, facts) in enumerate(inspected, 1):
        if facts is None:
            continue
        label_of = names[id(ax)]

        def warn_ax(code, message, _i=i):
            warn(code, message, _i)

        try:
            if not ax.get_visible():
                continue
            twins = [a for a in ax._twinned_axes.get_siblings(ax) if a is not ax]
            if ax.axison and facts["content"] == 0 and id(ax) not in cbars:
                # A twin that carries only a scale label, or whose twin holds the data
                # (seaborn's pairplot draws its diagonal on a twin).
                secondary = twins and (
                    entry.get("xlabel")
                    or entry.get("ylabel")
                    or any(content_of.get(id(t), 0) > 0 for t in twins)
                )
                if not secondary:
                    warn_ax(
                        "empty-axes",
                        f"{label_of[0].upper()}{label_of[1:]} is empty: nothing was drawn in it; "
                        "plot into it, or hide a spare panel with ax.axis('off').",
                    )
            _pdfagent_check_series(ax, facts, label_of, proxies, warn_ax)
            legend_near = (
                bool(fig_legend)
                or "legend" in entry
                or any(a.get_legend() is not None for a in twins)
            )
            # Series are lines of 3 points or more: boxplots' whiskers, caps and medians
            # (2 points each) are parts of one plot, not series to tell apart.
            series_lines = sum(
                1
                for a, kind, _n, _d in facts["series"]
                if kind == "line" and len(a.get_xdata()) >= 3
            )
            if (
                series_lines > 6
                and not legend_near
                and len(facts["line_styles"]) > 1
                and facts.get("texts", 0) < facts["lines"]
                and id(ax) not in cbars
            ):
                warn_ax(
                    "many-series-no-legend",
                    f"{label_of[0].upper()}{label_of[1:]} has {series_lines} lines and no legend, "
                    "so they cannot be told apart; give each a label= and call ax.legend().",
                )
            _pdfagent_check_labels(ax, entry, facts, sup_x, sup_y, label_of, warn_ax)
        except Exception:  # noqa: BLE001, S112
            continue


def _pdfagent_check_series(ax, facts, label_of, proxies, warn):
    """The per-series rules: no-data, outside-limits, log-nonpositive."""
    found = {"no_data": [], "outside": [], "nonpos": {"x": [], "y": []}}
    rectilinear = facts["name"] == "rectilinear"
    x0 = x1 = y0 = y1 = None
    if rectilinear:
        x0, x1 = sorted(ax.get_xlim())
        y0, y1 = sorted(ax.get_ylim())
    limits = (x0, x1, y0, y1)
    for artist, kind, index, on_data in facts["series"]:
        try:
            _pdfagent_check_one_series(artist, kind, index, on_data, facts, proxies,
                                       rectilinear, limits, found)
        except Exception:  # noqa: BLE001, S112 - an odd artist: no finding for it
            continue
    _pdfagent_series_warnings(label_of, found, limits, warn)


def _pdfagent_check_one_series(artist, kind, index, on_data, facts, proxies, rectilinear,
                               limits, found):
    """One series' findings, added to `found` (no_data, outside, nonpos by axis)."""
    import numpy as np

    no_data, outside, nonpos = found["no_data"], found["outside"], found["nonpos"]
    x0, x1, y0, y1 = limits
    if kind == "scatter" and facts["is3d"]:
        xyz = getattr(artist, "_offsets3d", None)
        if xyz is None:
            return
        arrays = [
            np.asarray(
                np.ma.filled(np.ma.asarray(a, dtype=float), np.nan)
            ).ravel()
            for a in xyz
        ]
        n = min(a.size for a in arrays)
        fin = np.ones(n, bool)
        for a in arrays:
            fin &= np.isfinite(a[:n])
        if not fin.any() and str(artist.get_label()) not in proxies:
            no_data.append(_pdfagent_series_name(artist, kind, index))
        return
    x, y = _pdfagent_series_data(artist, kind)
    fin = np.isfinite(x) & np.isfinite(y)
    if not fin.any():
        label = str(artist.get_label())
        if x.size == 0 and label in proxies:
            return  # an empty line made to be a legend entry
        markers_only = kind == "line" and str(artist.get_linestyle()) in (
            "None",
            "none",
            "",
            " ",
        )
        if x.size == 0 and markers_only:
            return  # no outliers to mark (boxplot fliers), not a missing series
        no_data.append(_pdfagent_series_name(artist, kind, index))
        return
    if not on_data:
        return
    xf, yf = x[fin], y[fin]
    if facts["xscale"] == "log" and (xf <= 0).any():
        nonpos["x"].append(
            (
                _pdfagent_series_name(artist, kind, index),
                int((xf <= 0).sum()),
                xf.size,
            )
        )
    if facts["yscale"] == "log" and (yf <= 0).any():
        nonpos["y"].append(
            (
                _pdfagent_series_name(artist, kind, index),
                int((yf <= 0).sum()),
                yf.size,
            )
        )
    if not rectilinear:
        return
    connected = (
        kind == "line"
        and str(artist.get_linestyle()) not in ("None", "none", "", " ")
        and xf.size > 1
    )
    if connected:
        # A drawn line can cross the view with no point inside it: it is outside
        # only when all of it lies beyond one of the four limits.
        out = (
            (xf < x0).all()
            or (xf > x1).all()
            or (yf < y0).all()
            or (yf > y1).all()
        )
    else:
        out = not ((xf >= x0) & (xf <= x1) & (yf >= y0) & (yf <= y1)).any()
    if out:
        outside.append(_pdfagent_series_name(artist, kind, index))


def _pdfagent_series_warnings(label_of, found, limits, warn):
    """The per-series rules' warnings for one axes, from its series' findings."""
    no_data, outside, nonpos = found["no_data"], found["outside"], found["nonpos"]
    x0, x1, y0, y1 = limits
    if no_data:
        what = ", ".join(no_data[:3]) + (
            f" and {len(no_data) - 3} more" if len(no_data) > 3 else ""
        )
        warn(
            "no-data",
            f"In {label_of}, {what} {'has' if len(no_data) == 1 else 'have'} no finite data "
            "(empty or all NaN/inf), so nothing of it is drawn; check the data you pass to it.",
        )
    if outside:
        what = ", ".join(outside[:3]) + (
            f" and {len(outside) - 3} more" if len(outside) > 3 else ""
        )
        warn(
            "outside-limits",
            f"In {label_of}, {what} {'lies' if len(outside) == 1 else 'lie'} entirely outside the "
            f"view limits (x {_pdfagent_num(x0)}..{_pdfagent_num(x1)}, y {_pdfagent_num(y0)}..{_pdfagent_num(y1)}); "
            "fix or remove the set_xlim/set_ylim calls, or check the data's units.",
        )
    for axis in ("x", "y"):
        found_axis = nonpos[axis]
        if found_axis:
            name, bad, total = found_axis[0]
            more = f" (and {len(found_axis) - 1} more series)" if len(found_axis) > 1 else ""
            warn(
                "log-nonpositive",
                f"In {label_of}, {bad} of {total} {axis} values of {name}{more} are <= 0 and are not "
                f"drawn on the log {axis} axis; plot only positive values, or use "
                f"set_{axis}scale('symlog').",
            )


def _pdfagent_check_labels(ax, entry, facts, sup_x, sup_y, label_of, warn):
    """missing-labels: an axes that draws data (not only reference lines or texts) with an
    x or y axis whose tick labels show numbers nobody named. An axis is named by its own
    label, a shared sibling's, the figure's supxlabel/supylabel; an axis without tick labels
    (hidden, shared inner panels, a pie) needs none, nor one whose tick labels name
    themselves (dates, categories, words); a twin leaves its shared axis to its first axes.
    Polar axes are left out (their labels sit oddly and are seldom set)."""
    if not ax.axison or facts["name"] == "polar" or facts.get("data", 0) == 0:
        return
    missing = []
    for axis, sup in (("x", sup_x), ("y", sup_y)):
        if entry.get("twin_of") and _pdfagent_shared(ax, axis):
            continue
        if (
            sup
            or _pdfagent_sup_labelled(ax, axis)
            or _pdfagent_labelled(ax, axis)
            or not _pdfagent_shows_ticks(ax, axis)
            or _pdfagent_names_itself(ax, axis)
        ):
            continue
        missing.append(axis)
    if not missing:
        return
    name = f"{label_of[0].upper()}{label_of[1:]}"
    what = " or ".join(missing)
    calls = "/".join(f"ax.set_{a}label()" for a in missing)
    message = f"{name} has no {what} label: add {calls} with quantity and unit"
    try:
        if ax.images:
            message += " (or ax.axis('off') for a picture)"
    except Exception:  # noqa: BLE001, S110
        pass
    warn("missing-labels", message + ".")


def _pdfagent_shared(ax, axis):
    """Whether `axis` of `ax` is shared with another axes."""
    try:
        group = ax.get_shared_x_axes() if axis == "x" else ax.get_shared_y_axes()
        return any(other is not ax for other in group.get_siblings(ax))
    except Exception:  # noqa: BLE001
        return False


def _pdfagent_sup_labelled(ax, axis):
    """Whether a subfigure holding `ax` has a supxlabel (supylabel)."""
    try:
        f = ax.get_figure(root=False)
        while f is not None and f is not getattr(f, "_parent", None):
            text = getattr(f, "_supxlabel" if axis == "x" else "_supylabel", None)
            if text is not None and text.get_text().strip():
                return True
            f = getattr(f, "_parent", None)
    except Exception:  # noqa: BLE001, S110
        pass
    return False


def _pdfagent_names_itself(ax, axis):
    """Whether the tick labels of `axis` say what they are: dates, categories, or words
    (set_xticks(..., labels=[...]): a tick label with letters that is no number or
    mathtext, as the last draw left it)."""
    try:
        import matplotlib.dates as mdates

        a = ax.xaxis if axis == "x" else ax.yaxis
        if isinstance(a.get_converter(), (mdates.DateConverter, mdates._SwitchableDateConverter)):
            return True
        if getattr(getattr(a, "units", None), "_mapping", None):
            return True
        for tick in a.get_majorticklabels():
            text = tick.get_text().strip()
            if not text or text.startswith("$") or not any(ch.isalpha() for ch in text):
                continue
            try:
                float(text.replace("\u2212", "-"))
            except ValueError:
                return True
    except Exception:  # noqa: BLE001, S110
        pass
    return False


def _pdfagent_labelled(ax, axis):
    """Whether `axis` ('x' or 'y') of `ax` has a label, its own or a shared sibling's."""
    get = ax.get_xlabel if axis == "x" else ax.get_ylabel
    if get():
        return True
    try:
        group = ax.get_shared_x_axes() if axis == "x" else ax.get_shared_y_axes()
        for other in group.get_siblings(ax):
            if other is not ax and (
                other.get_xlabel() if axis == "x" else other.get_ylabel()
            ):
                return True
    except Exception:  # noqa: BLE001, S110
        pass
    return False


def _pdfagent_shows_ticks(ax, axis):
    """Whether `axis` of `ax` is drawn with tick labels (a label would explain them)."""
    try:
        a = ax.xaxis if axis == "x" else ax.yaxis
        if not a.get_visible():
            return False
        if not len(a.get_majorticklocs()):
            return False
        kw = a._major_tick_kw
        return kw.get("label1On", True) or kw.get("label2On", False)
    except Exception:  # noqa: BLE001
        return True


def _pdfagent_check_cut_text(fig, pixels, tight, data_axes, cbar_axes, names, warn):
    """Text cut off by the figure's edge."""
    # Only for a figure that was drawn: titles and axis labels find their places while
    # drawing, so an undrawn figure's positions say nothing about its image.
    drawn = pixels is not None or getattr(fig.canvas, "renderer", None) is not None
    if not tight and drawn:
        try:
            scale = 1.0
            if pixels is not None and fig.bbox.width > 0:
                scale = pixels.shape[1] / fig.bbox.width
            _pdfagent_check_texts(fig, data_axes, cbar_axes, names, scale, warn)
        except Exception:  # noqa: BLE001, S110
            pass


def _pdfagent_renderer(fig):
    """A renderer for text extents: the Agg canvas's own when it matches the figure's
    current size and dpi (the last draw's, free), else a new blank RendererAgg."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg, RendererAgg

    canvas = fig.canvas
    w, h = (int(v) for v in canvas.get_width_height(physical=True))
    if isinstance(canvas, FigureCanvasAgg) and getattr(canvas, "_lastKey", None) == (
        w,
        h,
        fig.dpi,
    ):
        return canvas.renderer
    if isinstance(canvas, FigureCanvasAgg) and getattr(canvas, "_lastKey", None) is not None:
        # Drawn last at another size or dpi (savefig(dpi=300)): axis labels were placed in
        # that draw's pixels, so their extents now say nothing about this figure's edges.
        return None
    return RendererAgg(w, h, fig.dpi)


def _pdfagent_check_texts(fig, data_axes, cbar_axes, names, scale, warn):
    """text-outside: titles, labels, legends and user texts cut by the figure's edge."""
    renderer = _pdfagent_renderer(fig)
    if renderer is None:
        return
    width, height = fig.bbox.width, fig.bbox.height
    tol = 2.0 / scale  # 2 saved pixels, in figure pixels
    items = []  # (artist, description)

    def text_item(t, kind, owner=""):
        try:
            if t is not None and t.get_visible() and t.get_text().strip():
                text = _pdfagent_trunc(" ".join(t.get_text().split()), 40)
                items.append(
                    (t, f"{kind} '{text}'" + (f" of {owner}" if owner else ""))
                )
        except Exception:  # noqa: BLE001, S110
            pass

    for attr, kind in (
        ("_suptitle", "the suptitle"),
        ("_supxlabel", "the supxlabel"),
        ("_supylabel", "the supylabel"),
    ):
        text_item(getattr(fig, attr, None), kind)
    special = {
        id(getattr(fig, a, None)) for a in ("_suptitle", "_supxlabel", "_supylabel")
    }
    for t in fig.texts:
        if id(t) not in special:
            text_item(t, "the figure text")
    for leg in fig.legends:
        if leg.get_visible():
            items.append((leg, "the figure legend"))
    for ax in list(data_axes) + list(cbar_axes):
        try:
            if not ax.get_visible():
                continue
            owner = names.get(id(ax), "a colorbar")
            for title in (ax.title, ax._left_title, ax._right_title):
                text_item(title, "the title")
            if ax.axison and getattr(ax, "name", "") != "3d":
                # (3-D axis labels are placed by projection while drawing: not checked.)
                for an, a in (("x", ax.xaxis), ("y", ax.yaxis)):
                    if a.get_visible():
                        text_item(a.label, f"the {an} label", owner)
            leg = ax.get_legend()
            # A legend at loc='best' (0) is placed inside its axes: not checked.
            if leg is not None and leg.get_visible() and getattr(leg, "_loc", 0) != 0:
                items.append((leg, f"the legend of {owner}"))
            if (
                getattr(ax, "name", "") != "3d"
            ):  # 3-D texts too are placed while drawing
                for t in ax.texts:
                    if t.get_clip_on() and t.get_clip_box() is not None:
                        continue  # drawn only inside the axes
                    text_item(t, "the text", owner)
        except Exception:  # noqa: BLE001, S112 - an odd axes: no finding for it
            continue
    found = []
    for artist, what in items:
        try:
            bb = artist.get_window_extent(renderer)
        except Exception:  # noqa: BLE001, S112
            continue
        over = {
            "left": -bb.x0,
            "right": bb.x1 - width,
            "bottom": -bb.y0,
            "top": bb.y1 - height,
        }
        side, px = max(over.items(), key=lambda kv: kv[1])
        if px > tol and bb.width > 0 and bb.height > 0:
            found.append((what, side, round(px * scale)))
    if found:
        parts = [
            f"{what} ({px} px past the {side} edge)" for what, side, px in found[:4]
        ]
        if len(found) > 4:
            parts.append(f"{len(found) - 4} more")
        text = "; ".join(parts)
        warn(
            "text-outside",
            f"Text is cut off at the figure's edge: {text}; call "
            "fig.tight_layout() (or use layout='constrained') or save with "
            "plt.savefig(OUT, bbox_inches='tight').",
        )


def _pdfagent_check_blank(pixels, warn):
    """The saved image is one colour."""
    if pixels is not None:
        try:
            flat = pixels.reshape(-1, pixels.shape[2])
            first = flat[0]
            # A sparse sample first: any ordinary figure differs there, and only a figure
            # that might be blank pays for the full comparison.
            if (flat[::997] == first).all() and (flat == first).all():
                warn(
                    "blank",
                    "The saved image is blank (every pixel has the same colour); draw into the "
                    "figure you save, and call plt.savefig(OUT) before plt.close() or plt.show().",
                )
        except Exception:  # noqa: BLE001, S110
            pass

# === the text: the report for models that read text only ==========================================


def _pdfagent_report_text(report):
    """The report as a compact plain-text summary, for models that read text only.

    One line for the figure, one per axes followed by a line per thing it draws, then the
    warnings (or "No warnings."). It stays within a budget (2,000 characters up to four
    axes, a little more per further axes): when the full text is longer, each axes
    describes fewer things, the rest of a kind joined into one line, and at last none."""
    try:
        n = len(report.get("axes") or [])
        budget = min(3900, 2000 + 400 * max(0, n - 4))
        text = ""
        for per_axes in (8, 4, 2, 1, 0):
            text = _pdfagent_report_text_unsafe(report, per_axes)
            if len(text) <= budget:
                break
        return text
    except Exception as exc:  # noqa: BLE001 - a summary must not break a run
        return f"(figure summary unavailable: {type(exc).__name__})"


def _pdfagent_fmt_num(v):
    if v is None:
        return "?"
    if isinstance(v, str):
        return v
    return f"{v:g}"


def _pdfagent_q(text):
    return '"' + " ".join(str(text).split()) + '"'


def _pdfagent_span_text(item, key, name=None):
    """"x 0..10" ("x=2" for one value), or None."""
    span = item.get(key)
    if not span or len(span) != 2:
        return None
    lo, hi = _pdfagent_fmt_num(span[0]), _pdfagent_fmt_num(span[1])
    name = key if name is None else name
    if lo == hi:
        return f"{name}={lo}" if name else lo
    return f"{name} {lo}..{hi}".lstrip()


def _pdfagent_plural(n, word, words=None):
    return f"{n} {word if n == 1 else (words or word + 's')}"


def _pdfagent_item_text(it):
    """One thing an axes draws, as a line: what it is, its label, its size and ranges."""
    kind = it.get("kind")
    count = int(it.get("count") or 1)
    n = it.get("n")
    label = f" {_pdfagent_q(it['label'])}" if it.get("label") else ""
    details = []
    names = {
        "line": ("line", "lines"),
        "errorbar": ("errorbar series", "errorbar series"),
        "scatter": ("scatter", "scatters"),
        "fill": ("filled area", "filled areas"),
        "surface": ("surface", "surfaces"),
        "contour": ("contour lines", "contour sets"),
        "contourf": ("filled contours", "filled contour sets"),
    }
    marks = {
        "hline": ("reference line", "axhline"),
        "vline": ("reference line", "axvline"),
        "axline": ("reference line", "axline"),
        "hspan": ("shaded band", "axhspan"),
        "vspan": ("shaded band", "axvspan"),
    }
    shape = "\u00d7".join(str(v) for v in it.get("shape") or [])
    if kind in marks:
        word, call = marks[kind]
        head = _pdfagent_plural(count, word) if count > 1 else word
        where = _pdfagent_span_text(it, "x") or _pdfagent_span_text(it, "y")
        if it.get("through"):
            x, y = (_pdfagent_fmt_num(v) for v in it["through"])
            where = f"through ({x}, {y})"
            if it.get("slope") is not None:
                where += f", slope {_pdfagent_fmt_num(it['slope'])}"
            elif it.get("x"):
                where += ", vertical"
        return f"{head}{label} {where or ''} ({call})".replace("  ", " ")
    if kind in ("image", "mesh"):
        head = kind if not shape else f"{kind} {shape}"
        if kind == "image" and len(it.get("shape") or []) == 3:
            head = f"{'RGBA' if it['shape'][2] == 4 else 'RGB'} image {shape}"
        if count > 1:
            head = _pdfagent_plural(count, kind, "meshes" if kind == "mesh" else None)
    elif kind == "bars":
        head = _pdfagent_plural(n or 0, "bar") + (f" in {count} sets" if count > 1 else "")
        n = None
    elif kind == "segments":
        head = _pdfagent_plural(n or 0, "line segment")
        n = None
    elif kind == "cells":
        head = f"{_pdfagent_plural(n or 0, 'cell')} coloured by value"
        n = None
    elif kind == "stairs":
        head = f"stairs of {_pdfagent_plural(n or 0, 'step')}"
        n = None
    elif kind in ("contour", "contourf"):
        word = names[kind][0 if count == 1 else 1]
        head = word if count == 1 else f"{count} {word}"
        levels = _pdfagent_span_text(it, "levels", "")
        if n:
            details.append(f"{_pdfagent_plural(n, 'level')} {levels or ''}".rstrip())
        n = None
    else:
        one, many = names.get(kind, (str(kind), f"{kind} items"))
        head = one if count == 1 else f"{count} {many}"
    head += label
    if it.get("errors"):
        head += f" ({' and '.join(it['errors'])} errors)"
    if n is not None:
        details.append(_pdfagent_plural(n, "point"))
    for key in ("x", "y", "z"):
        span = _pdfagent_span_text(it, key)
        if span:
            details.append(span)
    if it.get("nan"):
        details.append(f"{it['nan']} NaN/inf")
    values = _pdfagent_span_text(it, "values", "")
    if values:
        if kind == "bars":
            word = "widths" if it.get("y") and not it.get("x") else "heights"
        elif kind in ("contour", "contourf"):
            word = "data"
        elif kind in ("scatter", "fill", "segments", "surface"):
            word = "colour = values"
        else:
            word = "values"
        # How the values become colours: the colormap, a norm other than linear, and the
        # colour scale's limits when they cut the values.
        scale = [it.get("cmap")]
        if it.get("norm") and it["norm"] != "linear":
            scale.append(f"{it['norm']} norm")
        scale.append(_pdfagent_span_text(it, "clim", "colour limits"))
        scale = ", ".join(v for v in scale if v)
        details.append(f"{word} {values}" + (f" ({scale})" if scale else ""))
    sizes = _pdfagent_span_text(it, "sizes", "marker sizes")
    if sizes:
        details.append(sizes)
    return head + (": " + ", ".join(details) if details else "")


def _pdfagent_report_text_unsafe(report, per_axes=8):
    axes = report.get("axes") or []
    lines = [_pdfagent_report_head(report) + "."]
    for i, a in enumerate(axes, 1):
        lines.append(_pdfagent_report_axes_line(i, a))
        items = a.get("data") or []
        if per_axes and items:
            for it in _pdfagent_cap_items(items, per_axes):
                lines.append(f"  - {_pdfagent_item_text(it)}")
    if report.get("axes_omitted"):
        lines.append(f"... and {report['axes_omitted']} more axes.")
    warnings = report.get("warnings") or []
    if warnings:
        lines.append("Warnings:")
        for w in warnings:
            lines.append(f"- {w.get('code')}: {w.get('message')}")
        if report.get("warnings_omitted"):
            lines.append(f"- and {report['warnings_omitted']} more.")
    else:
        lines.append("No warnings.")
    return "\n".join(lines)


def _pdfagent_report_head(report):
    """The report text's first line: the size, the axes and the figure's own titles,
    legend, colorbar and texts."""
    axes = report.get("axes") or []
    n = len(axes) + int(report.get("axes_omitted") or 0)
    head = f"{report.get('width_px', 0)}\u00d7{report.get('height_px', 0)} px, {n} axes"
    for key, what in (
        ("suptitle", "suptitle"),
        ("supxlabel", "supxlabel"),
        ("supylabel", "supylabel"),
    ):
        if report.get(key):
            head += f", {what} {_pdfagent_q(report[key])}"
    if report.get("legend"):
        head += (
            f", figure legend ({report.get('legend_total', len(report['legend']))}): "
        )
        head += ", ".join(_pdfagent_q(t) for t in report["legend"])
    if report.get("colorbar") is not None and "colorbar" in report:
        head += f", colorbar {_pdfagent_q(report['colorbar'])}"
    if report.get("texts"):
        head += f", {report['texts']} figure text{'s' if report['texts'] != 1 else ''}"
    return head


def _pdfagent_report_axes_line(i, a):
    """One axes' line of the report text (its items follow it)."""
    singular = {
        "lines": "line",
        "scatter": "scatter",
        "bars": "bar",
        "patches": "patch",
        "images": "image",
        "meshes": "mesh",
        "contours": "contour set",
        "surfaces": "surface",
        "collections": "collection",
        "texts": "text",
        "reference_lines": "reference line",
        "spans": "shaded band",
    }
    plural = {
        "reference_lines": "reference lines",
        "spans": "shaded bands",
        "scatter": "scatters",
        "meshes": "meshes",
        "patches": "patches",
        "contours": "contour sets",
    }
    parts = []
    name = f"[{i}]"
    if a.get("position"):
        name += " " + a["position"]
    if a.get("kind"):
        name += f" {a['kind']}"
    if a.get("twin_of"):
        name += f" twin of [{a['twin_of']}]"
    for key in ("title", "title_left", "title_right"):
        if a.get(key):
            name += " " + _pdfagent_q(a[key])
    if a.get("axis") == "off":
        parts.append("axis off")
    for ax_name in ("x", "y", "z"):
        label = a.get(f"{ax_name}label")
        lim = a.get(f"{ax_name}lim")
        if a.get("axis") == "off" and not label:
            continue
        if label is None and lim is None:
            continue
        bit = ax_name
        scale = a.get(f"{ax_name}scale")
        if scale and scale != "linear":
            bit += f" {scale}"
        bit += f" {_pdfagent_q(label)}" if label else " (no label)"
        if lim:
            bit += f" {_pdfagent_fmt_num(lim[0])}..{_pdfagent_fmt_num(lim[1])}"
        parts.append(bit)
    arts = a.get("artists") or {}
    drawn = [
        f"{c} {singular.get(k, k) if c == 1 else plural.get(k, k)}"
        for k, c in arts.items()
    ]
    parts.append(", ".join(drawn) if drawn else "nothing drawn")
    if a.get("legend") is not None:
        total = a.get("legend_total", len(a["legend"]))
        parts.append(
            f"legend ({total}): " + ", ".join(_pdfagent_q(t) for t in a["legend"])
        )
    if "colorbar" in a:
        parts.append(
            f"colorbar {_pdfagent_q(a['colorbar'])}"
            if a["colorbar"]
            else "colorbar"
        )
    return f"{name}: " + "; ".join(parts) + "."

# === the preview: a small image for models that see images ========================================


def _pdfagent_preview(png_bytes, max_side=1000, max_b64_chars=60000):
    """A preview of a PNG figure: (bytes, mime, width, height).

    At most `max_side` pixels on its long side and at most `max_b64_chars` characters once
    base64-encoded. At each size, from the largest down (x0.75 steps), the encodings are
    tried in order of quality: the PNG as it is (full size only), an adaptive-palette PNG
    (fast octree, 256 colours, no dithering: plots have few colours), then JPEG at quality 85, 70, 55;
    the first that fits is returned. If nothing fits even at 32 px, the smallest made is
    returned. Deterministic: the same input gives the same bytes."""
    import io

    from PIL import Image

    def b64_len(n):
        return 4 * ((n + 2) // 3)

    src = Image.open(io.BytesIO(png_bytes))  # reads the header only
    w0, h0 = src.size
    if max(w0, h0) <= max_side and b64_len(len(png_bytes)) <= max_b64_chars:
        # What the first try below would return, without decoding the pixels (~5 ms).
        return bytes(png_bytes), "image/png", w0, h0
    src.load()
    if src.mode not in ("RGB", "RGBA"):
        src = src.convert(
            "RGBA" if "A" in src.getbands() or "transparency" in src.info else "RGB"
        )
    opaque = src.mode == "RGB" or src.getchannel("A").getextrema()[0] == 255
    if opaque and src.mode != "RGB":
        src = src.convert("RGB")
    scale = min(1.0, max_side / max(w0, h0)) if max(w0, h0) > 0 else 1.0
    best = None
    while True:
        w, h = max(1, round(w0 * scale)), max(1, round(h0 * scale))
        img = (
            src if (w, h) == (w0, h0) else src.resize((w, h), Image.Resampling.LANCZOS)
        )
        candidates = []
        if (w, h) == (w0, h0):
            candidates.append(lambda: (bytes(png_bytes), "image/png"))

        def palette(img=img):
            # Fast octree: about 20 ms for 900 x 700 where median cut takes 100, and on
            # plots the smaller file (flat colours stay exact); optimize=True would add
            # ~90 ms for 6 %.
            q = img.quantize(
                256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
            )
            out = io.BytesIO()
            q.save(out, format="PNG")
            return out.getvalue(), "image/png"

        candidates.append(palette)
        flat = img
        if img.mode == "RGBA":
            flat = Image.new("RGB", img.size, (255, 255, 255))
            flat.paste(img, mask=img.getchannel("A"))
        for quality in (85, 70, 55):

            def jpeg(quality=quality, flat=flat):
                out = io.BytesIO()
                flat.save(out, format="JPEG", quality=quality, optimize=True)
                return out.getvalue(), "image/jpeg"

            candidates.append(jpeg)
        for make in candidates:
            data, mime = make()
            if b64_len(len(data)) <= max_b64_chars:
                return data, mime, w, h
            if best is None or len(data) < len(best[0]):
                best = (data, mime, w, h)
        if max(w, h) <= 32:
            return best
        scale *= 0.75
