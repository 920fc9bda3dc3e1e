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
# inspect.py). Only functions named _pdfagent_* sit at the top level (the figure code runs in
# a namespace of its own and gains none of them): _pdfagent_readers() below holds the limits,
# the shared helpers and the table as data (one row per kind of file: its extensions and the
# maker of its readers); each _pdfagent_<kind>_readers(ctx) after it makes one kind's small
# readers. Libraries are imported where they are used, so a figure that never calls load()
# pays nothing for them.


def _pdfagent_readers_context():
    """What the reader makers share (`ctx`): the limits, the refusal, the helpers."""
    from types import SimpleNamespace

    # openpyxl (behind .xlsx here, and behind pd.read_excel in figure code) calls
    # mimetypes.init(), which reads /etc/mime.types and the like: outside the confinement,
    # so a PermissionError. Python's built-in table is all any of them needs.
    import mimetypes

    mimetypes.knownfiles = []

    # --- limits: an inspection reads a file whole only up to WHOLE_BYTES ------------------
    # (a table: TABLE_WHOLE_BYTES, parsed rows cost several times their bytes). Above it, it
    # reads headers and a sample and says so: tables the first SAMPLE_ROWS rows (by the
    # standard library: no pandas) and their row count estimated from the first
    # SAMPLE_BYTES, .xlsx those rows streamed (with only the shared strings they use), .mat
    # v5 each variable's header, .npy its header and first values, JSON a streaming look at
    # its first JSON_SAMPLE_CHARS (keys, first items, counts where they fit). .npz members, v7.3 .mat and .h5 are described from their
    # headers at any size. So a file of any size is described in bounded time and memory;
    # load() has no such limit: the code asked for the data.
    WHOLE_BYTES = 50 << 20
    TABLE_WHOLE_BYTES = 16 << 20
    SAMPLE_ROWS = 10_000
    XLSX_SAMPLE_ROWS = 1000
    SAMPLE_BYTES = 4 << 20
    HDF5_OBJECTS = 5000
    TEXT_CHARS = 6000
    ITEMS = 40
    HEAD_ROWS = 5
    PREVIEW_ROWS, PREVIEW_COLS, CELL_CHARS = 20, 30, 60
    FIRST_VALUES = 8
    OUTLINE_DEPTH, OUTLINE_KEYS, OUTLINE_CHARS = 3, 40, 80
    SNIFF_CHARS = 65536
    JSON_SAMPLE_CHARS = 4 << 20
    JSON_NODES = 2000

    class Refused(Exception):
        """A file the readers will not read; the message says why and what to do."""

    PICKLE_REFUSAL = (
        "the file holds Python objects (a pickle), and loading a pickle runs code; "
        "save plain arrays instead (np.save/np.savez of numeric or string arrays)"
    )

    def cell(value, limit=CELL_CHARS):
        text = str(value)
        return text if len(text) <= limit else text[: limit - 1] + "…"

    limits = SimpleNamespace(ITEMS=ITEMS, HEAD_ROWS=HEAD_ROWS, PREVIEW_ROWS=PREVIEW_ROWS,
                             PREVIEW_COLS=PREVIEW_COLS)

    def about(n):
        """An estimate as a reader should take it: three significant digits."""
        n = max(int(round(n)), 0)
        digits = len(str(n))
        return f"{round(n, 3 - digits) if digits > 3 else n:,}"

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

    SEPARATOR_NAMES = {",": "comma", ";": "semicolon", "\t": "tab", r"\s+": "whitespace"}

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

    return SimpleNamespace(**locals())


def _pdfagent_readers():
    """The reader table: `formats` (extension -> row with `load(path, ext)` and
    `inspect(path, rel, ext, size, say)`), `Refused`, and `inspect(path, rel, want_preview)`.
    Built from the makers below, which share `_pdfagent_readers_context()`."""
    import os
    from types import SimpleNamespace

    ctx = _pdfagent_readers_context()
    HEAD_ROWS, TEXT_CHARS, Refused, cell = ctx.HEAD_ROWS, ctx.TEXT_CHARS, ctx.Refused, ctx.cell

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
    # One row per kind of file: its extensions, the maker of its readers and their name there
    # (`load_<name>`, `inspect_<name>`).
    ROWS = (
        (TABLES, _pdfagent_table_readers, "table"),
        ((".xlsx",), _pdfagent_xlsx_readers, "xlsx"),
        ((".mat",), _pdfagent_mat_readers, "mat"),
        ((".fig",), _pdfagent_fig_readers, "fig"),  # figfile.py
        ((".npy",), _pdfagent_numpy_readers, "npy"),
        ((".npz",), _pdfagent_numpy_readers, "npz"),
        ((".json",), _pdfagent_json_readers, "json"),
        ((".h5", ".hdf5"), _pdfagent_hdf5_readers, "hdf5"),
        (IMAGES, _pdfagent_image_readers, "image"),
    )
    FORMATS, made = {}, {}
    for extensions, maker, name in ROWS:
        if maker not in made:
            made[maker] = maker(ctx)
        readers = made[maker]
        row = SimpleNamespace(load=getattr(readers, "load_" + name),
                              inspect=getattr(readers, "inspect_" + name))
        for extension in extensions:
            FORMATS[extension] = row

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


