//! Big files are described from their headers and a sample, never read whole (issue #32):
//! the window's inspection (`internal-inspect`, the call `preview_file` makes; MCP's
//! `describe_data` makes the same one) of a 1 GiB `.npy`, a CSV of a few hundred thousand
//! rows, a v7.3 `.mat` and an `.h5` declaring 4 GiB datasets, a v5 `.mat` whose compressed
//! zeros unpack to 256 MiB and an `.xlsx` whose shared strings unpack to more than 64 MiB —
//! each succeeds under a 300 MiB address-space cap on the worker, and says what it sampled.
//! A control shows the cap bites: the same worker reading the 1 GiB array whole fails. And
//! `load()` in figure code still returns every row of the big CSV.
//!
//! The files are made cheaply, nothing is committed: the `.npy` is a header and a hole
//! (`set_len`), the CSV repeated blocks, the HDF5 datasets chunked and never written, and
//! the `.mat`/`.xlsx` written by the bundled runtime's own scipy and zipfile (a worker, as
//! the security suites run one). Time and peak memory are measured in `scripts/bench-inspect`
//! (docs/bench.md), not here.

#![cfg(target_os = "linux")]

mod security_support;

use security_support::Sandbox;
use serde_json::{Value, json};
use std::io::Write;
use std::path::Path;

/// The worker's memory limit (its address space) for every inspection here, in MiB.
const CAP_MIB: &str = "300";

