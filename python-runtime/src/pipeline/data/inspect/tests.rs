use super::*;

fn outcome(exit: WorkerExit, stdout: &str) -> WorkerOutcome {
    WorkerOutcome {
        exit,
        stdout_tail: stdout.to_owned(),
        stderr_tail: "Traceback ...\nValueError: boom".to_owned(),
        elapsed: Duration::from_millis(1),
    }
}

/// The inspection of `a.csv` from a worker that exited 0 printing `stdout`.
fn answered(detail: Detail, stdout: &str) -> Result<Inspection, InspectError> {
    let done = outcome(WorkerExit::Exited(0), stdout);
    answer("a.csv", detail, &done, &default_limits())
}

#[test]
fn the_script_is_fixed_and_the_request_goes_as_json_data() {
    let run = tempfile::tempdir().unwrap();
    let rel = "a'b\"\n__import__('os').system('x').csv";
    let file = run.path().join("data.csv");
    let text = script::render_inspection();
    assert!(!text.contains("__import__('os')"));
    let request: serde_json::Value =
        serde_json::from_str(&request_text(&file, rel, Detail::Preview).unwrap()).unwrap();
    assert_eq!(request["rel"], rel);
    assert_eq!(request["path"], file.to_str().unwrap());
    assert_eq!(request["preview"], true);
    for needle in ["exec(", "eval(", "allow_pickle=True"] {
        assert!(!text.contains(needle), "{needle} in the inspection script");
    }
}

#[test]
fn the_inspection_script_leaves_no_module_level_names_but_its_functions() {
    // As in the figure worker script: readers.py and inspect.py define functions only, and
    // the one call line runs the driver.
    let text = script::render_inspection();
    let mut lines = text
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#') && !l.starts_with(' '));
    let last = text.lines().last().unwrap_or_default();
    assert_eq!(last, "_pdfagent_inspect()");
    assert!(
        lines.all(|l| l.starts_with("def _pdfagent_") || l == last),
        "unexpected module-level line in the inspection script"
    );
}

#[test]
fn the_window_shows_the_images_the_reader_table_reads() {
    let row = script::READERS
        .lines()
        .find_map(|l| l.trim().strip_prefix("IMAGES = ("))
        .expect("readers.py has an IMAGES row");
    let python: Vec<&str> = row
        .trim_end_matches(')')
        .split(',')
        .map(|e| e.trim().trim_matches('"').trim_start_matches('.'))
        .filter(|e| !e.is_empty())
        .collect();
    assert_eq!(python, IMAGE_EXTENSIONS);
    assert!(is_image(Path::new("a/b.PNG")) && is_image(Path::new("x.jpeg")));
    assert!(!is_image(Path::new("x.csv")) && !is_image(Path::new("png")));
}

#[test]
fn the_last_answer_line_is_read_into_the_types() {
    let stdout = "noise\nPDFAGENT-INSPECT {\"text\": \"old\", \"preview\": null}\n\
        PDFAGENT-INSPECT {\"text\": \"a.csv: 4 bytes\", \"preview\": {\"kind\": \"table\", \
        \"separator\": \"comma\", \"header\": true, \"columns\": [\"x\"], \"rows\": [[\"1\"]], \
        \"rows_total\": 1}}\n";
    let got = answered(Detail::Preview, stdout).unwrap();
    assert_eq!(got.text, "a.csv: 4 bytes");
    assert_eq!(
        got.preview,
        Some(Preview::Table {
            separator: Some("comma".into()),
            header: true,
            columns: vec!["x".into()],
            rows: vec![vec!["1".into()]],
            rows_total: Some(1),
        })
    );
    // The description alone leaves the preview out.
    assert_eq!(answered(Detail::Text, stdout).unwrap().preview, None);
}

#[test]
fn an_answer_that_does_not_fit_the_types_is_refused() {
    for stdout in [
        "",
        "PDFAGENT-INSPECT {\"text\": 3}",
        "PDFAGENT-INSPECT {\"text\": \"x\", \"preview\": {\"kind\": \"shell\"}}",
    ] {
        let err = answered(Detail::Preview, stdout).unwrap_err();
        assert!(
            matches!(&err, InspectError::Failed { stderr_tail, .. } if stderr_tail.contains("boom")),
            "{err}"
        );
    }
}

#[test]
fn how_the_worker_ended_is_a_typed_error_that_says_what_to_do() {
    let limits = default_limits();
    let end = |exit| answer("big.mat", Detail::Text, &outcome(exit, ""), &limits);
    let timed_out = end(WorkerExit::TimedOut).unwrap_err();
    assert!(matches!(timed_out, InspectError::TimedOut { secs: 60, .. }));
    assert!(timed_out.to_string().contains("load('big.mat')"));
    assert!(matches!(
        end(WorkerExit::Cancelled),
        Err(InspectError::Cancelled { .. })
    ));
    let killed = end(WorkerExit::Signaled(9)).unwrap_err().to_string();
    assert!(
        killed.contains("signal 9") && killed.contains("4096 MB"),
        "{killed}"
    );
    let failed = end(WorkerExit::Exited(1)).unwrap_err().to_string();
    assert!(failed.contains("exit status 1") && failed.contains("pdfagent selftest"));
}

#[test]
fn a_long_description_is_capped_on_a_character_boundary() {
    assert_eq!(
        output::cap_chars("ééé", 2, TRUNCATED),
        "éé\n... (truncated)"
    );
    assert_eq!(output::cap_chars("ab", 5, TRUNCATED), "ab");
}

#[test]
fn bad_paths_are_refused_before_anything_runs() {
    let tmp = tempfile::tempdir().unwrap();
    let cancel = CancelFlag::default();
    let limits = default_limits();
    let err = inspect(tmp.path(), "../x.csv", Detail::Text, &limits, &cancel).unwrap_err();
    assert!(matches!(
        err,
        InspectError::Path(DataPathError::ParentDir(_))
    ));
    let err = inspect(tmp.path(), "missing.csv", Detail::Text, &limits, &cancel).unwrap_err();
    assert!(matches!(
        err,
        InspectError::Path(DataPathError::NotFound(_))
    ));
}
