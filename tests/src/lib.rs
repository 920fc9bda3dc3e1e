//! Shared helpers for the black-box suites in `tests/tests/`. They run the real, built
//! executable — never a mock — and fail (never skip) when it has not been built.

pub mod procfs;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The workspace root (this crate lives in `<root>/tests`).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")))
}

/// The `.py` files of a corpus folder under `tests/corpus/`, sorted by name.
pub fn corpus_scripts(corpus: &str) -> Vec<PathBuf> {
    let dir = workspace_root().join("tests/corpus").join(corpus);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("the {corpus} corpus `{}` exists: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "py"))
        .collect();
    files.sort();
    files
}

/// The executable under test: `$PDFAGENT_BIN`, or the workspace's release build.
pub fn pdfagent_bin() -> PathBuf {
    let bin = std::env::var_os("PDFAGENT_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace_root().join("target/release/pdfagent"));
    assert!(
        bin.is_file(),
        "the pdfagent executable `{}` does not exist: build it with `cargo build --release` \
         (or run scripts/test), or point PDFAGENT_BIN at it",
        bin.display()
    );
    bin
}

/// A `Command` for the executable under test.
pub fn pdfagent() -> Command {
    Command::new(pdfagent_bin())
}

/// Run to completion and return the output (panics with context if it cannot start).
///
/// A copy of the executable a test has just written can be "busy" for a moment (ETXTBSY):
/// another test thread that forks while the copy is open for writing holds that descriptor
/// in its child until the child's own exec. Starting is tried again for up to 2 s then.
pub fn run(cmd: &mut Command) -> Output {
    let mut busy_tries = 0;
    loop {
        match cmd.output() {
            Ok(out) => return out,
            Err(e) if e.kind() == std::io::ErrorKind::ExecutableFileBusy && busy_tries < 40 => {
                busy_tries += 1;
                std::thread::sleep(std::time::Duration::from_millis(50));
            }
            Err(e) => panic!("could not start {:?}: {e}", cmd.get_program()),
        }
    }
}

/// Compare `got` with the snapshot file `snapshot`, or rewrite the file when
/// `UPDATE_SNAPSHOTS` or `PDFAGENT_BLESS` is set. A missing snapshot reads as empty, so the
/// test fails saying how to create it; `suite` is the `--test` to run again.
pub fn assert_snapshot(snapshot: &Path, got: &str, suite: &str) {
    let bless = ["UPDATE_SNAPSHOTS", "PDFAGENT_BLESS"];
    if bless.iter().any(|var| std::env::var_os(var).is_some()) {
        if let Some(dir) = snapshot.parent() {
            std::fs::create_dir_all(dir)
                .unwrap_or_else(|e| panic!("create `{}`: {e}", dir.display()));
        }
        std::fs::write(snapshot, got)
            .unwrap_or_else(|e| panic!("write `{}`: {e}", snapshot.display()));
        return;
    }
    let want = std::fs::read_to_string(snapshot).unwrap_or_default();
    assert_eq!(
        got,
        want,
        "`{}` differs; if the change is meant, rewrite it with UPDATE_SNAPSHOTS=1 cargo test \
         --release -p blackbox --test {suite}",
        snapshot.display()
    );
}
