//! The readers are a new way in for untrusted files: an inspection (`describe_data`, the
//! window's preview) runs the reader table on a file the user — or an attacker who wrote
//! into the data folder — chose. Proven from outside the worker:
//! - a pickled `.npy`/`.npz` is never unpickled: its payload would create a canary file in
//!   the worker's run directory, and a control run shows that it does when unpickled;
//! - a link out of the data folder is refused by the engine's resolver before anything runs,
//!   and — with the resolver bypassed (`internal-prepare-inspect` names the path unresolved)
//!   — by the confinement: the reader cannot open it, and the secret never comes out;
//! - malicious MATLAB `.fig` files (nested too deep, text where numbers belong, a v7.3
//!   reference cycle or dangling reference, dimensions of exabytes, R2025 MCOS blobs of
//!   noise, no MAT-file at all) end in one sentence, by themselves, within the limits: read
//!   by `load()` (cold, or as a fork-server child when the suites run so) and inspected.

#![cfg(target_os = "linux")]

mod security_support;

use blackbox::prepared::{prepare, prepared_env};
use security_support::{Sandbox, WorkerRun, run_bounded};
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

/// How the reader table refuses a pickle.
const PICKLE: &str = "refused: the file holds Python objects (a pickle)";

/// Writes `evil.npy` and `evil.npz` (object arrays whose unpickling opens `canary` for
/// writing) into the worker's run directory; run with Layer 1 bypassed.
fn pickles_code(canary: &Path) -> String {
    format!(
        r#"
import os
import numpy as np

class Canary:
    def __reduce__(self):
        return (open, ({canary}, "w"))

os.chdir(os.path.dirname(OUT))
np.save("evil.npy", np.array([Canary()], dtype=object), allow_pickle=True)
np.savez("evil.npz", fine=np.arange(3.0), evil=np.array([Canary()], dtype=object))
print("pickles written")
"#,
        canary = Sandbox::py(canary)
    )
}

/// The inspection of `rel` prepared in the sandbox's run directory with the path left
/// unresolved, run by the real executable in worker mode: (the worker, its answer's text).
fn inspect_unresolved(sb: &Sandbox, rel: &str) -> (WorkerRun, String) {
    let mut cmd = blackbox::pdfagent();
    cmd.args(["internal-prepare-inspect", "--path", rel]);
    let prepared = prepare(cmd.arg("--src").arg(&sb.src).arg("--run-dir").arg(&sb.run));
    let mut cmd = blackbox::pdfagent();
    cmd.env_clear()
        .envs(prepared_env(&prepared))
        .current_dir(&sb.run)
        .stdin(Stdio::null());
    let run = run_bounded(&mut cmd, Duration::from_secs(120));
    let stdout = run.stdout();
    let text = stdout
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix("PDFAGENT-INSPECT "))
        .and_then(|answer| serde_json::from_str::<serde_json::Value>(answer).ok())
        .and_then(|answer| answer["text"].as_str().map(str::to_owned))
        .unwrap_or_else(|| panic!("the inspection gave no answer:\n{}", run.output()));
    (run, text)
}

/// `internal-inspect` (the window's call): exit status, stdout and stderr.
fn inspect(sb: &Sandbox, rel: &str) -> (Option<i32>, String, String) {
    let mut cmd = blackbox::pdfagent();
    cmd.args(["internal-inspect", "--path", rel]).arg("--src");
    let out = blackbox::run(cmd.arg(&sb.src));
    let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}

#[test]
fn a_pickled_npy_or_npz_is_never_unpickled_by_an_inspection() {
    let sb = Sandbox::new("inspect-pickle");
    let canary = sb.run.join("unpickled");
    let made = sb.worker(&pickles_code(&canary));
    assert!(
        made.stdout().contains("pickles written"),
        "{}",
        made.output()
    );
    for name in ["evil.npy", "evil.npz"] {
        std::fs::rename(sb.run.join(name), sb.src.join(name)).unwrap();
    }
    // The control: unpickling the file in this worker does create the canary (with the
    // original unpickler: the worker's own `pickle.Unpickler` refuses).
    let control = sb.worker(
        "import pickle\n\
         f = open(srcpath('evil.npy'), 'rb')\n\
         fmt = np.lib.format\n\
         (fmt.read_array_header_1_0 if fmt.read_magic(f) == (1, 0) else fmt.read_array_header_2_0)(f)\n\
         pickle.Unpickler.__mro__[1](f).load()\n",
    );
    assert!(
        canary.exists(),
        "the payload is no canary: unpickled, it left nothing\n{}",
        control.output()
    );
    std::fs::remove_file(&canary).unwrap();
    for name in ["evil.npy", "evil.npz"] {
        let (run, text) = inspect_unresolved(&sb, name);
        assert!(run.status.success(), "{}", run.output());
        assert!(text.contains(PICKLE), "{name}: {text}");
        assert!(!canary.exists(), "inspecting {name} unpickled it");
    }
    let (_, npz_text) = inspect_unresolved(&sb, "evil.npz");
    assert!(npz_text.contains("fine: (3,) float64"), "{npz_text}");
    // The window's own call (a run directory of its own) refuses it too.
    let (status, stdout, _) = inspect(&sb, "evil.npy");
    assert_eq!(
        (status, stdout.contains(PICKLE)),
        (Some(0), true),
        "{stdout}"
    );
}