def _pdfagent_table_readers(ctx):
    """The tables (.csv .tsv .tab .txt .dat): read whole by pandas up to TABLE_WHOLE_BYTES, sampled
    without pandas above it. Its load_* and inspect_* readers, by name."""
    from types import SimpleNamespace

    SEPARATOR_NAMES = ctx.SEPARATOR_NAMES
    TABLE_WHOLE_BYTES = ctx.TABLE_WHOLE_BYTES
    SAMPLE_ROWS = ctx.SAMPLE_ROWS
    SAMPLE_BYTES = ctx.SAMPLE_BYTES
    SNIFF_CHARS = ctx.SNIFF_CHARS
    cell = ctx.cell
    about = ctx.about
    describe_frame = ctx.describe_frame
    table_preview = ctx.table_preview
    limits = ctx.limits

    # --- tables: .csv .tsv .tab .txt .dat ------------------------------------------------
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

    def estimate_rows(path, size, header):
        """A big table's row count from its size and the lines of its first SAMPLE_BYTES:
        (rows, the MiB read). The file is never read further."""
        with open(path, "rb") as f:
            head = f.read(SAMPLE_BYTES)
        lines = head.count(b"\n")
        end = head.rfind(b"\n") + 1
        rows = size * lines / end if lines else 1
        return rows - (1 if header else 0), len(head) / (1 << 20)

    def inspect_table(path, rel, ext, size, say):
        if size > TABLE_WHOLE_BYTES:
            return sample_table(path, rel, ext, size, say)
        frame, sep, header = read_table(path, ext)
        say(f"table: {len(frame)} rows x {len(frame.columns)} columns, {table_layout(sep, header)}; "
            f"{table_how(rel, sep, header)}")
        describe_frame(frame, say)
        return table_preview(frame, sep, header, len(frame))

    def table_how(rel, sep, header):
        return f"read with load({rel!r}) (a pandas DataFrame) or {read_call(rel, sep, header)}"

    def table_layout(sep, header):
        return f"{SEPARATOR_NAMES[sep]}-separated, " + (
            "the first row is the header" if header else "no header row (columns 0, 1, ...)"
        )

    def sample_table(path, rel, ext, size, say):
        """A big table, from its first SAMPLE_ROWS rows read without pandas."""
        first = first_line(path)
        sep = separator(first, ext)
        header = has_header(first, sep)
        columns, dtypes, rows = _pdfagent_csv_sample(path, sep, header, SAMPLE_ROWS)
        estimate, mib = estimate_rows(path, size, header)
        say(
            f"table (large file, sampled): about {about(estimate)} rows (estimated from the "
            f"first {mib:g} MiB) x {len(columns)} columns, {table_layout(sep, header)}; types "
            f"from the first {len(rows)} rows; {table_how(rel, sep, header)}"
        )
        _pdfagent_sample_lines(columns, dtypes, rows, say, limits)
        return _pdfagent_sample_preview(
            columns, dtypes, rows, SEPARATOR_NAMES.get(sep), header, limits, cell
        )

    return SimpleNamespace(load_table=load_table, inspect_table=inspect_table)


def _pdfagent_xlsx_readers(ctx):
    """Excel workbooks (.xlsx): read by pandas/openpyxl, or streamed from their XML parts
    when big (`_pdfagent_sample_xlsx`). Its load_* and inspect_* readers, by name."""
    from types import SimpleNamespace

    TABLE_WHOLE_BYTES = ctx.TABLE_WHOLE_BYTES
    XLSX_SAMPLE_ROWS = ctx.XLSX_SAMPLE_ROWS
    ITEMS = ctx.ITEMS
    cell = ctx.cell
    about = ctx.about
    describe_frame = ctx.describe_frame
    table_preview = ctx.table_preview
    limits = ctx.limits

    # --- Excel: .xlsx --------------------------------------------------------------------
    def read_xlsx(path, nrows=None):
        import pandas as pd

        with pd.ExcelFile(path, engine="openpyxl") as book:
            return book.parse(0, nrows=nrows), book.sheet_names

    def load_xlsx(path, ext):
        return read_xlsx(path)[0]

    def xlsx_is_big(path, size):
        """Whether a workbook is sampled: large, or its parts unpack large (a small file can
        hold a huge shared-string table; the sizes its zip declares bound what is unpacked)."""
        import zipfile

        if size > TABLE_WHOLE_BYTES:
            return True
        with zipfile.ZipFile(path) as book:
            return sum(part.file_size for part in book.infolist()) > 4 * TABLE_WHOLE_BYTES

    def inspect_xlsx(path, rel, ext, size, say):
        big = xlsx_is_big(path, size)
        if big:
            columns, dtypes, rows, sheets, rows_in_sheet = _pdfagent_sample_xlsx(
                path, XLSX_SAMPLE_ROWS
            )
            counted = (
                f"about {about(rows_in_sheet)} rows (the sheet's own dimension)"
                if rows_in_sheet is not None else "rows not counted"
            )
            rows_said = f"(large file, sampled: the first {len(rows)} rows read) {counted}"
        else:
            frame, sheets = read_xlsx(path)
            rows_said, columns = f"{len(frame)} rows", frame.columns
        shown = ", ".join(repr(s) for s in sheets[:ITEMS])
        more = f" and {len(sheets) - ITEMS} more" if len(sheets) > ITEMS else ""
        say(f"Excel workbook, {len(sheets)} sheet(s): {shown}{more}")
        say(
            f"first sheet {sheets[0]!r}: {rows_said} x {len(columns)} columns; read with "
            f"load({rel!r}) (a pandas DataFrame of the first sheet) or "
            f"pd.read_excel({rel!r}, sheet_name=...)"
        )
        if big:
            _pdfagent_sample_lines(columns, dtypes, rows, say, limits)
            return _pdfagent_sample_preview(columns, dtypes, rows, None, True, limits, cell)
        describe_frame(frame, say)
        return table_preview(frame, None, True, len(frame))

    return SimpleNamespace(load_xlsx=load_xlsx, inspect_xlsx=inspect_xlsx)


# A big workbook is read as a stream of its XML parts: the first sheet's first rows,
# then only the shared strings those rows use. openpyxl would load the whole
# shared-string table first, whatever the rows asked for.
def _pdfagent_xml_local(tag):
    return tag.rsplit("}", 1)[-1]


def _pdfagent_xml_elements(stream, names):
    """Each complete element named in `names` (local names) of an XML stream, in order;
    each is dropped from its parent after use, so memory stays bounded however long the
    part is."""
    from xml.etree.ElementTree import iterparse

    stack = []
    for event, elem in iterparse(stream, events=("start", "end")):
        if event == "start":
            stack.append(elem)
            continue
        stack.pop()
        if _pdfagent_xml_local(elem.tag) in names:
            yield elem
            if stack:
                stack[-1].remove(elem)


