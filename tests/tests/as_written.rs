//! Code as models and people really write it — ending in `plt.show()`, saving with
//! `savefig('fig.png', dpi=300, bbox_inches='tight')`, several figures, `fig.savefig(name)`
//! in a loop, `pd.read_csv('data.csv')` by plain name, seaborn, `matplotlib.use('Agg')`,
//! `warnings.filterwarnings('ignore')` — run UNCHANGED through `pdfagent make-figure`
//! against the corpus's data folder: every script makes its figures, and how each was
//! captured is compared with the snapshot `tests/corpus/as-written/captured.txt`.
//! Regenerate with `UPDATE_SNAPSHOTS=1 cargo test --release -p blackbox --test as_written`.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn corpus() -> PathBuf {
    blackbox::workspace_root().join("tests/corpus/as-written")
}

fn scripts() -> Vec<PathBuf> {
    blackbox::corpus_scripts("as-written")
}

/// One line of the snapshot: the script, then each figure's capture and format.
fn run_one(script: &Path, figures: &Path) -> String {
    let stem = script.file_stem().unwrap().to_string_lossy().into_owned();
    let json = blackbox::make_figure(&corpus().join("data"), stem.as_ref(), script, figures);
    if json["ok"] != true {
        return format!(
            "{stem}: FAILED {} {}\n{}",
            json["stage"], json["hint"], json["stderr_tail"]
        );
    }
    let figures: Vec<String> = json["figures"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let path = Path::new(f["path"].as_str().unwrap());
            let bytes = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
            assert_eq!(f["bytes"], bytes, "{stem}: {f}");
            assert!(bytes > 1000, "{stem}: a {bytes}-byte figure: {f}");
            format!(
                "{} {}",
                f["captured"].as_str().unwrap(),
                f["format"].as_str().unwrap()
            )
        })
        .collect();
    format!("{stem}: {}", figures.join(", "))
}

#[test]
fn scripts_as_written_make_their_figures_unchanged() {
    let files = scripts();
    assert!(files.len() >= 40, "only {} scripts", files.len());
    let figures = tempfile::tempdir().unwrap();
    let lines = blackbox::two_at_a_time(&files, |script| run_one(script, figures.path()));
    let failed: Vec<&String> = lines.iter().filter(|l| l.contains(": FAILED")).collect();
    assert!(
        failed.is_empty(),
        "scripts that made no figure:\n{}",
        failed
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
    let mut got = String::new();
    for line in &lines {
        let _ = writeln!(got, "{line}");
    }
    blackbox::assert_snapshot(&corpus().join("captured.txt"), &got, "as_written");
}