#[test]
fn a_link_out_of_the_folder_is_refused_by_the_resolver_and_by_the_confinement() {
    let sb = Sandbox::new("inspect-link");
    for (link, target) in [
        ("link.csv", sb.outside.join("secret.csv")),
        ("linkdir", sb.outside.clone()),
    ] {
        std::os::unix::fs::symlink(target, sb.src.join(link)).unwrap();
    }
    for rel in ["link.csv", "linkdir/secret.csv", "../outside/secret.csv"] {
        // The resolver refuses before any worker starts.
        let (status, stdout, stderr) = inspect(&sb, rel);
        assert_eq!(status, Some(2), "{rel}: {stdout}");
        assert!(
            stderr.contains("outside the data folder") || stderr.contains("leaves the data folder"),
            "{rel}: {stderr}"
        );
        assert!(!stdout.contains(&sb.secret) && !stderr.contains(&sb.secret));
        // With the resolver bypassed, the worker's confinement refuses the read.
        let (run, text) = inspect_unresolved(&sb, rel);
        assert!(run.status.success(), "{rel}: {}", run.output());
        assert!(
            text.contains("could not read it as a .csv file: PermissionError"),
            "{rel}: {text}"
        );
        assert!(
            !run.output().contains(&sb.secret),
            "{rel}: the secret came out:\n{}",
            run.output()
        );
    }
    // The control: the same file copied into the folder is read, secret and all.
    std::fs::copy(sb.outside.join("secret.csv"), sb.src.join("copy.csv")).unwrap();
    let (_, text) = inspect_unresolved(&sb, "copy.csv");
    assert!(
        text.contains(&sb.secret),
        "the control read nothing: {text}"
    );
}

/// The malicious `.fig` samples `make_edge_figs.py` writes, and the words of each refusal.
const EVIL_FIGS: &[(&str, &str)] = &[
    ("evil_deep.fig", "nested deeper than any MATLAB figure"),
    ("evil_text.fig", "where MATLAB keeps numbers"),
    ("evil_cycle.fig", "refers back to itself"),
    ("evil_dangling.fig", "dangling reference"),
    ("evil_huge.fig", "not a readable MAT-file"),
    ("evil_mcos.fig", "R2025-or-later figure"),
    ("evil_garbage.fig", "no MAT-file header"),
    // `make_mcos_figs.py`: a real figure in R2025's layout, its MCOS subsystem damaged.
    (
        "evil_mcos_offsets.fig",
        "region offsets are out of order or beyond",
    ),
    ("evil_mcos_count.fig", "a property map runs past its region"),
    ("evil_mcos_class.fig", "is outside its 32 classes"),
    ("evil_mcos_name.fig", "is outside its 311 names"),
    ("evil_mcos_cycle.fig", "refer back to themselves (a cycle)"),
    (
        "evil_mcos_cut.fig",
        "subsystem) is damaged or crafted: scipy cannot read it",
    ),
];

#[test]
fn malicious_fig_files_end_in_one_sentence_within_the_limits() {
    let sb = Sandbox::new("inspect-evil-fig");
    let made = sb.worker(include_str!("../fixtures/fig/make_edge_figs.py"));
    assert!(
        made.stdout().contains("fig fixtures written"),
        "{}",
        made.output()
    );
    // The MCOS samples start from a real figure (its subsystem damaged in one place each).
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/fig/lines_legend_title.fig"),
        sb.run.join("lines_legend_title.fig"),
    )
    .unwrap();
    let made = sb.worker(include_str!("../fixtures/fig/make_mcos_figs.py"));
    assert!(
        made.stdout().contains("mcos fixtures written"),
        "{}",
        made.output()
    );
    for (name, _) in EVIL_FIGS {
        std::fs::rename(sb.run.join(name), sb.src.join(name)).unwrap();
    }
    for (name, words) in EVIL_FIGS {
        // load() in code run by the worker (Layer 1 bypassed): the refusal is a ValueError
        // whose message is the sentence; anything else escapes as a traceback.
        let run = sb.worker(&format!(
            "try:\n    load({name:?})\n    print('LOADED')\n\
             except ValueError as exc:\n    print('SENTENCE', exc)\n"
        ));
        run.assert_ended_by_itself();
        let out = run.stdout();
        let sentence = out
            .lines()
            .find_map(|l| l.strip_prefix("SENTENCE "))
            .unwrap_or_else(|| panic!("{name}: load() gave no refusal:\n{}", run.output()));
        assert!(
            sentence.starts_with(&format!("load('{name}'): refused: ")) && sentence.contains(words),
            "{name}: {sentence}"
        );
        assert!(
            !run.output().contains("Traceback"),
            "{name}: {}",
            run.output()
        );
        // The inspection (the window's call, a run directory of its own) says the same.
        let (status, stdout, stderr) = inspect(&sb, name);
        assert_eq!(status, Some(0), "{name}: {stderr}");
        assert!(
            stdout.contains("refused: ") && stdout.contains(words) && !stdout.contains("Traceback"),
            "{name}: {stdout}"
        );
    }
}