def _pdfagent_xml_text(elem, skip=("rPh",)):
    """The text of an inline or shared string: its <t> parts, phonetic runs left out."""
    parts = []

    def walk(node):
        if _pdfagent_xml_local(node.tag) in skip:
            return
        if _pdfagent_xml_local(node.tag) == "t" and node.text:
            parts.append(node.text)
        for child in node:
            walk(child)

    walk(elem)
    return "".join(parts)


def _pdfagent_xlsx_first_sheet(book):
    """(the sheet names, the first sheet's part, the shared strings' part or None)."""
    with book.open("xl/workbook.xml") as f:
        sheets = [
            (e.get("name"), next((v for k, v in e.attrib.items() if _pdfagent_xml_local(k) == "id"), None))
            for e in _pdfagent_xml_elements(f, {"sheet"})
        ]
    targets, strings = {}, None
    with book.open("xl/_rels/workbook.xml.rels") as f:
        for e in _pdfagent_xml_elements(f, {"Relationship"}):
            target = e.get("Target", "")
            target = target.lstrip("/") if target.startswith("/") else "xl/" + target
            targets[e.get("Id")] = target
            if e.get("Type", "").endswith("/sharedStrings"):
                strings = target
    if not sheets:
        raise ValueError("the workbook lists no sheets")
    return [name for name, _ in sheets], targets.get(sheets[0][1]), strings


def _pdfagent_xlsx_column_index(ref):
    """0 for 'A1', 27 for 'AB3'."""
    n = 0
    for ch in ref:
        if not ch.isalpha():
            break
        n = n * 26 + ord(ch.upper()) - 64
    return n - 1


def _pdfagent_xlsx_cell_value(c, shared):
    kind = c.get("t", "n")
    if kind == "inlineStr":
        return _pdfagent_xml_text(c)
    v = next((x.text for x in c if _pdfagent_xml_local(x.tag) == "v"), None)
    if v is None:
        return None
    if kind == "s":
        shared.add(int(v))
        return ("shared", int(v))
    if kind == "b":
        return v == "1"
    if kind in ("str", "e"):
        return v
    number = float(v)
    return int(number) if number.is_integer() and "." not in v and "E" not in v.upper() else number


def _pdfagent_sample_xlsx(path, sample_rows):
    """(columns, dtypes, rows) of the first sheet's header and first `sample_rows` rows,
    the sheet names and the sheet's row count from its dimension (None without one)."""
    import zipfile

    with zipfile.ZipFile(path) as book:
        names, sheet, strings = _pdfagent_xlsx_first_sheet(book)
        if sheet is None:
            raise ValueError("the first sheet's part is missing")
        rows, shared, last_row = [], set(), None
        with book.open(sheet) as f:
            for e in _pdfagent_xml_elements(f, {"dimension", "row"}):
                if _pdfagent_xml_local(e.tag) == "dimension":
                    end = e.get("ref", "").split(":")[-1]
                    digits = "".join(ch for ch in end if ch.isdigit())
                    last_row = int(digits) if ":" in e.get("ref", "") and digits else None
                    continue
                row = {}
                for c in e:
                    if _pdfagent_xml_local(c.tag) == "c":
                        row[_pdfagent_xlsx_column_index(c.get("r", "A"))] = _pdfagent_xlsx_cell_value(c, shared)
                rows.append(row)
                if len(rows) > sample_rows:
                    break
        texts = {}
        if shared and strings and strings in book.namelist():
            wanted = max(shared)
            with book.open(strings) as f:
                for i, e in enumerate(_pdfagent_xml_elements(f, {"si"})):
                    if i in shared:
                        texts[i] = _pdfagent_xml_text(e)
                    if i >= wanted:
                        break
    width = max((max(r) + 1 for r in rows if r), default=0)

    def value(v):
        return texts.get(v[1]) if isinstance(v, tuple) else v

    table = [[value(r.get(i)) for i in range(width)] for r in rows]
    header = table[0] if table else []
    columns = [str(h) if h is not None else f"Unnamed: {i}" for i, h in enumerate(header)]
    rows = table[1:]
    dtypes = [_pdfagent_value_type([r[j] for r in rows]) for j in range(width)]
    return columns, dtypes, rows, names, (last_row - 1 if last_row else None)


def _pdfagent_mat_readers(ctx):
    """MATLAB files: v5 by scipy.io (described from each variable's header), v7.3 by h5py.
    Its load_* and inspect_* readers, by name (closures: they hold the table's limits and
    refusal); the stages they call are the `_pdfagent_mat*` functions below."""
    from types import SimpleNamespace

    WHOLE_BYTES = ctx.WHOLE_BYTES
    ITEMS = ctx.ITEMS
    variables = ctx.variables

    def load_mat(path, ext):
        if _pdfagent_mat_version(path) == "7.3":
            return _pdfagent_load_mat73(path)
        from scipy.io import loadmat as scipy_loadmat

        data = scipy_loadmat(path, simplify_cells=True)
        out = {k: v for k, v in data.items() if not k.startswith("__")}
        if "__function_workspace__" in data:
            # MATLAB objects (string, datetime, duration, categorical, table, ...): scipy
            # names them all 'None' and keeps only a reference; mcos.py decodes them.
            mcos = _pdfagent_mcos()
            try:
                objects = mcos.mat_objects(path)
            except mcos.McosError as exc:
                raise ctx.Refused(str(exc)) from None
            if objects and type(out.get("None")).__name__ == "MatlabOpaque":
                del out["None"]
            out.update(objects)
        return out

    def inspect_mat(path, rel, ext, size, say):
        version = _pdfagent_mat_version(path)
        how = (
            f"read with load({rel!r}) (a dict: structs as dicts, cells as lists, 1xN arrays 1-D)"
        )
        if version != "7.3":
            how += f" or loadmat({rel!r})"
        if version == "7.3":
            found, headers = _pdfagent_mat73_variables(path), "from the HDF5 metadata"
        elif version == "5":
            # Headers only at any size: a compressed variable's data can unpack to far more
            # than the file's size.
            found, headers = _pdfagent_mat5_headers(path, 100 * ITEMS), "from each variable's header"
        else:
            found, headers = _pdfagent_mat5_variables(path, size <= WHOLE_BYTES), None
        what = "MATLAB v7.3 (HDF5) file" if version == "7.3" else f"MATLAB v{version} file"
        say(
            f"{what}; {how}; {len(found)} variables "
            f"(name: MATLAB shape, MATLAB class, numpy dtype{'; ' + headers if headers else ''}):"
        )
        if any(v[3] == "object" for v in found):
            say("MATLAB objects come back from load() as data: string -> str (or a list), "
                "datetime -> numpy datetime64[ms] (UTC when zoned), duration -> timedelta64[ms], "
                "categorical -> pandas Categorical, table -> pandas DataFrame, any other class "
                "-> a dict of its properties with 'class'; loadmat() returns no value for them")
        return variables(found, "variables", say)

    return SimpleNamespace(load_mat=load_mat, inspect_mat=inspect_mat)


