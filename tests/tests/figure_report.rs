//! The figure report through the real worker: each case in
//! `python-runtime/tests/report_cases/` is a figure built to trip (or not) the report's
//! warnings, run unchanged through `pdfagent make-figure`; its first line names the
//! warning codes the report must give (`# expect: empty-axes, blank` or `# expect: none`).
//! The bundled example must give none, and every report comes with its text and has the
//! shape of `python_runtime::FigureReport` (the window's type of it). Some cases
//! are read closer (issue #41): what the data drawn is (points, ranges, non-finite values,
//! reference lines, images' shape, colormap and norm, what a scatter's colour and size map,
//! bars), missing labels on any axes with data, and a four-axes text within 2,000 characters.

use python_runtime::FigureReport;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn make(code: &Path, src: &Path, figures: &Path, name: &str) -> serde_json::Value {
    blackbox::make_figure(src, name.as_ref(), code, figures)
}

/// Most characters of a report's text for a figure of up to four axes.
const TEXT_BUDGET: usize = 2000;

/// The report and its text of the one figure of a report case.
fn case_report(case: &str) -> (serde_json::Value, String) {
    let root = blackbox::workspace_root();
    let src = tempfile::tempdir().unwrap();
    let figures = tempfile::tempdir().unwrap();
    let code = root.join("python-runtime/tests/report_cases").join(case);
    let result = make(&code, src.path(), figures.path(), "case");
    assert_eq!(result["ok"], true, "{case}: {result}");
    let figure = &result["figures"][0];
    let text = figure["report_text"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    (figure["report"].clone(), text)
}

/// The `data` items of axes `i` (0-based) of `report`.
fn items(report: &serde_json::Value, i: usize) -> Vec<serde_json::Value> {
    report["axes"][i]["data"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

fn kinds(items: &[serde_json::Value]) -> Vec<&str> {
    items
        .iter()
        .map(|it| it["kind"].as_str().unwrap_or_default())
        .collect()
}

/// A `[low, high]` range as two floats (NaN for anything else).
fn range(value: &serde_json::Value) -> (f64, f64) {
    let end = |i: usize| value[i].as_f64().unwrap_or(f64::NAN);
    (end(0), end(1))
}

fn assert_text_has(text: &str, wanted: &[&str]) {
    for w in wanted {
        assert!(text.contains(w), "the text lacks {w:?}:\n{text}");
    }
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
    let cases: Vec<PathBuf> = blackbox::python_files(&dir)
        .into_iter()
        .filter(|p| p.file_name().is_some_and(|n| n != "harness.py"))
        .collect();
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
            let axes = f["report"]["axes"].as_array().map_or(0, Vec::len);
            let chars = f["report_text"]
                .as_str()
                .unwrap_or_default()
                .chars()
                .count();
            if axes <= 4 && chars > TEXT_BUDGET {
                wrong.push(format!(
                    "{name}: the text of {axes} axes takes {chars} characters"
                ));
            }
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
    // What the example draws: three lines of 181 points in the first panel, a spectrum of
    // 301 points from 400 to 700 nm in the third.
    let first = items(report, 0);
    assert_eq!(kinds(&first), ["line", "line", "line"], "{report}");
    assert!(first.iter().all(|it| it["n"] == 181), "{report}");
    let spectrum = &items(report, 2)[0];
    assert_eq!(spectrum["n"], 301, "{report}");
    assert_eq!(range(&spectrum["x"]), (400.0, 700.0));
    let size = serde_json::to_string(report).unwrap().len();
    assert!(size < 1600, "the report takes {size} characters: {report}");
    let text = figure["report_text"].as_str().unwrap_or_default();
    assert!(text.chars().count() <= TEXT_BUDGET, "{text}");
    assert_text_has(text, &["line \"2 K\": 181 points, x -9..9"]);
}

#[test]
fn reference_lines_and_spans_are_reported_as_such_not_as_data_lines() {
    let (report, text) = case_report("33_reference_lines.py");
    let axes = &report["axes"][0];
    assert_eq!(axes["artists"]["lines"], 2, "{report}");
    assert_eq!(axes["artists"]["reference_lines"], 3, "{report}");
    assert_eq!(axes["artists"]["spans"], 2, "{report}");
    let data = items(&report, 0);
    assert_eq!(
        kinds(&data),
        ["line", "line", "hline", "vline", "axline", "hspan", "vspan"],
        "{report}"
    );
    assert_eq!(data[0]["label"], "sin");
    assert_eq!(data[0]["n"], 201);
    assert_eq!(range(&data[0]["x"]), (0.0, 10.0));
    let (low, high) = range(&data[0]["y"]);
    assert!(
        (-1.0..-0.99).contains(&low) && (0.99..=1.0).contains(&high),
        "{report}"
    );
    assert_eq!(data[2]["label"], "threshold");
    assert_eq!(range(&data[2]["y"]), (0.25, 0.25));
    assert_eq!(range(&data[3]["x"]), (5.0, 5.0));
    assert_eq!(range(&data[4]["through"]), (0.0, -1.0));
    assert_eq!(data[4]["slope"], 0.2);
    assert_eq!(range(&data[5]["y"]), (-0.2, 0.2));
    assert_eq!(range(&data[6]["x"]), (2.0, 3.0));
    assert_text_has(
        &text,
        &[
            "2 lines, 3 reference lines, 2 shaded bands",
            "line \"sin\": 201 points, x 0..10",
            "reference line \"threshold\" y=0.25 (axhline)",
            "reference line x=5 (axvline)",
            "reference line through (0, -1), slope 0.2 (axline)",
            "shaded band y -0.2..0.2 (axhspan)",
            "shaded band x 2..3 (axvspan)",
        ],
    );
}

#[test]
fn an_image_reports_its_shape_values_colormap_norm_and_colorbar() {
    let (report, text) = case_report("34_image_log_colorbar.py");
    let image = &items(&report, 0)[0];
    assert_eq!(image["kind"], "image", "{report}");
    assert_eq!(image["shape"], serde_json::json!([60, 80]));
    assert_eq!(image["nan"], 5);
    assert_eq!(range(&image["values"]), (10.0, 10000.0));
    assert_eq!(image["cmap"], "magma");
    assert_eq!(image["norm"], "log");
    assert_eq!(report["axes"][0]["colorbar"], "flux (counts/s)");
    assert_text_has(
        &text,
        &[
            "colorbar \"flux (counts/s)\"",
            "image 60×80: 5 NaN/inf, values 10..10000 (magma, log norm)",
        ],
    );
}

#[test]
fn a_scatter_reports_its_points_and_what_its_colour_and_size_map() {
    let (report, text) = case_report("35_scatter_unlabelled.py");
    let scatter = &items(&report, 0)[0];
    assert_eq!(scatter["kind"], "scatter", "{report}");
    assert_eq!(scatter["n"], 50);
    assert_eq!(range(&scatter["x"]), (0.0, 1.0));
    assert_eq!(range(&scatter["y"]), (0.0, 1.0));
    assert_eq!(range(&scatter["values"]), (0.0, 49.0));
    assert_eq!(scatter["cmap"], "plasma");
    assert_eq!(range(&scatter["sizes"]), (10.0, 108.0));
    assert_text_has(
        &text,
        &[
            "scatter: 50 points, x 0..1, y 0..1, colour = values 0..49 (plasma), marker sizes 10..108",
        ],
    );
    // The figure's only axes has no labels: no other panel is needed to say so.
    let warnings = report["warnings"].as_array().unwrap();
    assert_eq!(warnings.len(), 1, "{report}");
    assert_eq!(warnings[0]["code"], "missing-labels");
    assert_eq!(warnings[0]["axes"], 1);
    assert_text_has(&text, &["The axes has no x or y label"]);
}

#[test]
fn histograms_report_their_bars_and_the_range_of_their_heights() {
    let (report, text) = case_report("31_histogram.py");
    let data = items(&report, 0);
    assert_eq!(kinds(&data), ["bars", "bars"], "{report}");
    assert_eq!(report["axes"][0]["artists"]["bars"], 80);
    let xlim = range(&report["axes"][0]["xlim"]);
    for (item, label) in data.iter().zip(["control", "treated"]) {
        assert_eq!(item["label"], label, "{report}");
        assert_eq!(item["n"], 40);
        let (low, high) = range(&item["values"]);
        assert!(low >= 0.0 && high > low, "{report}");
        // The bins' edges lie inside the view.
        let (left, right) = range(&item["x"]);
        assert!(
            xlim.0 <= left && left < right && right <= xlim.1,
            "{report}"
        );
    }
    assert_text_has(
        &text,
        &[
            "40 bars \"control\": x ",
            "40 bars \"treated\": x ",
            ", heights ",
        ],
    );
}

#[test]
fn every_axes_with_data_and_an_unlabelled_axis_is_warned_about() {
    let (report, text) = case_report("36_missing_one_label.py");
    let warnings: Vec<(u64, &str)> = report["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|w| w["code"] == "missing-labels")
        .map(|w| {
            (
                w["axes"].as_u64().unwrap_or(0),
                w["message"].as_str().unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(warnings.len(), 2, "{report}");
    assert_eq!(warnings[0].0, 1);
    assert!(warnings[0].1.contains("has no y label"), "{report}");
    assert_eq!(warnings[1].0, 2);
    assert!(warnings[1].1.contains("has no x or y label"), "{report}");
    assert!(warnings[1].1.contains("ax.axis('off')"), "{report}");
    assert_text_has(&text, &["image 20×30: values 0..551 (gray)"]);
}

#[test]
fn a_busy_four_axes_report_stays_within_its_budget_and_describes_every_axes() {
    let (report, text) = case_report("38_four_axes_budget.py");
    let chars = text.chars().count();
    assert!(chars <= TEXT_BUDGET, "{chars} characters:\n{text}");
    for i in 0..4 {
        assert!(
            !items(&report, i).is_empty(),
            "axes {i} describes nothing: {report}"
        );
    }
    // Twelve channels: the first described one by one, the rest joined, never listed.
    let lines = items(&report, 0);
    let joined: u64 = lines
        .iter()
        .filter(|it| it["kind"] == "line")
        .map(|it| it["count"].as_u64().unwrap_or(1))
        .sum();
    assert_eq!(joined, 12, "{report}");
    assert!(lines.len() <= 8, "{report}");
    assert_eq!(kinds(&items(&report, 1)), ["mesh", "contour"], "{report}");
    assert_eq!(items(&report, 1)[0]["shape"], serde_json::json!([50, 70]));
    assert_text_has(
        &text,
        &[
            "line \"channel 1\": 400 points",
            "4 NaN/inf",
            "reference line y=0 (axhline)",
            "mesh 50×70",
            "25 bars \"mu=0\"",
            "reference line x=1 (axvline)",
            "errorbar series (y errors): 10 points",
            "scatter: 10 points",
            "filled area: x 0..9",
        ],
    );
}
