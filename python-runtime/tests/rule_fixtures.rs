//! One fixture per rule, the ruff way: `tests/fixtures/rules/<rule>.py` holds lines the rule
//! accepts and lines it rejects, and `<rule>.txt` every diagnostic the checker gives for it
//! (`line:col rule — message`). `input-too-large`'s input is generated (over 256 KiB).
//! Regenerate with `UPDATE_SNAPSHOTS=1 cargo test -p python-runtime --test rule_fixtures`.

use python_runtime::check;
use python_runtime::test_support::rules;
use std::fmt::Write;
use std::path::{Path, PathBuf};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/rules")
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("cannot read `{}`: {e}", path.display()))
}

fn input(id: &str) -> Vec<u8> {
    if id == "input-too-large" {
        return "x = 1\n"
            .repeat(rules::input_too_large::MAX_BYTES / 6 + 1)
            .into_bytes();
    }
    read(&fixtures().join(format!("{id}.py")))
}

#[test]
fn every_rule_has_a_fixture_whose_diagnostics_match_its_snapshot() {
    let update = std::env::var_os("UPDATE_SNAPSHOTS").is_some();
    let mut failures = Vec::new();
    for rule in rules::ALL {
        let id = rule.id.as_str();
        let mut got = String::new();
        match check(&input(id)) {
            Ok(_) => got.push_str("ACCEPTED\n"),
            Err(r) => {
                for v in &r.errors {
                    let _ = writeln!(got, "{}:{} {} — {}", v.line, v.col, v.rule, v.message);
                }
                if !r.errors.iter().any(|v| v.rule.as_str() == id) {
                    failures.push(format!("{id}: its fixture never triggers it:\n{got}"));
                }
            }
        }
        let snapshot = fixtures().join(format!("{id}.txt"));
        if update {
            std::fs::write(&snapshot, &got)
                .unwrap_or_else(|e| panic!("cannot write `{}`: {e}", snapshot.display()));
            continue;
        }
        let want = String::from_utf8_lossy(&read(&snapshot)).into_owned();
        if got != want {
            failures.push(format!(
                "{id}: diagnostics differ from `{}`; review and regenerate with UPDATE_SNAPSHOTS=1.\n--- got ---\n{got}",
                snapshot.display()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_fixture_belongs_to_a_rule() {
    let ids: Vec<&str> = rules::ALL.iter().map(|r| r.id.as_str()).collect();
    let dir = fixtures();
    for entry in std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read `{}`: {e}", dir.display()))
        .flatten()
    {
        let path = entry.path();
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default();
        assert!(ids.contains(&stem), "`{}` names no rule", path.display());
    }
}
