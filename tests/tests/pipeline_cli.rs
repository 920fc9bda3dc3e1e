//! `pdfagent make-figure` as a command: the contract's exit statuses and JSON, text mode,
//! Layer 1 in front of every run, the code's namespace, and Ctrl-C cancelling a run.

#![cfg(target_os = "linux")] // Layer 2 as built and proven here: Landlock, seccomp, /proc.

mod security_support;

use blackbox::procfs::thread_names;
use security_support::{Sandbox, processes_under};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

#[test]
fn rejected_code_is_exit_1_with_errors_and_hint_and_never_runs() {
    let sb = Sandbox::new("reject");
    let run = sb.make_figure(
        "fig",
        "import os\nos.system('touch /tmp/x')\nplt.savefig(OUT)\n",
        &[],
    );
    assert_eq!(run.exit_code(), Some(1), "{}", run.json);
    assert_eq!(run.stage(), "check");
    assert_eq!(run.json["ok"], false);
    let errors = run.json["errors"].as_array().expect("errors array");
    assert!(!errors.is_empty());
    assert_eq!(errors[0]["line"], 1);
    assert!(
        run.json["hint"]
            .as_str()
            .is_some_and(|h| h.contains("savefig(OUT)"))
    );
    let runs: Vec<_> = std::fs::read_dir(sb.runs_dir()).unwrap().collect();
    assert!(
        runs.is_empty(),
        "a run directory was made for rejected code"
    );
}

#[test]
fn the_json_result_has_exactly_the_contract_keys() {
    let sb = Sandbox::new("keys");
    let run = sb.make_figure("fig", "plt.plot([1, 2])\nplt.savefig(OUT)\n", &[]);
    assert_eq!(run.exit_code(), Some(0), "{}", run.json);
    let mut keys: Vec<&str> = run
        .json
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    assert_eq!(
        keys,
        [
            "bytes",
            "cancelled",
            "errors",
            "failure",
            "figure",
            "figures",
            "guard",
            "hint",
            "ms",
            "ok",
            "replaced",
            "stage",
            "stderr_tail"
        ]
    );
    assert_eq!(run.json["cancelled"], false);
    assert!(
        run.run.stdout().trim_end().lines().count() == 1,
        "one JSON line"
    );
}

#[test]
fn an_unreadable_code_file_is_the_pipelines_own_input_result() {
    let sb = Sandbox::new("unreadable");
    let out = blackbox::run(text_mode(&sb, "fig", &sb.inputs().join("missing.py")).arg("--json"));
    assert_eq!(out.status.code(), Some(4));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let json: serde_json::Value = serde_json::from_str(&stdout).expect("one JSON object");
    assert_eq!(json["errors"][0]["rule"], "code-unreadable", "{json}");
    assert!(
        json["hint"]
            .as_str()
            .is_some_and(|h| h.contains("missing.py")),
        "{json}"
    );
    // Printed as the pipeline prints a refusal of its own (a bad name): same keys, same order.
    let code = sb.inputs().join("ok.py");
    std::fs::write(&code, "plt.plot([1, 2])\nplt.savefig(OUT)\n").unwrap();
    let bad_name = blackbox::run(text_mode(&sb, "../x", &code).arg("--json"));
    assert_eq!(bad_name.status.code(), Some(4));
    let head = r#"{"ok":false,"stage":"input","figure":null,"bytes":null,"figures":[],"ms":"#;
    for printed in [
        stdout.as_ref(),
        String::from_utf8_lossy(&bad_name.stdout).as_ref(),
    ] {
        assert!(printed.starts_with(head), "{printed}");
    }
}

/// `pdfagent make-figure` of `code` (a file, or `-` for stdin) named `name` into `sb`'s
/// folders, without `--json`.
fn text_mode(sb: &Sandbox, name: &str, code: &Path) -> Command {
    let mut cmd = blackbox::pdfagent();
    cmd.arg("make-figure")
        .arg("--src")
        .arg(&sb.src)
        .arg("--name")
        .arg(name)
        .arg("--code")
        .arg(code)
        .arg("--figures")
        .arg(&sb.figures);
    cmd
}

