//! Ordinary figure code goes through the whole pipeline (Layer 1, the confined worker, the
//! atomic save) and produces figures: the bundled example, and the checker's legitimate
//! corpus scripts that read data, against a data folder made to match them.

mod security_support;

use security_support::Sandbox;

fn is_png(bytes: &[u8]) -> bool {
    bytes.starts_with(b"\x89PNG\r\n\x1a\n") && bytes.get(12..16) == Some(b"IHDR")
}

#[test]
fn the_bundled_example_makes_a_figure() {
    let root = blackbox::workspace_root();
    let figures = tempfile::tempdir().unwrap();
    let out = blackbox::run(
        blackbox::pdfagent()
            .arg("make-figure")
            .arg("--src")
            .arg(root.join("examples/data"))
            .arg("--name")
            .arg("overview")
            .arg("--code")
            .arg(root.join("examples/plot_example.py"))
            .arg("--figures")
            .arg(figures.path())
            .arg("--json"),
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(0), "{json}");
    assert_eq!(json["ok"], true);
    assert_eq!(json["stage"], "done");
    let figure = figures.path().join("overview.png");
    assert_eq!(
        json["figure"],
        figure.canonicalize().unwrap().display().to_string()
    );
    let bytes = std::fs::read(&figure).unwrap();
    assert!(
        is_png(&bytes) && bytes.len() > 10_000,
        "{} bytes",
        bytes.len()
    );
    assert_eq!(json["bytes"], bytes.len());
}

#[test]
fn a_failed_run_keeps_the_previous_figure() {
    let sb = Sandbox::new("keep");
    let ok = sb.make_figure("fig", "plt.plot([1, 2])\nplt.savefig(OUT)\n", &[]);
    assert_eq!(ok.exit_code(), Some(0), "{}", ok.json);
    let first = std::fs::read(sb.figures.join("fig.png")).unwrap();
    let failed = sb.make_figure(
        "fig",
        "plt.plot([1, 2])\nplt.savefig(OUT)\nx = 1 / 0\n",
        &[],
    );
    assert_eq!(failed.exit_code(), Some(2), "{}", failed.json);
    assert_eq!(failed.stage(), "run");
    let tail = failed.json["stderr_tail"].as_str().unwrap_or("");
    assert!(
        tail.contains("line 3") && tail.contains("ZeroDivisionError"),
        "{tail}"
    );
    let none = sb.make_figure("fig", "plt.plot([1, 2])\n", &[]);
    assert_eq!(none.exit_code(), Some(2), "{}", none.json);
    assert_eq!(none.stage(), "no-output");
    assert_eq!(std::fs::read(sb.figures.join("fig.png")).unwrap(), first);
    let names: Vec<_> = std::fs::read_dir(&sb.figures)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["fig.png"], "no temporary file may be left");
}
