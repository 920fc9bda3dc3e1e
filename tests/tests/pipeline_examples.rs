//! Ordinary figure code goes through the whole pipeline (Layer 1, the confined worker, the
//! atomic save) and produces figures: the bundled example, and the checker's legitimate
//! corpus scripts, against a data folder made to match them; their figures give the report
//! nothing to warn about but the axis labels they leave out.

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
    // Drawing without saving is a figure now (captured at the end); no drawing is none.
    let none = sb.make_figure("fig", "x = [1, 2]\n", &[]);
    assert_eq!(none.exit_code(), Some(2), "{}", none.json);
    assert_eq!(none.stage(), "no-output");
    assert_eq!(std::fs::read(sb.figures.join("fig.png")).unwrap(), first);
    // The groups lock every run takes stays; nothing else may.
    let names: Vec<_> = std::fs::read_dir(&sb.figures)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .filter(|n| n != ".pdfagent-groups.lock")
        .collect();
    assert_eq!(names, ["fig.png"], "no temporary file may be left");
}

/// Writes, into the worker's run directory, the data the corpus scripts read (generated
/// inside the bundled runtime, so no other Python is needed).
const CORPUS_DATA: &str = r#"
import os
os.chdir(os.path.dirname(OUT))  # the code starts in SRC (read-only); the data is made here
import pandas as pd
from scipy.io import savemat
rng = np.random.default_rng(1)
t = np.linspace(0, 10, 101)
np.savetxt('measurements.txt', np.c_[t, np.sin(t)], delimiter=',', header='t,v', comments='')
days = pd.date_range('2024-01-01', periods=120, freq='D')
pd.DataFrame({'date': days.strftime('%Y-%m-%d'), 'temperature': 10 + 5 * np.sin(np.arange(120) / 20)}).to_csv('weather.csv', index=False)
pd.DataFrame({'region': ['n', 's', 'e', 'w'] * 5, 'revenue': rng.uniform(10, 20, 20)}).to_csv('sales.csv', index=False)
pd.DataFrame({'timestamp': 1704067200 + np.arange(0, 86400, 600), 'value': 1}).to_csv('log.csv', index=False)
savemat('recording.mat', {'signal': np.sin(np.arange(1000) / 10), 'fs': 100.0})
savemat('grid.mat', {'field': np.outer(np.sin(np.linspace(0, 3, 30)), np.cos(np.linspace(0, 3, 40)))})
np.save('frames.npy', rng.uniform(size=(10, 16, 16)))
np.savez('results.npz', x=rng.normal(size=200), y=rng.normal(size=200))
os.mkdir('runs')
for i in (1, 2, 3):
    np.savetxt(f'runs/run_{i}.csv', np.c_[t, np.sin(t + i)], delimiter=',', header='t,v', comments='')
np.savez('meta.npz', scale=2.0)
np.savetxt('table.csv', np.c_[t[:10], t[:10] ** 2], delimiter=',', header='x,y', comments='', fmt='%g')
pd.DataFrame({'row': ['a', 'a', 'b', 'b'], 'col': ['x', 'y', 'x', 'y'], 'value': [1.0, 2.0, 3.0, 4.0]}).to_csv('matrix.csv', index=False)
np.save('photo.npy', rng.uniform(size=(8, 8, 3)))
from PIL import Image
Image.fromarray((rng.uniform(size=(24, 32, 3)) * 255).astype(np.uint8)).save('photo.png')
print('DATA READY', flush=True)
"#;

/// Corpus scripts that cannot run on the bundled numpy, with the reason. They are listed,
/// not silently skipped: the test fails if one of them starts to work (so the list shrinks).
/// Each with the text its failure must show.
const BROKEN_ON_THE_RUNTIME: &[(&str, &str, &str)] = &[
    (
        "39_csv_module_json",
        "np.loadtxt(..., delimiter=\"\\n\") is refused by numpy 2 \
         (TypeError: control character 'delimiter' cannot be a newline)",
        "delimiter",
    ),
    (
        "29_custom_projection",
        "a projection class written for an older matplotlib: its __init__ runs before the \
         spines exist in 3.11",
        "spine",
    ),
    (
        "30_artist_subclass",
        "the script reads self._offset before setting it (a bug in the script, written to \
         exercise the checker only)",
        "_offset",
    ),
    (
        "36_boxplot_violin",
        "Axes.boxplot(labels=...) was renamed tick_labels= in matplotlib 3.9 and removed in 3.11",
        "labels",
    ),
];