/// The window's inspection of `rel` under the [`CAP_MIB`] cap: (its text, its preview).
fn inspect_capped(src: &Path, rel: &str) -> (String, Value) {
    let mut cmd = blackbox::pdfagent();
    cmd.args(["internal-inspect", "--memory-mib", CAP_MIB, "--path", rel])
        .arg("--src");
    let out = blackbox::run(cmd.arg(src));
    assert!(
        out.status.success(),
        "inspecting {rel} under a {CAP_MIB} MiB cap failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let answer: Value =
        serde_json::from_slice(&out.stdout).expect("internal-inspect prints one JSON object");
    let text = answer["text"].as_str().expect("a description").to_owned();
    (text, answer["preview"].clone())
}

/// Runs `code` in a worker (Layer 1 bypassed, the bundled runtime's libraries) and moves
/// the files it wrote into its run directory, `names`, into the data folder.
fn make_files(sb: &Sandbox, code: &str, names: &[&str]) {
    let run = sb.worker(code);
    assert!(run.stdout().contains("files written"), "{}", run.output());
    for name in names {
        std::fs::rename(sb.run.join(name), sb.src.join(name)).unwrap();
    }
}

/// An `.npy` header (version 1.0) for `descr`, `fortran` order and `shape`.
fn npy_header(descr: &str, fortran: bool, shape: &str) -> Vec<u8> {
    let fortran = if fortran { "True" } else { "False" };
    let mut dict =
        format!("{{'descr': '{descr}', 'fortran_order': {fortran}, 'shape': {shape}, }}");
    while (10 + dict.len() + 1) % 64 != 0 {
        dict.push(' ');
    }
    dict.push('\n');
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend_from_slice(&u16::try_from(dict.len()).unwrap().to_le_bytes());
    out.extend_from_slice(dict.as_bytes());
    out
}

/// A sparse `.npy`: the header, `values` (little-endian bytes) at their byte offsets into the
/// data, and a hole up to `data_bytes`.
fn sparse_npy(path: &Path, header: &[u8], values: &[(u64, Vec<u8>)], data_bytes: u64) {
    use std::io::{Seek, SeekFrom};
    let mut f = std::fs::File::create(path).unwrap();
    f.write_all(header).unwrap();
    for (offset, bytes) in values {
        f.seek(SeekFrom::Start(header.len() as u64 + offset))
            .unwrap();
        f.write_all(bytes).unwrap();
    }
    f.set_len(header.len() as u64 + data_bytes).unwrap();
}

#[test]
fn a_1_gib_npy_is_described_from_its_header_and_first_values_under_the_cap() {
    let sb = Sandbox::new("big-npy");
    // float64, 2^27 values (1 GiB): the first eight are 0.5, 1.5, ..., 7.5.
    let first: Vec<u8> = (0..8)
        .flat_map(|i| (f64::from(i) + 0.5).to_le_bytes())
        .collect();
    sparse_npy(
        &sb.src.join("big.npy"),
        &npy_header("<f8", false, "(134217728,)"),
        &[(0, first)],
        1 << 30,
    );
    // Fortran order, int32, 4 x 2^26 (1 GiB): the first values in C order (row 0) lie 4
    // elements apart in the file.
    let row0: Vec<(u64, Vec<u8>)> = (0..8u64)
        .map(|j| (j * 4 * 4, (10 + j as i32).to_le_bytes().to_vec()))
        .collect();
    sparse_npy(
        &sb.src.join("fortran.npy"),
        &npy_header("<i4", true, "(4, 67108864)"),
        &row0,
        1 << 30,
    );

    let (text, preview) = inspect_capped(&sb.src, "big.npy");
    assert!(text.contains("shape (134217728,), dtype float64"), "{text}");
    assert!(
        text.contains("first values: 0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5"),
        "{text}"
    );
    assert!(
        text.contains("large file, sampled") && !text.contains("\n  min "),
        "{text}"
    );
    assert_eq!(preview["shape"], json!([134217728]));
    assert_eq!(preview["dtype"], "float64");

    let (text, preview) = inspect_capped(&sb.src, "fortran.npy");
    assert!(text.contains("shape (4, 67108864), dtype int32"), "{text}");
    assert_eq!(
        preview["first"],
        json!(["10", "11", "12", "13", "14", "15", "16", "17"])
    );

    // The control: under the same cap, the worker reading the array whole fails.
    let whole = sb.worker_with(
        "a = np.load(srcpath('big.npy'))\nprint('read whole', a.shape)\n",
        &["--memory", CAP_MIB],
    );
    assert!(
        !whole.stdout().contains("read whole"),
        "the cap did not bite: {}",
        whole.output()
    );
    assert!(whole.output().contains("MemoryError"), "{}", whole.output());
}

/// `count` rows of a CSV with a header, in repeated blocks of 1000 rows.
fn block_csv(path: &Path, count: usize) {
    let block: String = (0..1000)
        .map(|i| {
            format!(
                "{:.3},{},{:.4},run{}\n",
                i as f64 * 0.001,
                i % 97,
                i as f64 / 7.0,
                i % 13
            )
        })
        .collect();
    let mut f = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    f.write_all(b"time_s,count,value,label\n").unwrap();
    for _ in 0..count / 1000 {
        f.write_all(block.as_bytes()).unwrap();
    }
    f.flush().unwrap();
}

/// The number in "about N rows" of a description.
fn about_rows(text: &str) -> f64 {
    let rest = text.split("about ").nth(1).expect("an estimate");
    let number: String = rest
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == ',')
        .filter(char::is_ascii_digit)
        .collect();
    number.parse().expect("a number of rows")
}

#[test]
fn a_big_csv_is_sampled_and_its_rows_estimated_while_load_still_reads_every_row() {
    let sb = Sandbox::new("big-csv");
    let rows = 800_000;
    block_csv(&sb.src.join("big.csv"), rows);
    let (text, preview) = inspect_capped(&sb.src, "big.csv");
    assert!(text.contains("(large file, sampled)"), "{text}");
    assert!(
        text.contains("rows (estimated from the first 4 MiB) x 4 columns"),
        "{text}"
    );
    assert!(text.contains("types from the first 10000 rows"), "{text}");
    let estimate = about_rows(&text);
    assert!(
        (estimate - rows as f64).abs() < rows as f64 * 0.01,
        "estimated {estimate} rows of {rows}: {text}"
    );
    for column in [
        "'time_s': float64",
        "'count': int64",
        "'value': float64",
        "'label': str",
    ] {
        assert!(text.contains(column), "no {column} in {text}");
    }
    assert_eq!(preview["rows_total"], Value::Null);
    assert_eq!(preview["rows"][2], json!(["0.002", "2", "0.2857", "run2"]));

    // Only the description is bounded: load() in figure code reads every row.
    let code = format!(
        "frame = load('big.csv')\nassert len(frame) == {rows}, len(frame)\n\
         print('rows read', len(frame))\n"
    );
    let run = sb.worker(&code);
    assert!(
        run.stdout().contains(&format!("rows read {rows}")),
        "{}",
        run.output()
    );
}

