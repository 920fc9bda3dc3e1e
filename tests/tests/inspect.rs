//! The one inspection of a data file (`pipeline::data::inspect`), through the release
//! executable and its embedded runtime:
//! - the window's path (`internal-inspect`: the call `preview_file` makes, printed as the
//!   window receives it) and MCP's `describe_data` say the same, word for word, for every
//!   kind of file the reader table reads, and the window also gets its structured preview;
//! - the fixtures' descriptions match the snapshots in `tests/fixtures/descriptions/`, which
//!   the MCP and E2E suites compare their own texts with (`PDFAGENT_BLESS=1` rewrites them);
//! - the one separator guess gives `load()` in figure code and the inspection the same
//!   columns.

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

/// How long one MCP session or inspection may take before the test gives up.
const LIMIT: Duration = Duration::from_secs(240);

fn fixtures() -> PathBuf {
    blackbox::workspace_root().join("tests/fixtures")
}

/// Small files of the kinds the example data lacks, by name.
const EXTRA: &[(&str, &str)] = &[
    ("semicolon.csv", "x;y\n1,5;2,5\n3,5;4,5\n"),
    ("tabbed.tsv", "x\ty\n1\t2\n3\t4\n"),
    ("spaces.txt", "  1.0   2.0\n  3.0 4.0\n"),
    ("numbers.dat", "t v\n0 1\n1 2\n2 4\n"),
    ("notes.md", "# run 42\nfield sweep at 2 K\n"),
];

/// A data folder with the example data, the checked-in fixtures and [`EXTRA`].
fn data_folder() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temporary data folder");
    let root = blackbox::workspace_root();
    let examples = root.join("examples/data");
    for entry in std::fs::read_dir(&examples).expect("examples/data exists") {
        let path = entry.expect("an entry of examples/data").path();
        let name = path.file_name().expect("a file name");
        std::fs::copy(&path, dir.path().join(name)).expect("copy the example data");
    }
    for name in ["v73.mat", "sheet.xlsx"] {
        std::fs::copy(fixtures().join(name), dir.path().join(name)).expect("copy a fixture");
    }
    std::fs::copy(
        root.join("docs/cjk-example.png"),
        dir.path().join("picture.png"),
    )
    .expect("copy an image");
    for (name, text) in EXTRA {
        std::fs::write(dir.path().join(name), text).expect("write a data file");
    }
    dir
}

