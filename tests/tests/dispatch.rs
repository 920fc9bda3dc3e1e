//! Self-dispatch: `PDFAGENT_PYRUN=<script> pdfagent` runs the script in the embedded
//! interpreter; without the variable the same executable is the ordinary program.

use blackbox::{pdfagent, run};
use std::path::Path;

/// A script whose only observable effect is the file it writes into its working folder.
const SIDE_EFFECT_SCRIPT: &str = "\
import sys
with open('side-effect.txt', 'w', encoding='utf-8') as f:
    f.write('ran ' + sys.version.split()[0])
";

fn write_script(dir: &Path) -> std::path::PathBuf {
    let script = dir.join("side_effect.py");
    std::fs::write(&script, SIDE_EFFECT_SCRIPT).expect("write the test script");
    script
}

#[test]
fn with_pdfagent_pyrun_the_script_runs_in_the_embedded_interpreter() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let script = write_script(tmp.path());
    let out = run(pdfagent()
        .env_clear()
        .env("PDFAGENT_PYRUN", &script)
        .current_dir(tmp.path())
        // Arguments a normal start would parse: the worker path must not look at them.
        .arg("--no-such-flag"));
    assert_eq!(
        out.status.code(),
        Some(0),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let effect = std::fs::read_to_string(tmp.path().join("side-effect.txt"))
        .expect("the script should have written side-effect.txt");
    assert_eq!(effect, "ran 3.11.7");
    // Nothing of the command line or the window started.
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn without_pdfagent_pyrun_the_worker_path_does_nothing() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let script = write_script(tmp.path());
    // The script path is right there as an argument, and the run folder is the cwd, but
    // without the variable nothing runs it: the ordinary command line answers instead.
    let out = run(pdfagent()
        .env_clear()
        .current_dir(tmp.path())
        .arg("--help")
        .arg(&script));
    assert_eq!(out.status.code(), Some(0));
    assert!(!tmp.path().join("side-effect.txt").exists());
    let out_text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out_text.contains("selftest"),
        "expected the CLI help, got: {out_text}"
    );

    let out2 = run(pdfagent()
        .env_clear()
        .env("PDFAGENT_CONFINE", "{}")
        .current_dir(tmp.path())
        .arg("--version"));
    assert_eq!(out2.status.code(), Some(0));
    assert!(!tmp.path().join("side-effect.txt").exists());
    assert!(String::from_utf8_lossy(&out2.stdout).starts_with("pdfagent "));
}

#[test]
fn pdfagent_pyrun_is_removed_before_the_script_runs() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let script = tmp.path().join("env.py");
    std::fs::write(
        &script,
        "import os\nopen('env.txt', 'w').write(repr(sorted(k for k in os.environ if k.startswith('PDFAGENT'))))\n",
    )
    .expect("write the test script");
    let out = run(pdfagent()
        .env_clear()
        .env("PDFAGENT_PYRUN", &script)
        .current_dir(tmp.path()));
    assert_eq!(
        out.status.code(),
        Some(0),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let seen = std::fs::read_to_string(tmp.path().join("env.txt")).expect("env.txt written");
    assert_eq!(
        seen, "[]",
        "the worker variables leaked into the script: {seen}"
    );
}

#[test]
fn exit_statuses_follow_python() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let cases: [(&str, i32, &str); 4] = [
        ("import sys\nsys.exit(3)\n", 3, ""),
        ("import sys\nsys.exit(None)\n", 0, ""),
        ("import sys\nsys.exit('bye')\n", 1, "bye"),
        ("def f():\n    1/0\nf()\n", 1, "ZeroDivisionError"),
    ];
    for (i, (code, want, stderr_has)) in cases.iter().enumerate() {
        let script = tmp.path().join(format!("case{i}.py"));
        std::fs::write(&script, code).expect("write the test script");
        let out = run(pdfagent().env_clear().env("PDFAGENT_PYRUN", &script));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(*want), "{code}: {stderr}");
        assert!(stderr.contains(stderr_has), "{code}: {stderr}");
        // The traceback starts at the script, not inside runpy.
        assert!(!stderr.contains("<frozen runpy>"), "{stderr}");
    }
}

#[test]
fn a_missing_script_is_a_worker_failure_not_a_python_error() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let missing = tmp.path().join("nope.py");
    let out = run(pdfagent().env_clear().env("PDFAGENT_PYRUN", &missing));
    assert_eq!(out.status.code(), Some(125));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("nope.py"), "{stderr}");
}

#[test]
fn shutdown_runs_atexit_handlers_and_flushes_output() {
    // The worker skips the full interpreter teardown (see interpreter::shut_down), but what
    // a script can observe of a normal exit must still happen.
    let tmp = tempfile::tempdir().expect("temp dir");
    let script = tmp.path().join("atexit_case.py");
    std::fs::write(
        &script,
        "import atexit\n\
         atexit.register(lambda: open('atexit.txt', 'w').write('ran'))\n\
         print('no newline at the end', end='')\n",
    )
    .expect("write the test script");
    let out = run(pdfagent()
        .env_clear()
        .env("PDFAGENT_PYRUN", &script)
        .current_dir(tmp.path()));
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "no newline at the end"
    );
    assert_eq!(
        std::fs::read_to_string(tmp.path().join("atexit.txt")).expect("atexit handler ran"),
        "ran"
    );
}

#[test]
fn a_failed_flush_of_stdout_is_status_120_like_python() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let script = tmp.path().join("print.py");
    std::fs::write(&script, "print('x' * 100)\n").expect("write the test script");
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full exists on Linux");
    let out = run(pdfagent()
        .env_clear()
        .env("PDFAGENT_PYRUN", &script)
        .stdout(full));
    assert_eq!(
        out.status.code(),
        Some(120),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