#[test]
fn text_mode_prints_a_summary_and_uses_the_same_exit_codes() {
    let sb = Sandbox::new("text");
    let code = sb.inputs().join("fig.py");
    std::fs::write(&code, "plt.plot([1, 2])\nplt.savefig(OUT)\n").unwrap();
    let out = blackbox::run(&mut text_mode(&sb, "fig", &code));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.contains("figure saved:") && stdout.contains("fig.png"),
        "{stdout}"
    );

    std::fs::write(&code, "x = 1\ny = x / 0\nplt.savefig(OUT)\n").unwrap();
    let out = blackbox::run(
        text_mode(&sb, "fig2", "-".as_ref()).stdin(std::fs::File::open(&code).unwrap()),
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(2), "{stdout}");
    assert!(
        stdout.contains("the code failed")
            && stdout.contains("line 2")
            && stdout.contains("ZeroDivisionError"),
        "{stdout}"
    );
}

/// A progress line of `make-figure`'s text mode: `running the code (3 s)` → ("running the
/// code", 3).
fn progress_line(line: &str) -> Option<(&str, u64)> {
    let (words, seconds) = line.strip_suffix(" s)")?.rsplit_once(" (")?;
    let stages = [
        "waiting for a free run slot",
        "checking the code",
        "starting the confined worker",
        "running the code",
        "saving the figure",
    ];
    if !stages.contains(&words) {
        return None;
    }
    Some((words, seconds.parse().ok()?))
}

#[test]
fn a_run_longer_than_two_seconds_shows_its_stage_in_text_mode_and_json_stays_one_object() {
    let sb = Sandbox::new("progress");
    let slow = "import time\ntime.sleep(3)\nplt.plot([1, 2])\nplt.savefig(OUT)\n";
    let code = sb.inputs().join("slow.py");
    std::fs::write(&code, slow).unwrap();
    // stdout and stderr into one file, so the order they were written in is kept.
    let both = sb.inputs().join("output.txt");
    let file = std::fs::File::create(&both).unwrap();
    let out = blackbox::run(
        text_mode(&sb, "slow", &code)
            .stdin(Stdio::null())
            .stdout(file.try_clone().unwrap())
            .stderr(file),
    );
    let text = std::fs::read_to_string(&both).unwrap();
    assert_eq!(out.status.code(), Some(0), "{text}");
    let lines: Vec<&str> = text.lines().collect();
    let saved = lines
        .iter()
        .position(|l| l.starts_with("figure saved:"))
        .unwrap_or_else(|| panic!("no result line: {text}"));
    let progress: Vec<(usize, &str, u64)> = lines
        .iter()
        .enumerate()
        .filter_map(|(i, l)| progress_line(l).map(|(words, s)| (i, words, s)))
        .collect();
    assert!(
        progress
            .iter()
            .any(|&(_, words, s)| words == "running the code" && s >= 2),
        "no `running the code (N s)` line: {text}"
    );
    for &(i, _, s) in &progress {
        assert!(s >= 2, "a progress line before 2 s: {text}");
        assert!(i < saved, "a progress line after the result: {text}");
    }
    let seconds: Vec<u64> = progress.iter().map(|&(_, _, s)| s).collect();
    assert!(seconds.is_sorted(), "elapsed times out of order: {text}");

    let run = sb.make_figure("slow_json", slow, &[]);
    assert_eq!(run.exit_code(), Some(0), "{}", run.json);
    let stderr = run.run.stderr();
    assert!(
        !stderr.lines().any(|l| progress_line(l).is_some()),
        "--json printed progress: {stderr}"
    );
    assert_eq!(
        run.run.stdout().trim_end().lines().count(),
        1,
        "one JSON line"
    );
}

#[test]
fn the_code_namespace_holds_only_the_provided_names() {
    // Worker mode (Layer 1 would refuse `globals()`): the preamble's own imports must not be
    // visible to the code.
    let sb = Sandbox::new("namespace");
    let run = sb.worker("print('NAMES', sorted(k for k in globals() if k != '__builtins__'))\n");
    let out = run.output();
    assert!(
        out.contains(
            "NAMES ['OUT', 'SRC', '__name__', 'listdir', 'load', 'loadmat', 'np', 'plt', 'srcpath', 'walkfiles']"
        ),
        "{out}"
    );
    assert!(
        !out.contains("WARNING: confinement"),
        "confinement must be complete here: {out}"
    );
}

