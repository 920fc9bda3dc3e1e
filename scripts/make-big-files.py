"""Big data files for the inspection's bench (scripts/bench-inspect.py) and its black-box test
(tests/tests/inspect_big.rs), made cheaply and never committed (issue #32): one maker, so the
two look at the same files.

    python scripts/make-big-files.py DIR NAME=N ...      (numpy, h5py and scipy importable)
    BIG_FILES_DIR=DIR BIG_FILES="NAME=N ..." PDFAGENT_PYRUN=scripts/make-big-files.py pdfagent

The second form runs this file in PDFAgent's bundled runtime, unconfined (a worker process
without a confinement plan): what the bench and the test use, so neither needs a Python of
its own with the packages. NAME picks the maker by its ending (below); N is its size, in the
maker's unit. Each file is written as NAME.part and renamed when complete. Prints one line per
file: "made NAME".

    *.csv        N rows in repeated blocks of 1000 (time_s,count,value,label)
    fortran.npy  an int32 Fortran-order array of 4 x N, row 0 = 10..17 (a header and a hole)
    *.npy        N float64 values, the first eight 0.5 .. 7.5 (a header and a hole)
    *.json       about N MiB: {"meta": {...}, "runs": [{"t": ..., "v": ..., "label": ...}, ...]}
    *.mat        N == 0: a v7.3 file declaring a 4 GiB double (sparse: allocated, never written)
                 N > 0: a v5 file whose compressed zeros are N x 8192 doubles, beside a struct,
                 complex, integer, char and logical variable
    *.h5         a 1024^3 float32 dataset (4 GiB, sparse) and a small one
    *.xlsx       two sheets; the first of N rows whose shared strings unpack to N x 310 bytes
"""

import os
import sys
import zipfile