# --- MATLAB: .mat v5 (scipy.io) and v7.3 (HDF5, h5py) ------------------------------------
def _pdfagent_mat_version(path):
    """The version, "7.3" (HDF5), "5" or "4", from the file's first bytes."""
    hdf5_signature = b"\x89HDF\r\n\x1a\n"
    with open(path, "rb") as f:
        head = f.read(520)
    if head[512:520] == hdf5_signature or head[:8] == hdf5_signature:
        return "7.3"
    return "5" if head[:6] == b"MATLAB" else "4"


def _pdfagent_mat_as_complex(arr):
    names = arr.dtype.names or ()
    if "real" in names and "imag" in names:
        return arr["real"] + 1j * arr["imag"]
    return arr


def _pdfagent_matlab_class(obj):
    cls = obj.attrs.get("MATLAB_class", b"")
    return cls.decode() if isinstance(cls, bytes) else str(cls)


def _pdfagent_load_mat73(path):
    """A v7.3 file's variables as load() returns them (`_pdfagent_mat73_value`)."""
    import h5py

    with h5py.File(path, "r", locking=False) as f:
        return {k: _pdfagent_mat73_value(f, f[k]) for k in f if not k.startswith("#")}


def _pdfagent_mat73_value(f, obj):
    """One HDF5 object of a v7.3 file `f` as MATLAB meant it: arrays transposed back and
    squeezed, char as str, logical as bool, structs as dicts, cells as lists, sparse as
    csc_matrix."""
    import h5py
    import numpy as np

    as_complex = _pdfagent_mat_as_complex
    if isinstance(obj, h5py.Group):
        if "MATLAB_sparse" in obj.attrs:
            from scipy.sparse import csc_matrix

            jc = np.asarray(obj["jc"][()])
            rows = int(obj.attrs["MATLAB_sparse"])
            data = np.asarray(obj["data"][()]) if "data" in obj else np.zeros(0)
            ir = np.asarray(obj["ir"][()]) if "ir" in obj else np.zeros(0, dtype=np.int64)
            return csc_matrix((as_complex(data), ir, jc), shape=(rows, len(jc) - 1))
        return {k: _pdfagent_mat73_value(f, obj[k]) for k in obj if not k.startswith("#")}
    cls = _pdfagent_matlab_class(obj)
    if obj.attrs.get("MATLAB_empty", 0):
        return "" if cls == "char" else np.zeros(0)
    raw = obj[()]
    if h5py.check_ref_dtype(obj.dtype) is not None:
        arr = np.asarray(raw, dtype=object).T
        items = [_pdfagent_mat73_value(f, f[ref]) if ref else None for ref in arr.flat]
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


def _pdfagent_mat_numpy_kind(dtype):
    """What a MATLAB array's values become in load(): a numpy dtype name, or str/cell."""
    if dtype.hasobject:
        return "cell"
    if dtype.kind == "U":
        return "str"
    return str(dtype)


# A v5 file is walked by its own layout (MATLAB's "MAT-File Format", level 5): a 128-byte
# header, then one data element per variable (miMATRIX, or miCOMPRESSED holding one). Only
# each variable's first elements are read: its flags, dimensions and name, a struct's field
# names, an array's first tag (the type its data is stored as, which is what load()
# returns). A compressed variable is unpacked only that far: scipy.io's stream unpacks
# 128 KiB of compressed input at a time, which for zeros is 128 MiB.
def _pdfagent_mat5_tag(stream, order):
    """(type, byte count, the data of a small element or None) of the next element."""
    import struct

    tag = stream.read(8)
    if len(tag) < 8:
        raise ValueError("the file ends inside a variable's header")
    mdtype, count = struct.unpack(order + "II", tag)
    if mdtype >> 16:  # a small element: its type, size and data in these 8 bytes
        return mdtype & 0xFFFF, mdtype >> 16, tag[4 : 4 + (mdtype >> 16)]
    return mdtype, count, None


def _pdfagent_mat5_data(stream, order):
    """(type, data) of the next element of a variable's header."""
    header_bytes = 1 << 20
    mdtype, count, small = _pdfagent_mat5_tag(stream, order)
    if small is not None:
        return mdtype, small
    if count > header_bytes:
        raise ValueError("a variable's header is too large")
    return mdtype, stream.read(count + (-count % 8))[:count]


