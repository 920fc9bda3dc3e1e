//! `pdfagent check` as a user runs it: exit codes, text and JSON output, standard input.
//! Needs the release build (`cargo build --release`).

use blackbox::{pdfagent, run, workspace_root};
use std::io::Write;
use std::process::{Command, Stdio};

fn corpus(rel: &str) -> String {
    workspace_root()
        .join("tests/corpus")
        .join(rel)
        .to_string_lossy()
        .into_owned()
}

fn json(stdout: &[u8]) -> serde_json::Value {
    serde_json::from_slice(stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not one JSON object ({e}): {}",
            String::from_utf8_lossy(stdout)
        )
    })
}

fn with_stdin(args: &[&str], input: &[u8]) -> std::process::Output {
    let mut child = pdfagent()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start pdfagent");
    child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(input)
        .expect("write the code to stdin");
    child.wait_with_output().expect("wait for pdfagent")
}

#[test]
fn accepted_code_exits_0_and_prints_ok() {
    let out = run(pdfagent().args(["check", "--code", &corpus("legit/01_basic_line.py")]));
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "ok");

    let out = run(pdfagent().args(["check", "--json", "--code", &corpus("legit/23_loadmat.py")]));
    assert_eq!(out.status.code(), Some(0));
    let v = json(&out.stdout);
    assert_eq!(v["ok"], true);
    assert_eq!(v["errors"].as_array().map(Vec::len), Some(0));
}

#[test]
fn rejected_code_exits_1_with_instructions() {
    let out = run(pdfagent().args(["check", "--code", &corpus("malicious/01_os_system.py")]));
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("2:8 import-not-allowed"), "{text}");
    assert!(text.contains("3:1 blocked-name"), "{text}");
    assert!(
        text.contains("plt.savefig(OUT)") && text.contains("srcpath('file')"),
        "{text}"
    );
}

#[test]
fn json_rejection_lists_every_violation_sorted() {
    let out = run(pdfagent().args([
        "check",
        "--json",
        "--code",
        &corpus("malicious/06_subclasses.py"),
    ]));
    assert_eq!(out.status.code(), Some(1));
    let v = json(&out.stdout);
    assert_eq!(v["ok"], false);
    let errors = v["errors"].as_array().expect("errors is an array");
    let cols: Vec<u64> = errors.iter().filter_map(|e| e["col"].as_u64()).collect();
    assert_eq!(cols, [4, 14, 27]);
    for e in errors {
        assert_eq!(e["line"], 2);
        assert_eq!(e["rule"], "private-attribute");
        assert!(e["message"].as_str().is_some_and(|m| !m.is_empty()));
    }
    assert!(
        v["hint"]
            .as_str()
            .is_some_and(|h| h.contains("Allowed imports"))
    );
}

#[test]
fn code_from_stdin_including_invalid_utf8() {
    let out = with_stdin(
        &["check", "--code", "-"],
        b"x = np.arange(3)\nplt.plot(x)\n",
    );
    assert_eq!(out.status.code(), Some(0));
    let out = with_stdin(&["check", "--json", "--code", "-"], b"x = '\xff\xfe'\n");
    assert_eq!(out.status.code(), Some(1));
    let v = json(&out.stdout);
    assert_eq!(v["errors"][0]["rule"], "encoding");
    let out = with_stdin(&["check", "--json", "--code", "-"], b"x = 1\0\n");
    assert_eq!(json(&out.stdout)["errors"][0]["rule"], "encoding");
}

#[test]
fn pathological_input_through_the_binary_is_a_clean_rejection() {
    let deep = format!("x = {}1{}\n", "(".repeat(10_000), ")".repeat(10_000));
    let out = with_stdin(&["check", "--json", "--code", "-"], deep.as_bytes());
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(json(&out.stdout)["errors"][0]["rule"], "nesting-too-deep");
    let big = format!("x = '{}'\n", "a".repeat(1 << 20));
    let out = with_stdin(&["check", "--json", "--code", "-"], big.as_bytes());
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(json(&out.stdout)["errors"][0]["rule"], "input-too-large");
}

#[test]
fn bad_arguments_and_unreadable_files_exit_4() {
    let out = run(pdfagent().args(["check"]));
    assert_eq!(out.status.code(), Some(4));
    let missing = workspace_root().join("tests/corpus/no-such-file.py");
    let out = run(pdfagent().args(["check", "--code"]).arg(&missing));
    assert_eq!(out.status.code(), Some(4));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no-such-file.py"), "{err}");
    let dir = tempfile::tempdir().expect("temp dir");
    let out = run(Command::new(blackbox::pdfagent_bin())
        .args(["check", "--code"])
        .arg(dir.path()));
    assert_eq!(out.status.code(), Some(4));
}

#[test]
fn check_reads_no_more_code_than_make_figure_accepts() {
    // 3 MiB: `check` reads one byte past the pipeline's 1 MiB limit, as `make-figure` does,
    // and says so by that size.
    let dir = tempfile::tempdir().expect("temp dir");
    let big = dir.path().join("big.py");
    std::fs::write(&big, vec![b'#'; 3 << 20]).expect("write the big file");
    let out = run(pdfagent().args(["check", "--json", "--code"]).arg(&big));
    assert_eq!(out.status.code(), Some(1));
    let v = json(&out.stdout);
    assert_eq!(v["errors"][0]["rule"], "input-too-large");
    let message = v["errors"][0]["message"].as_str().unwrap_or_default();
    assert!(
        message.contains(&format!("the code is {} bytes", (1 << 20) + 1)),
        "{message}"
    );
}