def make_csv(path, rows):
    block = "".join(
        f"{i * 0.001:.3f},{i % 97},{i / 7:.4f},run{i % 13}\n" for i in range(1000)
    ).encode()
    with open(path, "wb") as f:
        f.write(b"time_s,count,value,label\n")
        for _ in range(rows // 1000):
            f.write(block)


def npy_sparse(path, descr, fortran, shape, values):
    """An .npy header, `values` ((element index, bytes)) and a hole to the data's end."""
    import numpy as np

    header = {"descr": descr, "fortran_order": fortran, "shape": shape}
    with open(path, "wb") as f:
        np.lib.format.write_array_header_1_0(f, header)
        start = f.tell()
        itemsize = np.dtype(descr).itemsize
        for index, raw in values:
            f.seek(start + index * itemsize)
            f.write(raw)
        f.truncate(start + int(np.prod(shape)) * itemsize)


def make_npy(path, count):
    import numpy as np

    first = np.arange(8, dtype="<f8") + 0.5
    npy_sparse(path, "<f8", False, (count,), [(0, first.tobytes())])


def make_fortran_npy(path, count):
    import numpy as np

    # Row 0 of a 4-row array in Fortran order: its values lie 4 elements apart.
    row0 = [(4 * j, np.int32(10 + j).tobytes()) for j in range(8)]
    npy_sparse(path, "<i4", True, (4, count), row0)


def make_json(path, mib):
    meta = '{"meta": {"instrument": "sweep", "rate": 1000.0, "tags": ["a", "b"]}, "runs": ['
    block = ", ".join(
        f'{{"t": {i * 0.001:.3f}, "v": {i / 7:.4f}, "label": "run{i % 13}"}}' for i in range(1000)
    ).encode()
    with open(path, "wb") as f:
        f.write(meta.encode())
        f.write(block)
        while f.tell() < mib << 20:
            f.write(b", " + block)
        f.write(b"], \"done\": true}")


def sparse_dataset(group, name, shape, dtype):
    """A contiguous dataset allocated in the file at once and never filled: the file has its
    full size, the disk holds a hole."""
    import h5py

    dcpl = h5py.h5p.create(h5py.h5p.DATASET_CREATE)
    dcpl.set_alloc_time(h5py.h5d.ALLOC_TIME_EARLY)
    dcpl.set_fill_time(h5py.h5d.FILL_TIME_NEVER)
    space = h5py.h5s.create_simple(shape)
    kind = h5py.h5t.py_create(dtype)
    return h5py.Dataset(h5py.h5d.create(group.id, name.encode(), kind, space, dcpl=dcpl))


def make_mat73(path):
    import h5py
    import numpy as np

    def matlab(obj, cls):
        obj.attrs["MATLAB_class"] = np.bytes_(cls)
        return obj

    with h5py.File(path, "w", userblock_size=512) as f:
        # 2^16 x 2^13 doubles (4 GiB), stored reversed as MATLAB does.
        matlab(sparse_dataset(f, "signal", (8192, 65536), np.dtype("<f8")), "double")
        meta = matlab(f.create_group("meta"), "struct")
        matlab(meta.create_dataset("rate", data=np.array([[1000.0]])), "double")
        label = np.array([[ord(c)] for c in "run 7"], dtype="u2")
        matlab(f.create_dataset("label", data=label), "char")
    with open(path, "r+b") as f:
        f.write(b"MATLAB 7.3 MAT-file, HDF5 schema 1.00 .".ljust(124) + b"\x00\x02IM")


def make_mat5(path, rows):
    import numpy as np
    from scipy.io import savemat

    savemat(path, {
        "field": np.zeros((rows, 8192)),
        "info": {"name": "run 7", "rate": 1000.0},
        "z": np.array([1 + 2j, 3], dtype=np.complex64),
        "counts": np.arange(10, dtype=np.int16),
        "note": "field sweep",
        "ok": np.array([True, False]),
    }, do_compression=True)


def make_mat(path, rows):
    return make_mat5(path, rows) if rows else make_mat73(path)


def make_h5(path, _):
    import h5py
    import numpy as np

    with h5py.File(path, "w") as f:
        sparse_dataset(f.create_group("scan"), "frames", (1024, 1024, 1024), np.dtype("<f4"))
        f.create_dataset("scan/t", data=np.arange(1024.0))


def make_xlsx(path, rows):
    main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    rels = "http://schemas.openxmlformats.org/package/2006/relationships"
    doc = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    kinds = "http://schemas.openxmlformats.org/package/2006/content-types"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", f'<Types xmlns="{kinds}"><Default Extension="rels" '
                   'ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
                   '<Default Extension="xml" ContentType="application/xml"/></Types>')
        z.writestr("_rels/.rels", f'<Relationships xmlns="{rels}"><Relationship Id="rId1" '
                   f'Type="{doc}/officeDocument" Target="xl/workbook.xml"/></Relationships>')
        z.writestr("xl/workbook.xml", f'<workbook xmlns="{main}" xmlns:r="{doc}"><sheets>'
                   '<sheet name="Runs" sheetId="1" r:id="rId1"/>'
                   '<sheet name="Notes" sheetId="2" r:id="rId2"/></sheets></workbook>')
        z.writestr("xl/_rels/workbook.xml.rels", f'<Relationships xmlns="{rels}">'
                   f'<Relationship Id="rId1" Type="{doc}/worksheet" Target="worksheets/sheet1.xml"/>'
                   f'<Relationship Id="rId2" Type="{doc}/worksheet" Target="worksheets/sheet2.xml"/>'
                   f'<Relationship Id="rId3" Type="{doc}/sharedStrings" Target="sharedStrings.xml"/>'
                   '</Relationships>')
        z.writestr("xl/worksheets/sheet2.xml", f'<worksheet xmlns="{main}"><sheetData/></worksheet>')
        with z.open("xl/sharedStrings.xml", "w", force_zip64=True) as f:
            f.write(f'<sst xmlns="{main}"><si><t>sample</t></si>'.encode())
            for i in range(rows):
                f.write(f"<si><t>s{i:07d}-{'x' * 300}</t></si>".encode())
            f.write(b"</sst>")
        with z.open("xl/worksheets/sheet1.xml", "w", force_zip64=True) as f:
            f.write(f'<worksheet xmlns="{main}"><dimension ref="A1:C{rows + 1}"/><sheetData>'
                    '<row r="1"><c r="A1" t="inlineStr"><is><t>time_s</t></is></c>'
                    '<c r="B1" t="inlineStr"><is><t>count</t></is></c>'
                    '<c r="C1" t="s"><v>0</v></c></row>'.encode())
            for i in range(rows):
                r = i + 2
                f.write(f'<row r="{r}"><c r="A{r}"><v>{i * 0.5}</v></c><c r="B{r}"><v>{i}</v>'
                        f'</c><c r="C{r}" t="s"><v>{i + 1}</v></c></row>'.encode())
            f.write(b"</sheetData></worksheet>")


def maker(name):
    if name == "fortran.npy":
        return make_fortran_npy
    makers = {".csv": make_csv, ".npy": make_npy, ".json": make_json, ".mat": make_mat,
              ".h5": make_h5, ".xlsx": make_xlsx}
    ext = os.path.splitext(name)[1]
    if ext not in makers:
        raise SystemExit(f"make-big-files: no maker for {name!r} (endings: {sorted(makers)})")
    return makers[ext]


def main(folder, specs):
    for spec in specs:
        name, _, size = spec.partition("=")
        make = maker(name)
        path = os.path.join(folder, name)
        make(path + ".part", int(size or 0))
        os.replace(path + ".part", path)
        print(f"made {name}", flush=True)


if __name__ == "__main__":
    if len(sys.argv) > 1:
        main(sys.argv[1], sys.argv[2:])
    else:
        main(os.environ["BIG_FILES_DIR"], os.environ["BIG_FILES"].split())