#[test]
fn v73_mat_and_h5_files_declaring_4_gib_are_described_from_their_metadata() {
    let sb = Sandbox::new("big-hdf5");
    let code = r#"
import os

import h5py
import numpy as np

def matlab(obj, cls):
    obj.attrs["MATLAB_class"] = np.bytes_(cls)
    return obj

os.chdir(os.path.dirname(OUT))
with h5py.File("big73.mat", "w", userblock_size=512) as f:
    # 2^16 x 2^13 doubles (4 GiB), stored reversed as MATLAB does; chunked, never written.
    matlab(f.create_dataset("signal", shape=(8192, 65536), dtype="f8", chunks=(64, 1024)), "double")
    meta = matlab(f.create_group("meta"), "struct")
    matlab(meta.create_dataset("rate", data=np.array([[1000.0]])), "double")
    matlab(f.create_dataset("label", data=np.array([[ord(c)] for c in "run 7"], dtype="u2")), "char")
with open("big73.mat", "r+b") as f:
    f.write(b"MATLAB 7.3 MAT-file, Platform: GLNXA64, HDF5 schema 1.00 .".ljust(124) + b"\x00\x02IM")
with h5py.File("big.h5", "w") as f:
    f.create_dataset("scan/frames", shape=(1024, 1024, 1024), dtype="f4", chunks=(1, 256, 256))
    f.create_dataset("scan/t", data=np.arange(1024.0))
print("files written")
"#;
    make_files(&sb, code, &["big73.mat", "big.h5"]);
    assert!(
        std::fs::metadata(sb.src.join("big73.mat")).unwrap().len() < 1 << 20,
        "the test's file is not small on disk"
    );
    let (text, preview) = inspect_capped(&sb.src, "big73.mat");
    assert!(
        text.contains("MATLAB v7.3 (HDF5) file") && text.contains("from the HDF5 metadata"),
        "{text}"
    );
    assert!(
        text.contains("signal: (65536, 8192) double, float64"),
        "{text}"
    );
    assert!(
        text.contains("meta: (1, 1) struct, fields ['rate']"),
        "{text}"
    );
    assert!(text.contains("label: (1, 5) char, str"), "{text}");
    let signal = preview["variables"]
        .as_array()
        .expect("variables")
        .iter()
        .find(|v| v["name"] == "signal")
        .cloned()
        .expect("signal");
    assert_eq!(signal["shape"], json!([65536, 8192]));

    let (text, _) = inspect_capped(&sb.src, "big.h5");
    assert!(
        text.contains("scan/frames: (1024, 1024, 1024) float32"),
        "{text}"
    );
    assert!(text.contains("scan/t: (1024,) float64"), "{text}");
}

#[test]
fn a_v5_mat_whose_compressed_zeros_unpack_to_256_mib_is_described_from_its_headers() {
    let sb = Sandbox::new("big-mat5");
    let code = r#"
import os

from scipy.io import savemat

os.chdir(os.path.dirname(OUT))
savemat("zeros.mat", {
    "field": np.zeros((4096, 8192)),
    "info": {"name": "run 7", "rate": 1000.0},
    "z": np.array([1 + 2j, 3], dtype=np.complex64),
    "counts": np.arange(10, dtype=np.int16),
    "note": "field sweep",
    "ok": np.array([True, False]),
}, do_compression=True)
print("files written")
"#;
    make_files(&sb, code, &["zeros.mat"]);
    assert!(std::fs::metadata(sb.src.join("zeros.mat")).unwrap().len() < 4 << 20);
    let (text, _) = inspect_capped(&sb.src, "zeros.mat");
    assert!(text.contains("from each variable's header"), "{text}");
    for line in [
        "field: (4096, 8192) double, float64",
        "info: (1, 1) struct, fields ['name', 'rate']",
        "z: (1, 2) single, complex64",
        "counts: (1, 10) int16",
        "note: (1, 11) char, str",
        "ok: (1, 2) logical, uint8",
    ] {
        assert!(text.contains(line), "no {line:?} in {text}");
    }
    // What load() returns has the dtypes the description names.
    let run = sb.worker(
        "d = load('zeros.mat')\n\
         print('dtypes', d['field'].dtype, d['z'].dtype, d['counts'].dtype, d['ok'].dtype)\n",
    );
    assert!(
        run.stdout()
            .contains("dtypes float64 complex64 int16 uint8"),
        "{}",
        run.output()
    );
}

