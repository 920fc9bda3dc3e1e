//! Big files are described from their headers and a sample, never read whole (issue #32):
//! the window's inspection (`internal-inspect`, the call `preview_file` makes; MCP's
//! `describe_data` makes the same one) of a 1 GiB `.npy`, a CSV of a few hundred thousand
//! rows, a v7.3 `.mat` and an `.h5` declaring 4 GiB datasets, a v5 `.mat` whose compressed
//! zeros unpack to 256 MiB, an `.xlsx` whose shared strings unpack to more than 64 MiB and a
//! JSON file above the 50 MB whole-file limit — each succeeds under a 300 MiB address-space
//! cap on the worker, and says what it sampled. A control shows the cap bites: the same worker reading the 1 GiB array whole fails. And
//! `load()` in figure code still returns every row of the big CSV.
//!
//! The files are made cheaply, nothing is committed, by the one maker the bench uses too
//! (`scripts/make-big-files.py`, run by the bundled runtime): the `.npy` files and the HDF5
//! datasets are headers and holes, the CSV and JSON repeated blocks, the `.mat`/`.xlsx` written
//! by the runtime's own scipy and zipfile. Time and peak memory are measured in
//! `scripts/bench-inspect` (docs/bench.md), not here.

#![cfg(target_os = "linux")]

mod security_support;

use security_support::Sandbox;
use serde_json::{Value, json};
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

/// Makes `specs` (`NAME=N`, see `scripts/make-big-files.py`) in `dir` with the maker the bench
/// uses, run by the bundled runtime (the executable's worker path without a confinement plan,
/// so the runtime's numpy, h5py and scipy write the files).
fn make_big_files(dir: &Path, specs: &[&str]) {
    let maker = blackbox::workspace_root().join("scripts/make-big-files.py");
    let mut cmd = blackbox::pdfagent();
    cmd.env("PDFAGENT_PYRUN", maker)
        .env("BIG_FILES_DIR", dir)
        .env("BIG_FILES", specs.join(" "));
    let out = blackbox::run(&mut cmd);
    let printed = String::from_utf8_lossy(&out.stdout);
    let made = |spec: &&str| {
        let name = spec.split('=').next().unwrap_or(spec);
        printed.contains(&format!("made {name}"))
    };
    assert!(
        out.status.success() && specs.iter().all(made),
        "make-big-files failed: {printed}{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Bytes `path` takes on disk (its holes not counted).
fn on_disk(path: &Path) -> u64 {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(path).unwrap().blocks() * 512
}

#[test]
fn a_1_gib_npy_is_described_from_its_header_and_first_values_under_the_cap() {
    let sb = Sandbox::new("big-npy");
    // float64, 2^27 values (1 GiB): the first eight are 0.5, 1.5, ..., 7.5. Fortran order,
    // int32, 4 x 2^26 (1 GiB): the first values in C order (row 0) lie 4 elements apart.
    make_big_files(&sb.src, &["big.npy=134217728", "fortran.npy=67108864"]);
    assert!(on_disk(&sb.src.join("big.npy")) < 1 << 20);

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
    make_big_files(&sb.src, &["big.csv=800000"]);
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
    make_big_files(&sb.src, &["big73.mat=0", "big.h5"]);
    for name in ["big73.mat", "big.h5"] {
        let path = sb.src.join(name);
        assert!(std::fs::metadata(&path).unwrap().len() > 4 << 30);
        assert!(on_disk(&path) < 1 << 20, "{name} is not small on disk");
    }
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
    make_big_files(&sb.src, &["zeros.mat=4096"]);
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
    make_big_files(&sb.src, &["big.xlsx=250000"]);
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

#[test]
fn a_json_file_above_50_mb_is_described_from_a_streaming_look_at_its_start() {
    let sb = Sandbox::new("big-json");
    // {"meta": {3 keys}, "runs": [about 1.4 million small objects], "done": true}, 60 MiB.
    make_big_files(&sb.src, &["big.json=60"]);
    let (text, preview) = inspect_capped(&sb.src, "big.json");
    assert!(
        text.contains("JSON (large file, sampled: the first 4 MiB read"),
        "{text}"
    );
    assert!(
        text.contains("Top level: object with at least 2 keys"),
        "{text}"
    );
    assert!(text.contains("'meta': object with 3 keys"), "{text}");
    // The runs counted in the sample: about 4 MiB / 46 bytes each, never the file's 1.4 M.
    let runs = text
        .split("'runs': array of at least ")
        .nth(1)
        .expect("the runs array");
    let counted: u64 = runs
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == ',')
        .filter(char::is_ascii_digit)
        .collect::<String>()
        .parse()
        .expect("a count");
    assert!((80_000..100_000).contains(&counted), "{text}");
    assert!(runs.contains("(dict)"), "{text}");

    let root = &preview["outline"];
    assert_eq!(
        (&root["type"], &root["len"]),
        (&json!("dict"), &Value::Null)
    );
    let meta = &root["children"][0];
    assert_eq!((&meta["key"], &meta["len"]), (&json!("meta"), &json!(3)));
    assert_eq!(meta["children"][2]["len"], json!(2), "{meta}");
    let first = &root["children"][1]["children"][0];
    assert_eq!(first["key"], "[0]");
    let keys: Vec<&Value> = first["children"]
        .as_array()
        .expect("the first run's keys")
        .iter()
        .map(|c| &c["key"])
        .collect();
    assert_eq!(keys, [&json!("t"), &json!("v"), &json!("label")]);
}