#[test]
fn the_checkers_legitimate_corpus_scripts_make_careful_figures() {
    let sb = Sandbox::new("corpus");
    let made = sb.worker(CORPUS_DATA);
    assert!(made.output().contains("DATA READY"), "{}", made.output());
    copy_tree(&sb.run, &sb.src);
    let corpus = blackbox::workspace_root().join("tests/corpus/legit");
    let mut scripts: Vec<_> = std::fs::read_dir(&corpus)
        .unwrap_or_else(|e| panic!("the checker's corpus `{}`: {e}", corpus.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "py"))
        .collect();
    scripts.sort();
    assert!(
        scripts.len() >= 10,
        "expected the corpus scripts, found {scripts:?}"
    );
    let mut failures = Vec::new();
    for script in &scripts {
        let name = script.file_stem().unwrap().to_str().unwrap();
        let code = std::fs::read_to_string(script).unwrap();
        // A PdfPages script writes a PDF document to OUT: it asks for the PDF format.
        let pdf = code.contains("PdfPages(OUT)");
        let args: &[&str] = if pdf { &["--format", "pdf"] } else { &[] };
        let run = sb.make_figure(name, &code, args);
        let figure = sb
            .figures
            .join(format!("{name}.{}", if pdf { "pdf" } else { "png" }));
        let made = std::fs::read(&figure).unwrap_or_default();
        let ok = run.exit_code() == Some(0)
            && (if pdf {
                made.starts_with(b"%PDF-")
            } else {
                is_png(&made)
            });
        let known = BROKEN_ON_THE_RUNTIME.iter().find(|(n, _, _)| *n == name);
        println!("{name}: {}", if ok { "figure" } else { "FAILED" });
        // An ordinary figure gives the figure report nothing to warn about, but for the
        // axis labels many corpus scripts leave out (as models write them): that warning
        // must name an axes whose report lacks an x or a y label.
        let warnings: Vec<&serde_json::Value> = run.json["figures"]
            .as_array()
            .into_iter()
            .flatten()
            .flat_map(|f| {
                f["report"]["warnings"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter(|w| !names_an_unlabelled_axes(&f["report"], w))
            })
            .collect();
        if ok && !warnings.is_empty() {
            failures.push(format!("{name}: the report warns: {warnings:?}"));
        }
        match (ok, known) {
            (false, None) => failures.push(format!("{name}: {}", run.json)),
            (true, Some(_)) => failures.push(format!(
                "{name} works now: remove it from BROKEN_ON_THE_RUNTIME"
            )),
            (false, Some((_, why, needle))) => {
                let tail = run.json["stderr_tail"].as_str().unwrap_or("");
                assert!(
                    tail.contains(needle),
                    "{name} failed otherwise than known ({why}): {}",
                    run.json
                );
            }
            (true, None) => {}
        }
    }
    assert!(
        failures.is_empty(),
        "corpus scripts failed:\n{}",
        failures.join("\n")
    );
}

/// Whether `warning` is a `missing-labels` warning about an axes of `report` that has no x
/// or no y label.
fn names_an_unlabelled_axes(report: &serde_json::Value, warning: &serde_json::Value) -> bool {
    let Some(index) = warning["axes"].as_u64() else {
        return false;
    };
    let axes = &report["axes"][(index as usize).saturating_sub(1)];
    warning["code"] == "missing-labels"
        && axes.is_object()
        && (axes["xlabel"].is_null() || axes["ylabel"].is_null())
}

fn copy_tree(from: &std::path::Path, to: &std::path::Path) {
    for entry in std::fs::read_dir(from).unwrap().flatten() {
        let target = to.join(entry.file_name());
        let kind = entry.file_type().unwrap();
        if entry.file_name() == "mplconfig" || entry.file_name() == "worker.py" {
            continue;
        }
        if kind.is_dir() {
            std::fs::create_dir_all(&target).unwrap();
            copy_tree(&entry.path(), &target);
        } else if kind.is_file() {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}