/// `pdfagent make-figure --json` of an endless loop named `loop`, with its run directories
/// in the returned folder (its TMPDIR); the JSON result on the child's piped stdout.
fn start_endless_make_figure(sb: &Sandbox, timeout_s: &str) -> (Child, PathBuf) {
    let code = sb.inputs().join("loop.py");
    std::fs::write(&code, "while True:\n    pass\n").unwrap();
    let runs = sb.runs_dir();
    std::fs::create_dir_all(&runs).unwrap();
    let child = blackbox::pdfagent()
        .arg("make-figure")
        .arg("--src")
        .arg(&sb.src)
        .arg("--name")
        .arg("loop")
        .arg("--code")
        .arg(&code)
        .arg("--figures")
        .arg(&sb.figures)
        .arg("--timeout")
        .arg(timeout_s)
        .arg("--json")
        .env("TMPDIR", &runs)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    (child, runs)
}

/// Poll `done` every 50 ms; fail naming `what` once `limit` has passed.
fn wait_for(what: &str, limit: Duration, mut done: impl FnMut() -> bool) {
    let started = Instant::now();
    while !done() {
        assert!(
            started.elapsed() < limit,
            "{what} (gave up after {limit:?})"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn interrupt_cancels_the_run_and_leaves_nothing_behind() {
    let sb = Sandbox::new("sigint");
    let (child, runs) = start_endless_make_figure(&sb, "120");
    // Wait until the worker runs (its process sits in a run directory), then Ctrl-C.
    wait_for("the worker never started", Duration::from_secs(60), || {
        !processes_under(&runs).is_empty()
    });
    let kill = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let out = child.wait_with_output().unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(2), "{json}");
    assert!(
        json["hint"]
            .as_str()
            .is_some_and(|h| h.contains("cancelled")),
        "{json}"
    );
    assert_eq!(json["stage"], "run", "{json}");
    assert_eq!(json["cancelled"], true, "{json}");
    assert!(
        processes_under(&runs).is_empty(),
        "the worker outlived the cancel"
    );
    let left: Vec<_> = std::fs::read_dir(&runs).unwrap().collect();
    assert!(left.is_empty(), "the run directory was left behind");
}

#[test]
fn a_worker_without_confinement_says_so_plainly() {
    let sb = Sandbox::new("noplan");
    let run = sb.worker_with_env("print('ran')\n", &[], |env| {
        env.remove("PDFAGENT_CONFINE");
    });
    let err = run.stderr();
    assert!(
        err.contains("pdfagent: WARNING: confinement: none"),
        "an unconfined run must be flagged in stderr: {err}"
    );
}

#[test]
fn a_worker_ends_when_its_host_is_killed_outright() {
    // SIGKILL leaves the host no chance to stop its worker: the worker must notice by itself
    // (it watches for being re-parented) instead of spinning until its CPU limit.
    let sb = Sandbox::new("hostkill");
    let (mut host, runs) = start_endless_make_figure(&sb, "600");
    wait_for("the worker never started", Duration::from_secs(60), || {
        !processes_under(&runs).is_empty()
    });
    let workers = processes_under(&runs);
    // Kill the host only once the worker watches it (its thread `pdfagent-host-watch`; the
    // kernel keeps 15 characters of a thread name), i.e. while the code runs.
    let watching = |pid: &u32| {
        thread_names(*pid)
            .iter()
            .any(|name| name == "pdfagent-host-w")
    };
    wait_for(
        &format!("the worker {workers:?} never started watching its host"),
        Duration::from_secs(60),
        || workers.iter().any(watching),
    );
    host.kill().unwrap();
    host.wait().unwrap();
    wait_for(
        &format!("the workers {workers:?} outlived their killed host (time limit 600 s)"),
        Duration::from_secs(20),
        || processes_under(&runs).is_empty(),
    );
    // The figure was never made: nothing reached the figures folder.
    assert!(!sb.figures.join("loop.png").exists());
}
