//! First-try mistakes as models make them (issue #41): guessed columns, keys and file names,
//! chat-assistant paths, shape mismatches, removed APIs, blocked conveniences. Every script
//! of `tests/corpus/mistakes/` runs through `pdfagent make-figure --json` against the
//! corpus's data folder; its header says what its answer must contain:
//!
//! ```text
//! # expect: 'band2_eV'      (each `expect` line: a text the answer must contain)
//! # expect-ok               (the run must succeed: a path read from the data folder)
//! ```
//!
//! The answer is what a model reads: the result's `hint` (the traceback with the fix, or the
//! checker's rejection) and its `errors`. The suite reports how many answers carry their fix,
//! the median answer size and that the code's own line comes first, and fails on any miss.

use std::path::{Path, PathBuf};

fn corpus() -> PathBuf {
    blackbox::workspace_root().join("tests/corpus/mistakes")
}

fn scripts() -> Vec<PathBuf> {
    blackbox::corpus_scripts("mistakes")
}

/// What a script's header asks of its answer.
struct Expect {
    ok: bool,
    texts: Vec<String>,
}

fn expectations(code: &str) -> Expect {
    let mut expect = Expect {
        ok: false,
        texts: Vec::new(),
    };
    for line in code.lines().take_while(|l| l.starts_with('#')) {
        if line.trim() == "# expect-ok" {
            expect.ok = true;
        } else if let Some(text) = line.strip_prefix("# expect: ") {
            expect.texts.push(text.to_owned());
        }
    }
    expect
}

fn make_figure(src: &Path, script: &Path, figures: &Path) -> serde_json::Value {
    blackbox::make_figure(src, script.file_stem().unwrap(), script, figures)
}

/// The answer a model reads: the hint and every violation's message.
fn answer_text(json: &serde_json::Value) -> String {
    let mut text = json["hint"].as_str().unwrap_or_default().to_owned();
    for error in json["errors"].as_array().into_iter().flatten() {
        text.push('\n');
        text.push_str(error["message"].as_str().unwrap_or_default());
    }
    text
}

/// One script's verdict: `None` when its answer carries its fact, else why not; and the
/// answer's size in characters.
fn judge(script: &Path, json: &serde_json::Value) -> (Option<String>, usize) {
    let code = std::fs::read_to_string(script).unwrap();
    let expect = expectations(&code);
    assert!(
        !expect.texts.is_empty(),
        "{}: no `# expect:` line",
        script.display()
    );
    let answer = answer_text(json);
    let size = answer.chars().count();
    if json["ok"] != expect.ok {
        return (
            Some(format!(
                "ok is {} (expected {}): {answer}",
                json["ok"], expect.ok
            )),
            size,
        );
    }
    let missing: Vec<&String> = expect
        .texts
        .iter()
        .filter(|t| !answer.contains(t.as_str()))
        .collect();
    if !missing.is_empty() {
        return (Some(format!("lacks {missing:?}: {answer}")), size);
    }
    if expect.ok {
        return (None, size);
    }
    // The code's own line first: a failed run's first frame is the code's, with its
    // source line; a rejection names the code's line.
    match json["stage"].as_str() {
        Some("run") => {
            let first = &json["failure"]["frames"][0];
            if first["kind"] != "user" || first["source"].as_str().is_none_or(str::is_empty) {
                return (Some(format!("the code's line is not first: {json}")), size);
            }
            let line = first["source"].as_str().unwrap_or_default();
            let hint = json["hint"].as_str().unwrap_or_default();
            let at = hint.find(line);
            if at.is_none() || hint[..at.unwrap_or(0)].contains("\n    in ") {
                return (
                    Some(format!(
                        "the hint does not start with the code's line: {hint}"
                    )),
                    size,
                );
            }
            // No host path in the answer.
            for host in ["/tmp/pdfagent-run", "/work/", "site-packages"] {
                if answer.contains(host) {
                    return (
                        Some(format!("a host path ({host}) in the answer: {answer}")),
                        size,
                    );
                }
            }
        }
        Some("check") => {
            if json["errors"][0]["line"].as_u64().unwrap_or(0) == 0 {
                return (Some(format!("no line in the rejection: {json}")), size);
            }
        }
        other => return (Some(format!("stage {other:?}: {answer}")), size),
    }
    (None, size)
}

#[test]
fn every_mistake_is_answered_with_its_fix() {
    let files = scripts();
    assert!(files.len() >= 40, "only {} mistakes", files.len());
    let src = corpus().join("data");
    let figures = tempfile::tempdir().unwrap();
    let verdicts = blackbox::two_at_a_time(&files, |script| {
        judge(script, &make_figure(&src, script, figures.path()))
    });
    let mut sizes: Vec<usize> = verdicts.iter().map(|v| v.1).collect();
    sizes.sort_unstable();
    let misses: Vec<String> = files
        .iter()
        .zip(&verdicts)
        .filter_map(|(f, v)| {
            v.0.as_ref()
                .map(|why| format!("{}: {why}", f.file_name().unwrap().to_string_lossy()))
        })
        .collect();
    eprintln!(
        "mistakes: {}/{} answers carry their fix; median answer {} characters (largest {})",
        files.len() - misses.len(),
        files.len(),
        sizes[sizes.len() / 2],
        sizes.last().copied().unwrap_or(0)
    );
    assert!(
        misses.is_empty(),
        "answers without their fix:\n{}",
        misses.join("\n\n")
    );
}