def _pdfagent_mat5_variable(stream, order):
    """(name, MATLAB shape, class, numpy dtype, struct fields) from a variable's
    miMATRIX element, the stream just past its tag."""
    import struct

    types = {1: "int8", 2: "uint8", 3: "int16", 4: "uint16", 5: "int32", 6: "uint32",
             7: "float32", 9: "float64", 12: "int64", 13: "uint64"}
    classes = {1: "cell", 2: "struct", 3: "object", 4: "char", 5: "sparse", 6: "double",
               7: "single", 8: "int8", 9: "uint8", 10: "int16", 11: "uint16", 12: "int32",
               13: "uint32", 14: "int64", 15: "uint64", 16: "function", 17: "opaque"}
    data = _pdfagent_mat5_data
    _, flags = data(stream, order)
    flags = struct.unpack(order + "I", flags[:4])[0]
    complex_, logical = bool(flags & 0x800), bool(flags & 0x200)
    cls = "logical" if logical else classes.get(flags & 0xFF, "unknown")
    if cls == "opaque":  # a MATLAB object: its name, type system and class, no dims
        name = data(stream, order)[1].decode("latin1")
        data(stream, order)
        cls = data(stream, order)[1].decode("latin1")
        return name, (), cls, "object", None
    _, dims = data(stream, order)
    shape = struct.unpack(f"{order}{len(dims) // 4}i", dims[: len(dims) // 4 * 4])
    _, name = data(stream, order)
    name = name.decode("latin1") or "__function_workspace__"
    dtype = {"char": "str", "cell": "cell"}.get(cls)
    fields = None
    if cls == "struct":
        _, width = data(stream, order)
        width = struct.unpack(order + "i", width[:4])[0]
        _, names = data(stream, order)
        fields = [
            names[i : i + width].split(b"\0", 1)[0].decode("latin1")
            for i in range(0, len(names), width)
        ] if width > 0 else []
    elif cls in ("double", "single", "logical") or cls.startswith(("int", "uint")):
        # scipy.io keeps a logical array's stored type (uint8), as load() returns it.
        stored = types.get(_pdfagent_mat5_tag(stream, order)[0])
        if stored and complex_:
            import numpy as np

            stored = np.result_type(stored, np.complex64).name
        dtype = stored
    return name, shape, cls, dtype, fields


def _pdfagent_mat5_headers(path, most):
    """A v5 file's variables (at most about `most`) from their headers alone (the layout
    above): no variable's data is read, a compressed one's past its first bytes neither."""
    import struct

    matrix, compressed = 14, 15

    class Unpacked:
        """A compressed variable's bytes, unpacked only as far as they are read."""

        def __init__(self, f, count):
            import zlib

            self.f, self.left, self.z, self.buf = f, count, zlib.decompressobj(), b""

        def read(self, n):
            while len(self.buf) < n and not self.z.eof:
                if self.z.unconsumed_tail:
                    data = self.z.unconsumed_tail
                elif self.left > 0:
                    data = self.f.read(min(self.left, 4096))
                    self.left -= len(data)
                    if not data:
                        break
                else:
                    break
                self.buf += self.z.decompress(data, n - len(self.buf))
            out, self.buf = self.buf[:n], self.buf[n:]
            return out

    found = []
    with open(path, "rb") as f:
        f.seek(126)
        order = "<" if f.read(2) == b"IM" else ">"
        f.seek(0, 2)
        end = f.tell()
        position = 128
        while position + 8 <= end and len(found) < most:
            f.seek(position)
            mdtype, count = struct.unpack(order + "II", f.read(8))
            position += 8 + count
            if mdtype == compressed:
                stream = Unpacked(f, count)
                mdtype, _, _ = _pdfagent_mat5_tag(stream, order)
            else:
                stream = f
            if mdtype == matrix:
                found.append(_pdfagent_mat5_variable(stream, order))
    return found


def _pdfagent_mat5_variables(path, read_whole):
    """A v4 file's variables by scipy.io (their values read too when `read_whole`)."""
    from scipy.io import loadmat as scipy_loadmat, whosmat

    values = scipy_loadmat(path) if read_whole else {}
    found = []
    for name, shape, cls in whosmat(path):
        value = values.get(name)
        fields = None
        dtype = None
        if value is not None and value.dtype.names:
            fields = list(value.dtype.names)
        elif value is not None:
            dtype = _pdfagent_mat_numpy_kind(value.dtype)
        found.append((name, shape, cls, dtype, fields))
    return found


def _pdfagent_mat73_variables(path):
    """Names, MATLAB shapes and classes from the HDF5 metadata: no data is read."""
    import h5py
    import numpy as np

    found = []
    with h5py.File(path, "r", locking=False) as f:
        for name in f:
            if name.startswith("#"):
                continue
            obj = f[name]
            cls = _pdfagent_matlab_class(obj) or None
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


def _pdfagent_numpy_readers(ctx):
    """numpy's .npy and .npz (never a pickle), described from their headers. Its load_* and inspect_* readers, by name."""
    from types import SimpleNamespace

    WHOLE_BYTES = ctx.WHOLE_BYTES
    ITEMS = ctx.ITEMS
    FIRST_VALUES = ctx.FIRST_VALUES
    Refused = ctx.Refused
    PICKLE_REFUSAL = ctx.PICKLE_REFUSAL
    cell = ctx.cell
    variables = ctx.variables

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
        """(shape, fortran_order, dtype) from an .npy header: the data is not read."""
        import numpy as np

        fmt = np.lib.format
        version = fmt.read_magic(f)
        read = fmt.read_array_header_1_0 if version == (1, 0) else fmt.read_array_header_2_0
        return read(f)

    def npy_first(f, shape, fortran, dtype):
        """The first FIRST_VALUES values in C order (what array.flat gives), read from the
        file where they lie, the header just read: a few bytes, never the whole array (nor
        a map of it: a map counts against the worker's address-space limit)."""
        import numpy as np

        count = min(FIRST_VALUES, int(np.prod(shape, dtype=np.float64)))
        size = dtype.itemsize
        if count <= 0 or size == 0:
            return []
        start = f.tell()
        offsets = range(count)
        if fortran and len(shape) > 1:
            where = np.unravel_index(np.arange(count), shape)
            offsets = np.ravel_multi_index(where, shape, order="F").tolist()
        values = []
        for i in offsets:
            f.seek(start + i * size)
            raw = f.read(size)
            if len(raw) < size:
                break
            values.append(np.frombuffer(raw, dtype=dtype)[0].tolist())
        return values

    def inspect_npy(path, rel, ext, size, say):
        with open(path, "rb") as f:
            shape, fortran, dtype = npy_header(f)
            if dtype.hasobject:
                say(f"numpy array: shape {tuple(shape)}, dtype {dtype}")
                raise Refused(PICKLE_REFUSAL)
            say(
                f"numpy array; read with load({rel!r}) or np.load({rel!r}): "
                f"shape {tuple(shape)}, dtype {dtype}"
            )
            first = [cell(v) for v in npy_first(f, shape, fortran, dtype)]
        if first:
            say(f"  first values: {', '.join(first)}")
        if size > WHOLE_BYTES:
            say(
                "  (large file, sampled: shape and dtype from the header, the first values "
                "only; min and max not computed)"
            )
        elif first and dtype.kind in "biuf":
            array = np_load(path, mmap_mode="r")
            say(f"  min {array.min().item()!r}, max {array.max().item()!r}")
        shape = [int(n) for n in shape]
        return {"kind": "array", "shape": shape, "dtype": str(dtype), "first": first}

    def inspect_npz(path, rel, ext, size, say):
        import zipfile

        with zipfile.ZipFile(path) as archive:
            names = [n for n in archive.namelist() if n.endswith(".npy")]
            say(
                f"numpy archive; read with load({rel!r}) (a dict of name -> array) or "
                f"np.load({rel!r})[name]; {len(names)} arrays (name: shape dtype, from each "
                "array's header):"
            )
            found = []
            for name in names[:ITEMS]:
                with archive.open(name) as f:  # unpacks the header's bytes only
                    shape, _, dtype = npy_header(f)
                refused = f"refused: {PICKLE_REFUSAL}" if dtype.hasobject else None
                found.append((name[:-4], shape, None, str(dtype), None, refused))
        return variables(found, "arrays", say, total=len(names))

    return SimpleNamespace(load_npy=load_npy, load_npz=load_npz, inspect_npy=inspect_npy, inspect_npz=inspect_npz)


def _pdfagent_json_readers(ctx):
    """JSON: parsed whole up to WHOLE_BYTES, a bounded streaming look above it. Its load_* and inspect_* readers, by name."""
    import json
    from types import SimpleNamespace

    WHOLE_BYTES = ctx.WHOLE_BYTES
    ITEMS = ctx.ITEMS
    OUTLINE_DEPTH = ctx.OUTLINE_DEPTH
    OUTLINE_KEYS = ctx.OUTLINE_KEYS
    OUTLINE_CHARS = ctx.OUTLINE_CHARS
    JSON_SAMPLE_CHARS = ctx.JSON_SAMPLE_CHARS
    JSON_NODES = ctx.JSON_NODES
    cell = ctx.cell

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
            return sample_json(path, rel, say)
        value = load_json(path, ext)
        say(f"JSON; read with load({rel!r}) (the parsed value) or {json_how(rel, value)}. "
            f"Top level: {summary(value)}")
        if isinstance(value, dict):
            for key in list(value)[:ITEMS]:
                say(f"  {key!r}: {summary(value[key])}")
            if len(value) > ITEMS:
                say(f"  ... and {len(value) - ITEMS} more keys")
        elif isinstance(value, list) and value and isinstance(value[0], dict):
            say(f"  first element keys: {list(value[0])[:ITEMS]}")
        return {"kind": "json", "outline": outline(value)}

    def json_how(rel, value):
        return (
            f"pd.read_json({rel!r}, typ='series')" if isinstance(value, dict)
            else f"pd.read_json({rel!r})"
        )

    def sample_json(path, rel, say):
        """A big JSON file, from a streaming look at its first JSON_SAMPLE_BYTES."""
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read(JSON_SAMPLE_CHARS)
        part = _pdfagent_json_sample(text, OUTLINE_DEPTH, ITEMS, JSON_NODES)
        kind = getattr(part, "kind", None)
        what = f"pd.read_json({rel!r}" + (", typ='series')" if kind == "dict" else ")")
        say(
            f"JSON (large file, sampled: the first {len(text) / (1 << 20):g} MiB read, counts "
            f"past them not known); read with load({rel!r}) (the parsed value) or {what}. "
            f"Top level: {_pdfagent_json_part_summary(part)}"
        )
        items = getattr(part, "items", [])
        if kind == "dict":
            for key, value in items[:ITEMS]:
                say(f"  {key!r}: {_pdfagent_json_part_summary(value)}")
            if part.count > ITEMS:
                say(f"  ... and {'at least ' if not part.closed else ''}"
                    f"{part.count - ITEMS} more keys")
        elif kind == "list" and items and getattr(items[0][1], "kind", None) == "dict":
            say(f"  first element keys: {[k for k, _ in items[0][1].items][:ITEMS]}")
        outline_node = _pdfagent_json_part_outline(part, cell, OUTLINE_CHARS)
        return {"kind": "json", "outline": outline_node}

    return SimpleNamespace(load_json=load_json, inspect_json=inspect_json)


def _pdfagent_hdf5_readers(ctx):
    """HDF5 files (.h5 .hdf5), described from their metadata. Its load_* and inspect_* readers, by name."""
    from types import SimpleNamespace

    HDF5_OBJECTS = ctx.HDF5_OBJECTS
    variables = ctx.variables

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
                # A file of very many objects is described from its first ones.
                return True if len(found) >= HDF5_OBJECTS else None

            f.visititems(visit)
        count = f"{len(found)}" if len(found) < HDF5_OBJECTS else f"at least {len(found)}"
        say(
            f"HDF5 file; read with load({rel!r}) (a dict: groups as dicts, datasets as arrays); "
            f"{count} datasets (name: shape dtype, from the HDF5 metadata):"
        )
        return variables(found, "datasets", say)

    return SimpleNamespace(load_hdf5=load_hdf5, inspect_hdf5=inspect_hdf5)


def _pdfagent_image_readers(ctx):
    """Images, decoded by PIL here only; the window shows their bytes itself. Its load_* and inspect_* readers, by name."""
    from types import SimpleNamespace

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

    return SimpleNamespace(load_image=load_image, inspect_image=inspect_image)


# --- the sampled look at big files, without pandas ----------------------------------------
# A big table's description is told from its first rows by the standard library alone:
# importing pandas costs more than reading the sample (measured: most of a big CSV's
# inspection). The types are pandas's for the same rows (what load() gives), the first rows
# are laid out as DataFrame.to_string() lays them out. Small files are still read by pandas.

# pandas.read_csv's default missing values.
def _pdfagent_na_texts():
    return {"", "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan", "1.#IND",
            "1.#QNAN", "<NA>", "N/A", "NA", "NULL", "NaN", "None", "n/a", "nan", "null"}


def _pdfagent_text_type(texts):
    """pandas's dtype for a column of CSV fields: int64, float64, bool, object or str."""
    import re

    na = _pdfagent_na_texts()
    values = [t.strip() for t in texts if t.strip() not in na]
    missing = len(values) < len(texts)
    if not values:
        return "float64" if texts else "object"
    if all(re.fullmatch(r"[+-]?\d+", v) for v in values):
        return "float64" if missing or any(abs(int(v)) >= 1 << 63 for v in values) else "int64"
    if all(re.fullmatch(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?|[+-]?(inf|nan)", v, re.I)
           for v in values):
        return "float64"
    if all(v in ("True", "TRUE", "true", "False", "FALSE", "false") for v in values):
        return "object" if missing else "bool"
    return "str"


def _pdfagent_text_value(text, dtype):
    """A CSV field as load() holds it in a column of `dtype` (None for a missing value)."""
    text = text.strip() if dtype != "str" else text
    if text.strip() in _pdfagent_na_texts():
        return None
    if dtype == "int64":
        return int(text)
    if dtype == "float64":
        return float(text)
    if dtype == "bool":
        return text.lower() == "true"
    return text


def _pdfagent_value_type(values):
    """pandas's dtype for a column of Python values (a DataFrame's, after infer_objects)."""
    present = [v for v in values if v is not None]
    if not present:
        return "object"
    kinds = {type(v) for v in present}
    if kinds == {bool}:
        return "bool" if len(present) == len(values) else "object"
    if kinds <= {int, float}:
        ints = kinds == {int} and len(present) == len(values)
        return "int64" if ints and all(abs(v) < 1 << 63 for v in present) else "float64"
    if kinds == {str}:
        return "str"
    return "object"


def _pdfagent_head_text(columns, rows, dtypes):
    """The first rows as DataFrame.to_string() shows them: an index, each column right-aligned
    under its name, floats with the decimals the column needs (six at most), text cut at
    50 characters (display.max_colwidth)."""
    import math
    shown = []
    for j, dtype in enumerate(dtypes):
        values = [row[j] for row in rows]
        if dtype == "float64":
            texts = ["NaN" if v is None or math.isnan(v) else f"{float(v):.6f}" for v in values]
            numbers = [t for t in texts if "." in t and "e" not in t]
            trim = min((len(t) - len(t.rstrip("0")) for t in numbers), default=0)
            trim = min(trim, 5)
            texts = [t[: len(t) - trim] if t in numbers else t for t in texts]
        else:
            texts = ["NaN" if v is None else str(v) for v in values]
            texts = [t if len(t) <= 50 else t[:47] + "..." for t in texts]
        shown.append(texts)
    index = [str(i) for i in range(len(rows))]
    wide = max((len(i) for i in index), default=0)
    widths = [
        max([len(str(name))] + [len(t) for t in texts]) for name, texts in zip(columns, shown, strict=True)
    ]
    lines = [" " * wide + "".join(f"  {str(n):>{w}}" for n, w in zip(columns, widths, strict=True))]
    for i, name in enumerate(index):
        cells = "".join(f"  {texts[i]:>{w}}" for texts, w in zip(shown, widths, strict=True))
        lines.append(f"{name:<{wide}}{cells}")
    return "\n".join(lines)


def _pdfagent_column_names(header, width, has_header):
    """The column names pandas gives: the header's (empty ones `Unnamed: i`, repeats
    `name.1`), or 0, 1, ... without a header."""
    if not has_header:
        return list(range(width))
    names, seen = [], {}
    for i in range(width):
        name = header[i] if i < len(header) else ""
        name = name if name.strip() else f"Unnamed: {i}"
        base, n = name, seen.get(name, 0)
        while name in seen:
            n += 1
            name = f"{base}.{n}"
        seen[base] = n
        seen[name] = 0
        names.append(name)
    return names


def _pdfagent_csv_sample(path, sep, has_header, nrows):
    """(columns, dtypes, rows of values) of a table's first `nrows` rows, by the standard
    csv module (whitespace-separated: split); blank lines skipped, as pandas skips them."""
    import csv
    import itertools

    with open(path, encoding="utf-8", errors="replace", newline="") as f:
        if sep == r"\s+":
            lines = (line.split() for line in f)
        else:
            lines = csv.reader(f, delimiter=sep)
        lines = (r for r in lines if any(field.strip() for field in r))
        head = next(lines, []) if has_header else None
        texts = list(itertools.islice(lines, nrows))
    if head is None and texts:
        width = len(texts[0])
    else:
        width = len(head or [])
    texts = [(r + [""] * width)[:width] for r in texts]
    columns = _pdfagent_column_names(head or [], width, has_header)
    dtypes = [_pdfagent_text_type([r[j] for r in texts]) for j in range(width)]
    rows = [[_pdfagent_text_value(t, d) for t, d in zip(r, dtypes, strict=True)] for r in texts]
    return columns, dtypes, rows


def _pdfagent_sample_lines(columns, dtypes, rows, say, limits):
    """A sampled table's columns and first rows, said as describe_frame says a DataFrame's."""
    say("columns (name: type):")
    for name, dtype in list(zip(columns, dtypes, strict=True))[: limits.ITEMS]:
        say(f"  {name!r}: {dtype}")
    if len(columns) > limits.ITEMS:
        say(f"  ... and {len(columns) - limits.ITEMS} more columns")
    head = rows[: limits.HEAD_ROWS]
    say(f"first {len(head)} rows:")
    say(_pdfagent_head_text(columns, head, dtypes))


def _pdfagent_sample_preview(columns, dtypes, rows, sep_name, header, limits, cell):
    """The window's table preview of a sample, its cells as a DataFrame's would read."""

    def text(v, dtype):
        if v is None:
            return "nan" if dtype in ("float64", "str") else "None"
        return str(float(v)) if dtype == "float64" else str(v)

    cols = limits.PREVIEW_COLS
    return {
        "kind": "table",
        "separator": sep_name,
        "header": header,
        "columns": [cell(c) for c in columns[:cols]],
        "rows": [
            [cell(text(v, d)) for v, d in list(zip(r, dtypes, strict=True))[:cols]]
            for r in rows[: limits.PREVIEW_ROWS]
        ],
        "rows_total": None,
    }


# --- JSON above the whole-file limit: a bounded streaming look -----------------------------
# The first JSON_SAMPLE_BYTES are scanned: containers keep their first items (a few levels
# deep, a bounded number of nodes in all) and count the rest at C speed (commas between
# structural characters); a container still open where the sample ends has "at least" its
# count. Nothing past the sample is read.


def _pdfagent_json_part(kind):
    from types import SimpleNamespace

    return SimpleNamespace(kind=kind, items=[], count=0, closed=False)


def _pdfagent_json_sample(text, depth_limit, keep, nodes):
    """The sampled value of `text` (a file's first bytes): scalars as Python values,
    containers as parts (kind, items kept as (key, value), count, closed)."""
    import json
    import re

    ws = re.compile(r"[ \t\n\r]*")
    string = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.S)
    scalar = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?|true|false|null")
    structural = re.compile(r'["\[\]{}]')
    decoder = json.JSONDecoder()
    comma = re.compile(r"[ \t\n\r]*,[ \t\n\r]*")
    end = len(text)
    budget = [nodes]

    class Cut(Exception):
        """The sample ends here."""

    def skip_ws(pos):
        pos = ws.match(text, pos).end()
        if pos >= end:
            raise Cut
        return pos

    def rest(part, pos):
        """Count the rest of `part`'s items, keeping none: `pos` is where its next item
        begins (after its opening bracket or a comma). Runs of scalars are counted by their
        commas, string and container items are skipped by json's C scanner. The position
        after its closing bracket."""
        commas = 0
        while True:
            pos = skip_ws(pos)
            try:
                # Items that are strings or containers, one after another.
                while text[pos] in '[{"':
                    pos = decoder.raw_decode(text, pos)[1]
                    after = comma.match(text, pos)
                    if not after or after.end() >= end:
                        break
                    commas += 1
                    pos = after.end()
            except json.JSONDecodeError as exc:
                part.count = part.seen + 1 + commas
                if exc.msg.startswith("Unterminated") or exc.pos >= end - 1:
                    raise Cut from None
                raise ValueError(f"{exc.msg} at character {exc.pos}") from None
            found = structural.search(text, pos)
            stop = found.start() if found else end
            commas += text.count(",", pos, stop)
            part.count = part.seen + 1 + commas
            if not found:
                raise Cut
            if found.group() in "]}":
                part.closed = True
                return stop + 1
            pos = stop

    def value(pos, depth, put):
        pos = skip_ws(pos)
        ch = text[pos]
        if ch in "[{":
            part = _pdfagent_json_part("dict" if ch == "{" else "list")
            put(part)
            return container(part, pos + 1, depth)
        if ch == '"':
            matched = string.match(text, pos)
            if not matched:
                raise Cut
            put(json.loads(matched.group()))
            return matched.end()
        matched = scalar.match(text, pos)
        if not matched or matched.end() >= end:
            raise Cut
        put(json.loads(matched.group()))
        return matched.end()

    def container(part, pos, depth):
        closing = "}" if part.kind == "dict" else "]"
        part.seen = 0
        pos = skip_ws(pos)
        if text[pos] == closing:
            part.closed = True
            return pos + 1
        while True:
            if len(part.items) >= keep or depth >= depth_limit or budget[0] <= 0:
                return rest(part, pos)
            key = None
            if part.kind == "dict":
                pos = skip_ws(pos)
                matched = string.match(text, pos)
                if not matched:
                    raise Cut
                key = json.loads(matched.group())
                pos = skip_ws(matched.end())
                if text[pos] != ":":
                    raise ValueError(f"expected ':' at character {pos}")
                pos += 1
            budget[0] -= 1
            part.seen += 1
            part.count = part.seen
            pos = value(pos, depth + 1, lambda v, key=key: part.items.append((key, v)))
            pos = skip_ws(pos)
            if text[pos] == closing:
                part.closed = True
                return pos + 1
            if text[pos] != ",":
                raise ValueError(f"expected ',' or {closing!r} at character {pos}")
            pos += 1

    root = []
    try:
        pos = value(0, 0, root.append)
        if ws.match(text, pos).end() < end:
            raise ValueError(f"extra data after the value at character {pos}")
    except Cut:
        pass
    if not root:
        raise ValueError("the sample holds no complete JSON value")
    return root[0]


def _pdfagent_json_part_summary(value):
    """What summary() says of a value, for sampled parts: counts and "at least"."""
    if not hasattr(value, "kind"):
        text = repr(value)
        return f"{type(value).__name__} {text[:60]}{'...' if len(text) > 60 else ''}"
    least = "" if value.closed else "at least "
    if value.kind == "dict":
        return f"object with {least}{value.count:,} keys"
    kinds = sorted({v.kind if hasattr(v, "kind") else type(v).__name__ for _, v in value.items})
    kinds = f" ({', '.join(kinds)})" if kinds else (" (empty)" if value.closed else "")
    return f"array of {least}{value.count:,}{kinds}"


def _pdfagent_json_part_outline(value, cell, chars, key="(root)"):
    """The window's outline of a sampled value; an open container has no length."""
    node = {"key": cell(key, chars), "type": getattr(value, "kind", type(value).__name__),
            "len": None, "value": None, "children": []}
    if not hasattr(value, "kind"):
        node["value"] = cell(repr(value), chars)
        return node
    node["len"] = value.count if value.closed else None
    items = value.items if value.kind == "dict" else value.items[:1]
    names = [k if value.kind == "dict" else f"[{i}]" for i, (k, _) in enumerate(items)]
    node["children"] = [
        _pdfagent_json_part_outline(v, cell, chars, name) for name, (_, v) in zip(names, items, strict=True)
    ]
    return node
