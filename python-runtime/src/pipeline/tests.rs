//! The pipeline's own decisions, without starting a worker (the worker is the built
//! executable; the black-box suites in `tests/` run it end to end).

use super::running::run_dir::RunDir;
use super::*;
use std::cell::RefCell;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

fn request(src: &Path, figures: &Path, name: &str, code: &[u8]) -> FigureRequest {
    FigureRequest {
        name: name.into(),
        code: code.to_vec(),
        src: src.to_path_buf(),
        figures: figures.to_path_buf(),
        format: FigureFormat::default(),
        limits: Limits::default(),
        preview: false,
    }
}

fn no_cancel() -> CancelFlag {
    Arc::new(AtomicBool::new(false))
}

#[test]
fn bad_name_is_an_input_result_and_nothing_is_written() {
    let tmp = tempfile::tempdir().unwrap();
    let figures = tmp.path().join("figures");
    for name in ["../x", "/abs", "a\nb", ""] {
        let stages = RefCell::new(Vec::new());
        let r = make_figure(
            &request(tmp.path(), &figures, name, b"plt.savefig(OUT)\n"),
            &no_cancel(),
            &|s| stages.borrow_mut().push(s),
        );
        assert!(!r.ok);
        assert_eq!(r.stage, Outcome::Input);
        assert_eq!(r.stage.exit_code(), 4);
        assert_eq!(r.errors[0].rule.as_str(), "bad-name");
        assert!(stages.borrow().is_empty(), "nothing may start for {name:?}");
    }
    assert!(
        !figures.exists(),
        "the name is checked before the figures folder is made"
    );
}

#[test]
fn rejected_code_is_a_check_result_with_errors_and_hint() {
    let tmp = tempfile::tempdir().unwrap();
    let stages = RefCell::new(Vec::new());
    let r = make_figure(
        &request(tmp.path(), tmp.path(), "fig", b"x = '\xff'\n"),
        &no_cancel(),
        &|s| stages.borrow_mut().push(s),
    );
    assert_eq!(r.stage, Outcome::Check);
    assert_eq!(r.stage.exit_code(), 1);
    assert!(!r.errors.is_empty());
    assert!(r.hint.is_some());
    assert_eq!(*stages.borrow(), vec![Stage::Checking]);
}

#[test]
fn result_json_has_every_contract_key() {
    let r = FigureResult {
        ok: true,
        stage: Outcome::NoOutput,
        figure: None,
        bytes: None,
        figures: vec![],
        ms: 3,
        errors: vec![],
        hint: Some("h".into()),
        stderr_tail: "e".into(),
        cancelled: false,
        failure: None,
        replaced: None,
        guard: Vec::new(),
    };
    let v: serde_json::Value = serde_json::from_str(&r.to_json()).unwrap();
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    for key in [
        "ok",
        "stage",
        "figure",
        "bytes",
        "ms",
        "errors",
        "hint",
        "stderr_tail",
        "cancelled",
        "failure",
        "replaced",
        "guard",
    ] {
        assert!(keys.contains(&key), "missing {key} in {v}");
    }
    assert_eq!(v["stage"], "no-output");
}

#[test]
fn stages_serialise_as_the_contract_spells_them() {
    let names: Vec<String> = [
        Outcome::Done,
        Outcome::Check,
        Outcome::Run,
        Outcome::NoOutput,
        Outcome::Timeout,
        Outcome::Input,
        Outcome::Updated,
    ]
    .iter()
    .map(|o| {
        serde_json::to_value(o)
            .unwrap()
            .as_str()
            .unwrap()
            .to_owned()
    })
    .collect();
    assert_eq!(
        names,
        [
            "done",
            "check",
            "run",
            "no-output",
            "timeout",
            "input",
            "updated"
        ]
    );
}

#[test]
fn run_dir_is_private_and_removed_even_when_left_read_only() {
    let run = RunDir::create().unwrap();
    let path = run.path().to_path_buf();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o700);
        let locked = path.join("locked");
        std::fs::create_dir(&locked).unwrap();
        std::fs::write(locked.join("f"), b"x").unwrap();
        std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
    }
    drop(run);
    assert!(!path.exists(), "`{}` was left behind", path.display());
}

#[test]
fn run_dir_is_removed_on_panic() {
    let seen = std::sync::Mutex::new(PathBuf::new());
    let result = std::panic::catch_unwind(|| {
        let run = RunDir::create().unwrap();
        *seen.lock().unwrap() = run.path().to_path_buf();
        panic!("boom");
    });
    assert!(result.is_err());
    let path = seen.lock().unwrap().clone();
    assert!(!path.as_os_str().is_empty() && !path.exists());
}
