//! The figure report through the real worker: each case in
//! `python-runtime/tests/report_cases/` is a figure built to trip (or not) the report's
//! warnings, run unchanged through `pdfagent make-figure`; its first line names the
//! warning codes the report must give (`# expect: empty-axes, blank` or `# expect: none`).
//! The bundled example must give none, and every report comes with its text and has the
//! shape of `python_runtime::pipeline::FigureReport` (the window's type of it).

use python_runtime::pipeline::FigureReport;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn make(code: &Path, src: &Path, figures: &Path, name: &str) -> serde_json::Value {
    let out = blackbox::run(
        blackbox::pdfagent()
            .arg("make-figure")
            .arg("--src")
            .arg(src)
            .arg("--name")
            .arg(name)
            .arg("--code")
            .arg(code)
            .arg("--figures")
            .arg(figures)
            .arg("--json"),
    );
    serde_json::from_slice(&out.stdout).expect("make-figure prints JSON")
}

fn codes(result: &serde_json::Value) -> BTreeSet<String> {
    result["figures"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|f| {
            f["report"]["warnings"]
                .as_array()
                .cloned()
                .unwrap_or_default()
        })
        .map(|w| w["code"].as_str().unwrap_or_default().to_owned())
        .collect()
}

#[test]
fn every_report_case_gives_exactly_its_warnings() {
    let root = blackbox::workspace_root();
    let dir = root.join("python-runtime/tests/report_cases");
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.extension().is_some_and(|x| x == "py")
                && p.file_name().is_some_and(|n| n != "harness.py")
        })
        .collect();
    cases.sort();
    assert!(cases.len() >= 20, "only {} cases", cases.len());
    let src = tempfile::tempdir().unwrap();
    let figures = tempfile::tempdir().unwrap();
    let mut wrong = Vec::new();
    for case in &cases {
        let text = std::fs::read_to_string(case).unwrap();
        let want: BTreeSet<String> = text
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("# expect:"))
            .unwrap_or_else(|| panic!("{} has no `# expect:` line", case.display()))
            .split(',')
            .map(|c| c.trim().to_owned())
            .filter(|c| !c.is_empty() && c != "none")
            .collect();
        let name = case.file_stem().unwrap().to_string_lossy().into_owned();
        let result = make(case, src.path(), figures.path(), &name);
        if result["ok"] != true {
            wrong.push(format!("{name}: the figure failed: {result}"));
            continue;
        }
        for f in result["figures"].as_array().unwrap() {
            assert!(
                f["report_text"].as_str().is_some_and(|t| !t.is_empty()),
                "{name}: {f}"
            );
            // The window's types come from `FigureReport`: a key the worker writes that
            // the Rust type does not know (or a value of another shape) fails here.
            if let Err(e) = serde_json::from_value::<FigureReport>(f["report"].clone()) {
                wrong.push(format!(
                    "{name}: the report is not a FigureReport ({e}): {f}"
                ));
            }
        }
        let got = codes(&result);
        if got != want {
            wrong.push(format!("{name}: expected {want:?}, got {got:?}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_bundled_example_gives_a_compact_report_without_warnings() {
    let root = blackbox::workspace_root();
    let figures = tempfile::tempdir().unwrap();
    let result = make(
        &root.join("examples/plot_example.py"),
        &root.join("examples/data"),
        figures.path(),
        "overview",
    );
    assert_eq!(result["ok"], true, "{result}");
    assert!(codes(&result).is_empty(), "{result}");
    let figure = &result["figures"][0];
    let report = &figure["report"];
    let titles: Vec<&str> = report["axes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["title"].as_str().unwrap_or_default())
        .collect();
    // The titles and labels the example's code sets.
    assert_eq!(
        titles,
        ["Magnetoresistance", "Band structure", "Spectrum", "Sample"]
    );
    assert_eq!(report["axes"][0]["xlabel"], "B (T)");
    assert_eq!(report["axes"][2]["ylabel"], "counts");
    let size = serde_json::to_string(report).unwrap().len();
    assert!(size < 1200, "the report takes {size} characters: {report}");
}