/// The table of removed and renamed APIs (`worker/answers.py`, `_pdfagent_renamed`) against
/// the shipped versions: every old name is gone (so the row can fire) and every module-level
/// name a row recommends (`use scipy.integrate.simpson`) exists.
#[test]
fn the_renamed_api_table_matches_the_shipped_versions() {
    let table = std::fs::read_to_string(
        blackbox::workspace_root().join("python-runtime/worker/answers.py"),
    )
    .unwrap();
    let start = table.find("def _pdfagent_renamed():").expect("the table");
    let end = table[start..]
        .find("def _pdfagent_renamed_keywords")
        .map_or(table.len(), |e| start + e);
    // The object each row's owner names, reached from the code's side.
    let owners = [
        ("numpy", "np"),
        ("pandas", "pd"),
        ("DataFrame", "pd.DataFrame({'a': [1]})"),
        ("Series", "pd.Series([1])"),
        ("matplotlib.cm", "matplotlib.cm"),
        ("matplotlib.pyplot", "plt"),
        ("Axes", "plt.gca()"),
        ("Legend", "plt.gca().legend(['a'])"),
        ("FigureCanvasAgg", "plt.gcf().canvas"),
        ("scipy.integrate", "scipy.integrate"),
        ("scipy.signal", "scipy.signal"),
        ("scipy.interpolate", "scipy.interpolate"),
        ("scipy.stats", "scipy.stats"),
        ("seaborn", "sns"),
    ];
    let mut code = String::from(
        "import numpy as np\nimport pandas as pd\nimport matplotlib\nimport matplotlib.cm\n\
         import scipy.integrate\nimport scipy.signal\nimport scipy.interpolate\nimport scipy.stats\n\
         import scipy.signal.windows\nimport seaborn as sns\nplt.plot([1, 2])\nstill = []\n",
    );
    let mut rows = 0;
    let mut recommended = Vec::new();
    for line in table[start..end].lines() {
        let line = line.trim();
        let Some(rest) = line.strip_prefix("(\"") else {
            continue;
        };
        let mut parts = rest.splitn(3, '"');
        let owner = parts.next().unwrap();
        let old = rest
            .split('"')
            .nth(2)
            .expect("a row is (\"owner\", \"old\"): \"advice\"");
        let expr = owners
            .iter()
            .find(|(o, _)| *o == owner)
            .unwrap_or_else(|| panic!("no object for the owner {owner:?} in this test"))
            .1;
        code.push_str(&format!(
            "try:\n    {expr}.{old}\n    still.append('{owner}.{old}')\nexcept (AttributeError, TypeError):\n    pass\n"
        ));
        rows += 1;
        for word in line.split(|c: char| c.is_whitespace() || c == '(' || c == '[' || c == ',') {
            let word = word.trim_end_matches(['"', ')', ',']);
            if ["np.", "scipy.", "sns.", "matplotlib."]
                .iter()
                .any(|p| word.starts_with(p))
                && !word.ends_with(&format!(".{old}"))
                && word
                    .chars()
                    .all(|c| c.is_alphanumeric() || c == '.' || c == '_')
            {
                recommended.push(word.to_owned());
            }
        }
    }
    assert!(rows >= 60, "only {rows} rows read from the table");
    recommended.sort();
    recommended.dedup();
    for name in &recommended {
        code.push_str(&format!("{name}\n"));
    }
    code.push_str(
        "assert not still, f'still in the shipped versions: {still}'\nplt.savefig(OUT)\n",
    );
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("table.py");
    std::fs::write(&script, &code).unwrap();
    let figures = dir.path().join("figures");
    let json = make_figure(&corpus().join("data"), &script, &figures);
    assert_eq!(
        json["ok"], true,
        "{}\n{}",
        json["hint"], json["stderr_tail"]
    );
    assert!(recommended.len() >= 10, "{recommended:?}");
}

/// An answer about a column is short and names nothing of the host.
#[test]
fn a_missing_column_answers_in_one_short_pass() {
    let src = corpus().join("data");
    let figures = tempfile::tempdir().unwrap();
    let json = make_figure(&src, &corpus().join("01_column_typo.py"), figures.path());
    let failure = &json["failure"];
    assert_eq!(failure["exception"], "KeyError", "{json}");
    assert_eq!(failure["message"], "'band2'");
    assert_eq!(failure["about_files"], false);
    let kinds: Vec<&str> = failure["frames"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds.first(), Some(&"user"), "{kinds:?}");
    assert!(kinds[1..].iter().all(|k| *k == "library"), "{kinds:?}");
    let hint = json["hint"].as_str().unwrap();
    assert!(
        hint.contains("\n    in pandas DataFrame.__getitem__"),
        "{hint}"
    );
    // The message last, then the fix with the closest column first.
    assert!(
        hint.ends_with(
            "KeyError: 'band2'\nFix: no 'band2': the DataFrame's columns (closest first): \
             'band2_eV', 'band3_eV', 'band1_eV', 'k'"
        ),
        "{hint}"
    );
    assert!(hint.len() < 600, "{} characters: {hint}", hint.len());
}
