//! Shared helpers for the black-box suites in `tests/tests/`. They run the real, built
//! executable — never a mock — and fail (never skip) when it has not been built.

pub mod prepared;
pub mod procfs;

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Mutex;

/// The workspace root (this crate lives in `<root>/tests`).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")))
}

/// The `.py` files of a corpus folder under `tests/corpus/`, sorted by name.
pub fn corpus_scripts(corpus: &str) -> Vec<PathBuf> {
    python_files(&workspace_root().join("tests/corpus").join(corpus))
}

/// The `.py` files directly in `dir`, sorted by name.
pub fn python_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("the folder `{}` exists: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "py"))
        .collect();
    files.sort();
    files
}

/// `f` of every item, two items at a time (the machine has two cores; each call starts its
/// own process), in the items' order.
pub fn two_at_a_time<I: Sync, T: Send + Clone + Default>(
    items: &[I],
    f: impl Fn(&I) -> T + Sync,
) -> Vec<T> {
    let queue = Mutex::new(items.iter().enumerate());
    let results = Mutex::new(vec![T::default(); items.len()]);
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| {
                loop {
                    let next = queue.lock().unwrap().next();
                    let Some((i, item)) = next else { break };
                    let result = f(item);
                    results.lock().unwrap()[i] = result;
                }
            });
        }
    });
    results.into_inner().unwrap()
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

/// Run the executable under test with `args` to completion (see [`run`]).
pub fn pdfagent_with(args: &[&dyn AsRef<OsStr>]) -> Output {
    let mut cmd = pdfagent();
    for a in args {
        cmd.arg(a);
    }
    run(&mut cmd)
}

/// `pdfagent make-figure --src SRC --name NAME --code CODE --figures FIGURES --json`, not
/// started (a caller adds arguments and environment).
pub fn make_figure_command(src: &Path, name: &OsStr, code: &Path, figures: &Path) -> Command {
    let mut cmd = pdfagent();
    cmd.arg("make-figure")
        .arg("--src")
        .arg(src)
        .arg("--name")
        .arg(name)
        .arg("--code")
        .arg(code)
        .arg("--figures")
        .arg(figures)
        .arg("--json");
    cmd
}

/// The result `make-figure --json` printed for the code file `code` drawn from `src` into
/// `figures` as the figure `name`.
pub fn make_figure(src: &Path, name: &OsStr, code: &Path, figures: &Path) -> serde_json::Value {
    let out = run(&mut make_figure_command(src, name, code, figures));
    json_of(&format!("{}: ", code.display()), &out)
}

/// The one JSON object a command printed on stdout (panics with both outputs if not).
pub fn json(out: &Output) -> serde_json::Value {
    json_of("", out)
}

/// [`json`], its panic message starting with `context`.
fn json_of(context: &str, out: &Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{context}not one JSON object ({e}): stdout {:?} stderr {:?}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

/// Python that runs `prelude`, then tries each `(label, call)` in turn (`call` an
/// expression) and prints one line per try: `SUCCESS label repr(result)` (the repr cut at
/// `repr_chars`) when it returned, `BLOCKED label ExceptionType message` when it raised.
pub fn attempts(prelude: &str, calls: &[(&str, &str)], success: &str, repr_chars: usize) -> String {
    let mut code = String::from(prelude);
    code.push_str("\nattempts = [\n");
    for (label, call) in calls {
        code.push_str(&format!("    ({label:?}, lambda: {call}),\n"));
    }
    code.push_str(&format!(
        "]\n\
         for label, fn in attempts:\n\
         \x20   try:\n\
         \x20       r = fn()\n\
         \x20       print('{success}', label, repr(r)[:{repr_chars}], flush=True)\n\
         \x20   except BaseException as e:\n\
         \x20       print('BLOCKED', label, type(e).__name__, e, flush=True)\n"
    ));
    code
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
