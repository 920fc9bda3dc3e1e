"""The inspection of big files (issue #32): how long `describe_data` / the window's preview
takes on each, and the inspection's peak memory — the executable and its worker, the
largest resident set of the process tree (wait4's ru_maxrss).

Run by scripts/bench-inspect with a Python that has numpy, h5py and scipy (the seed-style
baseline's site of the locked packages), which makes the files once into a folder it keeps:
a 2 GiB CSV (repeated blocks), a 1 GiB .npy (a header and a hole), a 4 GiB v7.3 .mat and a
4 GiB .h5 (contiguous datasets allocated but never written: sparse), a v5 .mat whose
compressed zeros unpack to 1 GiB, and an .xlsx whose shared strings unpack to 250 MB.
Prints a markdown table."""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile

GIB = 1 << 30


def make_csv(path):
    block = "".join(
        f"{i * 0.001:.3f},{i % 97},{i / 7:.4f},run{i % 13}\n" for i in range(20000)
    ).encode()
    with open(path, "wb") as f:
        f.write(b"time_s,count,value,label\n")
        written = 0
        while written < 2 * GIB:
            f.write(block)
            written += len(block)


def make_npy(path):
    import numpy as np

    header = {"descr": "<f8", "fortran_order": False, "shape": (GIB // 8,)}
    with open(path, "wb") as f:
        np.lib.format.write_array_header_1_0(f, header)
        f.write(np.arange(8, dtype="<f8").tobytes())
        f.truncate(f.tell() - 64 + GIB)


def sparse_dataset(group, name, shape, dtype):
    """A contiguous dataset allocated in the file at once and never filled: the file has
    its full size, the disk holds a hole."""
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

    with h5py.File(path, "w", userblock_size=512) as f:
        signal = sparse_dataset(f, "signal", (8192, 65536), np.dtype("<f8"))  # 4 GiB
        signal.attrs["MATLAB_class"] = np.bytes_("double")
        meta = f.create_group("meta")
        meta.attrs["MATLAB_class"] = np.bytes_("struct")
        meta.create_dataset("rate", data=np.array([[1000.0]])).attrs["MATLAB_class"] = (
            np.bytes_("double")
        )
    with open(path, "r+b") as f:
        f.write(b"MATLAB 7.3 MAT-file, HDF5 schema 1.00 .".ljust(124) + b"\x00\x02IM")


def make_h5(path):
    import h5py
    import numpy as np

    with h5py.File(path, "w") as f:
        sparse_dataset(f.create_group("scan"), "frames", (1024, 1024, 1024), np.dtype("<f4"))
        f.create_dataset("scan/t", data=np.arange(1024.0))


def make_mat5(path):
    import numpy as np
    from scipy.io import savemat

    savemat(path, {"field": np.zeros((16384, 8192)), "info": {"rate": 1000.0}},
            do_compression=True)


def make_xlsx(path):
    main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    rels = "http://schemas.openxmlformats.org/package/2006/relationships"
    doc = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    n = 800_000
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", '<Types xmlns="http://schemas.openxmlformats.org/'
                   'package/2006/content-types"/>')
        z.writestr("xl/workbook.xml", f'<workbook xmlns="{main}" xmlns:r="{doc}"><sheets>'
                   '<sheet name="Runs" sheetId="1" r:id="rId1"/></sheets></workbook>')
        z.writestr("xl/_rels/workbook.xml.rels", f'<Relationships xmlns="{rels}">'
                   f'<Relationship Id="rId1" Type="{doc}/worksheet" '
                   'Target="worksheets/sheet1.xml"/>'
                   f'<Relationship Id="rId2" Type="{doc}/sharedStrings" '
                   'Target="sharedStrings.xml"/></Relationships>')
        with z.open("xl/sharedStrings.xml", "w", force_zip64=True) as f:
            f.write(f'<sst xmlns="{main}"><si><t>sample</t></si>'.encode())
            for i in range(n):
                f.write(f"<si><t>s{i:07d}-{'x' * 300}</t></si>".encode())
            f.write(b"</sst>")
        with z.open("xl/worksheets/sheet1.xml", "w", force_zip64=True) as f:
            f.write(f'<worksheet xmlns="{main}"><dimension ref="A1:C{n + 1}"/><sheetData>'
                    '<row r="1"><c r="A1" t="inlineStr"><is><t>t</t></is></c>'
                    '<c r="B1" t="inlineStr"><is><t>count</t></is></c>'
                    '<c r="C1" t="s"><v>0</v></c></row>'.encode())
            for i in range(n):
                r = i + 2
                f.write(f'<row r="{r}"><c r="A{r}"><v>{i * 0.5}</v></c><c r="B{r}"><v>{i}</v>'
                        f'</c><c r="C{r}" t="s"><v>{i + 1}</v></c></row>'.encode())
            f.write(b"</sheetData></worksheet>")


def make_small_csv(path):
    with open(path, "w") as f:
        f.write("x,y\n1,2\n3,4\n")


FILES = [
    # name, maker, a phrase the description must hold (it says what it sampled)
    ("small.csv", make_small_csv, "table: 2 rows"),
    ("big.csv", make_csv, "(large file, sampled)"),
    ("big.npy", make_npy, "large file, sampled"),
    ("big73.mat", make_mat73, "from the HDF5 metadata"),
    ("big.h5", make_h5, "from the HDF5 metadata"),
    ("zeros5.mat", make_mat5, "from each variable's header"),
    ("strings.xlsx", make_xlsx, "large file, sampled"),
]


def unpacked(path):
    if path.endswith(".xlsx"):
        with zipfile.ZipFile(path) as z:
            return sum(i.file_size for i in z.infolist())
    if path.endswith("zeros5.mat"):
        return 16384 * 8192 * 8
    return os.path.getsize(path)


def inspect_once(exe, data, name):
    """(seconds, peak resident MiB of the process tree, the description)."""
    with tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(
            [exe, "internal-inspect", "--src", data, "--path", name],
            stdout=subprocess.PIPE, stderr=err,
        )
        out = proc.stdout.read()
        # wait4, not wait: its rusage is this child's tree's (the worker's included).
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        why = err.read().decode(errors="replace")[-300:]
    peak = usage.ru_maxrss / 1024
    if proc.returncode != 0:
        return seconds, peak, "FAILED: " + why
    return seconds, peak, json.loads(out)["text"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--pdfagent", required=True)
    parser.add_argument("--before", help="another build, measured in the same run")
    parser.add_argument("--data", required=True, help="where the files are made (kept)")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    os.makedirs(args.data, exist_ok=True)
    for name, make, _ in FILES:
        path = os.path.join(args.data, name)
        if not os.path.exists(path):
            print(f"bench-inspect: making {name}...", file=sys.stderr)
            make(path + ".part")
            os.rename(path + ".part", path)
    builds = [("after", args.pdfagent)] + ([("before", args.before)] if args.before else [])
    head = "| file | size | unpacked | " + " | ".join(
        f"{label}: median s | {label}: peak MiB" for label, _ in builds
    ) + " |"
    print(head)
    print("|" + "---|" * (3 + 2 * len(builds)))
    failures = []
    for name, _, phrase in FILES:
        path = os.path.join(args.data, name)
        cells = [name, f"{os.path.getsize(path) / (1 << 20):,.0f} MiB",
                 f"{unpacked(path) / (1 << 20):,.0f} MiB"]
        for label, exe in builds:
            # Alternating is unnecessary within one build; the first run warms the cache.
            inspect_once(exe, args.data, name)
            runs = [inspect_once(exe, args.data, name) for _ in range(args.runs)]
            text = runs[-1][2]
            if text.startswith("FAILED"):
                cells += ["failed", "-"]
                failures.append(f"{label} {name}: {text}")
                continue
            if label == "after" and phrase not in text:
                failures.append(f"{name}: no {phrase!r} in the description:\n{text}")
            cells += [f"{statistics.median(r[0] for r in runs):.2f}",
                      f"{max(r[1] for r in runs):.0f}"]
        print("| " + " | ".join(cells) + " |")
    for failure in failures:
        print(f"bench-inspect: {failure}", file=sys.stderr)
    return 1 if any(not f.startswith("before") for f in failures) else 0


if __name__ == "__main__":
    sys.exit(main())