/// The window's inspection of `rel`: what `preview_file` returns, as JSON.
fn window_inspect(src: &Path, rel: &str) -> Value {
    let mut cmd = blackbox::pdfagent();
    cmd.args(["internal-inspect", "--path", rel]).arg("--src");
    let out = blackbox::run(cmd.arg(src));
    assert!(
        out.status.success(),
        "internal-inspect {rel} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("internal-inspect prints one JSON object")
}

/// `describe_data` for each of `paths`, in one MCP session over stdio (JSON-RPC lines, as a
/// client sends them): each answer's text and whether it is an error.
fn mcp_describe(src: &Path, paths: &[&str]) -> Vec<(String, bool)> {
    let figures = tempfile::tempdir().expect("a figures folder");
    let mut server = blackbox::pdfagent()
        .arg("mcp")
        .arg("--src")
        .arg(src)
        .arg("--figures")
        .arg(figures.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start `pdfagent mcp`");
    let mut stdin = server.stdin.take().expect("piped stdin");
    let stdout = server.stdout.take().expect("piped stdout");
    let (tx, lines) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut messages = vec![
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "inspect-test", "version": "1"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    ];
    for (id, path) in (1..).zip(paths) {
        messages.push(json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": "describe_data", "arguments": {"path": path}}}));
    }
    for message in messages {
        writeln!(stdin, "{message}").expect("write to the MCP server");
    }
    stdin.flush().expect("flush");
    let mut answers = vec![None; paths.len()];
    let deadline = std::time::Instant::now() + LIMIT;
    while answers.iter().any(Option::is_none) {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        let line = lines
            .recv_timeout(left)
            .expect("the MCP server answered every call in time");
        let Ok(reply) = serde_json::from_str::<Value>(&line) else {
            continue;
        };
        let Some(id) = reply["id"].as_u64().filter(|&id| id > 0) else {
            continue;
        };
        let result = &reply["result"];
        let text = result["content"][0]["text"].as_str().unwrap_or_default();
        answers[id as usize - 1] = Some((text.to_owned(), result["isError"] == true));
    }
    drop(stdin);
    let _ = server.wait();
    answers.into_iter().flatten().collect()
}

/// Every kind of file: its name | the window's preview kind | a phrase of its description.
const CASES: &str = "\
bands.csv       | table     | table: 61 rows x 4 columns, comma-separated
semicolon.csv   | table     | semicolon-separated, the first row is the header
tabbed.tsv      | table     | tab-separated
spaces.txt      | table     | whitespace-separated, no header row
numbers.dat     | table     | pd.read_csv('numbers.dat', sep='\\\\s+')
sheet.xlsx      | table     | Excel workbook, 1 sheet(s): 'Sheet1'
field_sweep.mat | variables | Rxx_ohm: (3, 181) single, float32
v73.mat         | variables | MATLAB v7.3 (HDF5) file
spectrum.npy    | array     | shape (2, 301), dtype float32
meta.json       | json      | 'sample': str 'FeSe-07'
picture.png     | image     | PNG image
notes.md        | none      | text file of an unknown format";

#[test]
fn the_window_and_mcp_describe_every_kind_of_file_in_the_same_words() {
    let data = data_folder();
    let cases: Vec<Vec<&str>> = CASES
        .lines()
        .map(|l| l.split(" | ").map(str::trim).collect())
        .collect();
    let paths: Vec<&str> = cases.iter().map(|c| c[0]).collect();
    let mcp = mcp_describe(data.path(), &paths);
    for (case, (mcp_text, is_error)) in cases.iter().zip(mcp) {
        let (rel, kind, phrase) = (case[0], case[1], case[2]);
        let window = window_inspect(data.path(), rel);
        let text = window["text"].as_str().expect("a description");
        assert!(!is_error, "describe_data {rel} failed: {mcp_text}");
        assert_eq!(text, mcp_text, "the window and MCP differ on {rel}");
        assert!(
            text.starts_with(&format!("{rel}: ")),
            "{rel} first names itself:\n{text}"
        );
        assert!(text.contains(phrase), "{rel}: no {phrase:?} in:\n{text}");
        assert_eq!(window["preview"]["kind"], kind, "{rel}: {window}");
        assert!(
            !text.contains(&*data.path().to_string_lossy()),
            "{rel}: the description shows the folder's absolute path:\n{text}"
        );
    }
}

#[test]
fn the_window_gets_the_structured_preview_of_what_load_returns() {
    let data = data_folder();
    let mat = window_inspect(data.path(), "field_sweep.mat");
    let vars = mat["preview"]["variables"].as_array().expect("variables");
    let rxx = vars
        .iter()
        .find(|v| v["name"] == "Rxx_ohm")
        .expect("Rxx_ohm");
    assert_eq!(rxx["shape"], json!([3, 181]));
    assert_eq!(
        (&rxx["class"], &rxx["dtype"]),
        (&json!("single"), &json!("float32"))
    );
    let v73 = window_inspect(data.path(), "v73.mat");
    let names: Vec<&str> = v73["preview"]["variables"]
        .as_array()
        .expect("variables")
        .iter()
        .filter_map(|v| v["name"].as_str())
        .collect();
    assert_eq!(names, ["c", "flags", "label", "m", "s", "x", "z"]);
    let sheet = window_inspect(data.path(), "sheet.xlsx");
    assert_eq!(sheet["preview"]["columns"], json!(["x", "y"]));
    assert_eq!(sheet["preview"]["rows"][4], json!(["1.0", "1.0"]));
    assert_eq!(sheet["preview"]["rows_total"], 5);
    let npy = window_inspect(data.path(), "spectrum.npy");
    assert_eq!(npy["preview"]["shape"], json!([2, 301]));
    assert_eq!(npy["preview"]["first"][0], "400.0");
    let picture = window_inspect(data.path(), "picture.png");
    assert!(
        picture["preview"]["width"].as_u64() > Some(100),
        "{picture}"
    );
    let meta = window_inspect(data.path(), "meta.json");
    assert_eq!(meta["preview"]["outline"]["children"][0]["key"], "sample");
}

#[test]
fn the_fixture_descriptions_match_their_snapshots() {
    let data = data_folder();
    let names = ["v73.mat", "sheet.xlsx"];
    let mcp = mcp_describe(data.path(), &names);
    for (name, (mcp_text, _)) in names.iter().zip(mcp) {
        let text = window_inspect(data.path(), name)["text"]
            .as_str()
            .expect("a description")
            .to_owned();
        assert_eq!(text, mcp_text, "the window and MCP differ on {name}");
        let snapshot = fixtures().join("descriptions").join(format!("{name}.txt"));
        blackbox::assert_snapshot(&snapshot, &format!("{text}\n"), "inspect");
    }
}

#[test]
fn one_separator_guess_gives_load_and_the_inspection_the_same_columns() {
    // (file, text, separator, header): the guess from the first non-empty line.
    let cases: &[(&str, &str, &str, bool)] = &[
        ("comma.csv", "x,y\n1,2\n", "comma", true),
        ("decimal_comma.csv", "x;y\n1,5;2,5\n", "semicolon", true),
        ("tabbed.tsv", "x y\tz\n1 2\t3\n", "tab", true),
        ("tab_first.txt", "\n\na\tb,c\n1\t2\n", "tab", true),
        ("comma.txt", "1,2\n3,4\n", "comma", false),
        ("semicolon.txt", "a;b\n1;2\n", "semicolon", true),
        (
            "spaces.txt",
            "  1.0   2.0\n  3.0 4.0\n",
            "whitespace",
            false,
        ),
        ("named.dat", "t v\n0 1\n", "whitespace", true),
        ("quoted.csv", "\"1\",\"2\"\n3,4\n", "comma", false),
        ("tabbed.tab", "p\tq\n1\t2\n", "tab", true),
    ];
    let data = tempfile::tempdir().unwrap();
    for (name, text, _, _) in cases {
        std::fs::write(data.path().join(name), text).unwrap();
    }
    let mut checks = String::new();
    for (name, _, separator, header) in cases {
        let preview = &window_inspect(data.path(), name)["preview"];
        assert_eq!(preview["kind"], "table", "{name}: {preview}");
        assert_eq!(preview["separator"], *separator, "{name}: {preview}");
        assert_eq!(preview["header"], *header, "{name}: {preview}");
        // Figure code's load() must read the same columns the inspection showed.
        checks.push_str(&format!(
            "got = [str(c) for c in load({name:?}).columns]\nassert got == {}, ({name:?}, got)\n",
            preview["columns"]
        ));
    }
    checks.push_str("plt.plot([0, 1])\nplt.savefig(OUT)\n");
    let code = data.path().join("check.py");
    std::fs::write(&code, checks).unwrap();
    let figures = tempfile::tempdir().unwrap();
    let out = blackbox::run(
        Command::new(blackbox::pdfagent_bin())
            .arg("make-figure")
            .arg("--src")
            .arg(data.path())
            .arg("--name")
            .arg("columns")
            .arg("--code")
            .arg(&code)
            .arg("--figures")
            .arg(figures.path())
            .arg("--json"),
    );
    let result: Value = serde_json::from_slice(&out.stdout).expect("make-figure prints JSON");
    assert_eq!(
        out.status.code(),
        Some(0),
        "load() read other columns: {result}"
    );
}
