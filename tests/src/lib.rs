//! Shared helpers for the black-box suites in `tests/tests/`. They run the real, built
//! executable — never a mock — and fail (never skip) when it has not been built.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The workspace root (this crate lives in `<root>/tests`).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")))
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
