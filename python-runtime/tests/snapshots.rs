//! Snapshot of every diagnostic the malicious corpus produces (line, column, rule and the
//! full message), so a change in wording or position shows up in review.
//! Regenerate with `UPDATE_SNAPSHOTS=1 cargo test -p python-runtime --test snapshots`.

use python_runtime::check;
use std::fmt::Write;
use std::path::Path;

#[test]
fn malicious_corpus_diagnostics_match_the_snapshot() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = root.join("../tests/corpus/malicious");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read `{}`: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "py"))
        .collect();
    files.sort();
    let mut got = String::new();
    for path in &files {
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
        let _ = writeln!(got, "{}", name.unwrap_or_default());
        let bytes =
            std::fs::read(path).unwrap_or_else(|e| panic!("cannot read `{}`: {e}", path.display()));
        match check(&bytes) {
            Ok(_) => got.push_str("  ACCEPTED\n"),
            Err(r) => {
                for v in r.errors {
                    let _ = writeln!(got, "  {}:{} {} — {}", v.line, v.col, v.rule, v.message);
                }
            }
        }
    }
    let snapshot = root.join("tests/snapshots/malicious.txt");
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(&snapshot, &got)
            .unwrap_or_else(|e| panic!("cannot write `{}`: {e}", snapshot.display()));
        return;
    }
    let want = std::fs::read_to_string(&snapshot).unwrap_or_else(|e| {
        panic!(
            "cannot read `{}` ({e}); create it with UPDATE_SNAPSHOTS=1",
            snapshot.display()
        )
    });
    assert!(
        got == want,
        "diagnostics differ from `{}`; review and regenerate with UPDATE_SNAPSHOTS=1.\n--- got ---\n{got}",
        snapshot.display()
    );
}