#[test]
fn an_xlsx_with_a_huge_shared_string_table_is_streamed_for_its_first_rows() {
    let sb = Sandbox::new("big-xlsx");
    let code = r#"
import os
import zipfile

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
RELS = "http://schemas.openxmlformats.org/package/2006/relationships"
DOC = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
n = 250_000
os.chdir(os.path.dirname(OUT))
with zipfile.ZipFile("big.xlsx", "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("[Content_Types].xml", '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/></Types>')
    z.writestr("_rels/.rels", f'<Relationships xmlns="{RELS}"><Relationship Id="rId1" Type="{DOC}/officeDocument" Target="xl/workbook.xml"/></Relationships>')
    z.writestr("xl/workbook.xml", f'<workbook xmlns="{MAIN}" xmlns:r="{DOC}"><sheets><sheet name="Runs" sheetId="1" r:id="rId1"/><sheet name="Notes" sheetId="2" r:id="rId2"/></sheets></workbook>')
    z.writestr("xl/_rels/workbook.xml.rels", f'<Relationships xmlns="{RELS}"><Relationship Id="rId1" Type="{DOC}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="{DOC}/worksheet" Target="worksheets/sheet2.xml"/><Relationship Id="rId3" Type="{DOC}/sharedStrings" Target="sharedStrings.xml"/></Relationships>')
    z.writestr("xl/worksheets/sheet2.xml", f'<worksheet xmlns="{MAIN}"><sheetData/></worksheet>')
    with z.open("xl/sharedStrings.xml", "w", force_zip64=True) as f:
        f.write(f'<sst xmlns="{MAIN}"><si><t>sample</t></si>'.encode())
        for i in range(n):
            f.write(f"<si><t>s{i:07d}-{'x' * 300}</t></si>".encode())
        f.write(b"</sst>")
    with z.open("xl/worksheets/sheet1.xml", "w", force_zip64=True) as f:
        f.write(f'<worksheet xmlns="{MAIN}"><dimension ref="A1:C{n + 1}"/><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>time_s</t></is></c><c r="B1" t="inlineStr"><is><t>count</t></is></c><c r="C1" t="s"><v>0</v></c></row>'.encode())
        for i in range(n):
            r = i + 2
            f.write(f'<row r="{r}"><c r="A{r}"><v>{i * 0.5}</v></c><c r="B{r}"><v>{i}</v></c><c r="C{r}" t="s"><v>{i + 1}</v></c></row>'.encode())
        f.write(b"</sheetData></worksheet>")
print("files written")
"#;
    make_files(&sb, code, &["big.xlsx"]);
    let (text, preview) = inspect_capped(&sb.src, "big.xlsx");
    assert!(
        text.contains("Excel workbook, 2 sheet(s): 'Runs', 'Notes'"),
        "{text}"
    );
    assert!(
        text.contains(
            "first sheet 'Runs': (large file, sampled: the first 1000 rows read) about 250,000 \
             rows (the sheet's own dimension) x 3 columns"
        ),
        "{text}"
    );
    for column in ["'time_s': float64", "'count': int64", "'sample': str"] {
        assert!(text.contains(column), "no {column} in {text}");
    }
    assert_eq!(preview["columns"], json!(["time_s", "count", "sample"]));
    let third = preview["rows"][2].as_array().expect("a third row");
    assert_eq!((&third[0], &third[1]), (&json!("1.0"), &json!("2")));
    assert!(
        third[2]
            .as_str()
            .is_some_and(|s| s.starts_with("s0000002-xxx")),
        "{third:?}"
    );
    assert_eq!(preview["rows_total"], Value::Null);
}
