//! The corpus through the engine API: every ordinary plotting script in
//! `tests/corpus/legit` passes, and every sample in `tests/corpus/malicious` is rejected
//! with exactly the rule ids its first line names (`# expect: rule-a, rule-b`).

use python_runtime::check;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn corpus(kind: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/corpus")
        .join(kind);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read the corpus folder `{}`: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "py"))
        .collect();
    files.sort();
    files
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("cannot read `{}`: {e}", path.display()))
}

#[test]
fn every_legit_script_is_accepted() {
    let files = corpus("legit");
    assert!(files.len() >= 40, "only {} legit scripts", files.len());
    let mut failures = Vec::new();
    for path in &files {
        if let Err(r) = check(&read(path)) {
            failures.push(format!("{}:\n{}", path.display(), r.hint));
        }
    }
    assert!(
        failures.is_empty(),
        "false positives:\n{}",
        failures.join("\n\n")
    );
}

/// The chat-style scripts of `tests/corpus/as-written` pass the checker unchanged (the
/// black-box suite `as_written` runs them).
#[test]
fn every_as_written_script_is_accepted() {
    let files = corpus("as-written");
    assert!(files.len() >= 40, "only {} as-written scripts", files.len());
    let failures: Vec<String> = files
        .iter()
        .filter_map(|path| {
            check(&read(path))
                .err()
                .map(|r| format!("{}:\n{}", path.display(), r.hint))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "false positives:\n{}",
        failures.join("\n\n")
    );
}

#[test]
fn accepted_source_is_the_text_as_read() {
    for path in corpus("legit") {
        let bytes = read(&path);
        let accepted = check(&bytes).expect("legit corpus passes (see the test above)");
        assert_eq!(
            accepted.source.as_bytes(),
            bytes.as_slice(),
            "{}",
            path.display()
        );
    }
}

#[test]
fn every_malicious_sample_is_rejected_with_the_expected_rules() {
    let files = corpus("malicious");
    assert!(files.len() >= 40, "only {} malicious samples", files.len());
    let mut failures = Vec::new();
    for path in &files {
        let bytes = read(path);
        let text = String::from_utf8_lossy(&bytes);
        let expected: BTreeSet<String> = text
            .lines()
            .next()
            .and_then(|l| l.trim_start_matches('\u{FEFF}').strip_prefix("# expect:"))
            .unwrap_or_else(|| panic!("`{}` lacks a `# expect:` first line", path.display()))
            .split(',')
            .map(|s| s.trim().to_owned())
            .collect();
        match check(&bytes) {
            Ok(_) => failures.push(format!("{}: ACCEPTED", path.display())),
            Err(r) => {
                let got: BTreeSet<String> = r.errors.iter().map(|v| v.rule.to_string()).collect();
                if got != expected {
                    failures.push(format!(
                        "{}: expected {expected:?}, got {:#?}",
                        path.display(),
                        r.errors
                    ));
                }
                assert!(r.hint.contains("plt.savefig(OUT)"), "{}", path.display());
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
