//! Tool results as an agent reads them: every figure of a run as text (where it is, how it
//! was captured, the report of what it shows) plus, per figure, a small preview image and a
//! link to the full-size file; every refusal or failure as `isError: true` with text that is
//! enough to fix the code.

use super::uri;
use base64::Engine as _;
use python_runtime::listing::{Listing, MAX_DEPTH};
use python_runtime::provenance::folder::{Entry, Freshness};
use python_runtime::versions;
use python_runtime::{Captured, FigureResult, Outcome, SavedFigure, tail_chars};
use rmcp::model::{CallToolResult, ContentBlock, Resource};
use std::fmt::Write as _;

/// Most base64 characters of an image sent inline: hosts truncate or warn on larger tool
/// results. The worker makes previews under this; a figure without one is sent as it is
/// only when it fits.
pub const MAX_INLINE_BASE64: usize = 60_000;
/// At most this many violations are spelled out beyond the ones the hint already lists.
const MAX_EXTRA_VIOLATIONS: usize = 200;

/// Whether images go into the result (`inline`) or only text and links (`none`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Preview {
    #[default]
    Inline,
    None,
}

/// The `make_figure` result for `result`. Nothing here decodes an image: the previews were
/// made by the confined worker, and this process is not confined.
pub fn figure(result: &FigureResult, preview: Preview) -> CallToolResult {
    let structured = serde_json::to_value(result).ok();
    let mut call = if result.ok {
        figures_made(result, preview)
    } else {
        CallToolResult::error(vec![ContentBlock::text(failure_text(result))])
    };
    call.structured_content = structured;
    call
}

fn figures_made(result: &FigureResult, preview: Preview) -> CallToolResult {
    let count = result.figures.len();
    let mut text = if count == 1 {
        format!("Figure saved ({} ms).", result.ms)
    } else {
        format!("{count} figures saved ({} ms).", result.ms)
    };
    let mut images = Vec::new();
    for (i, figure) in result.figures.iter().enumerate() {
        let _ = write!(text, "\n\n{}", figure_heading(i, count, figure));
        if let Some(report) = &figure.report_text {
            let _ = write!(text, "\n{}", report.trim_end());
        }
        if let Some(summary) = &figure.provenance {
            let _ = write!(text, "\n{}", summary.line());
        }
        if preview == Preview::Inline {
            match inline_image(figure) {
                Some(image) => images.push(image),
                None => text.push_str(
                    "\n(No image attached: the file is too large to send inline; read the \
                     report above, or the file itself through its resource link.)",
                ),
            }
        }
        images.push(ContentBlock::resource_link(figure_resource(figure)));
    }
    if let Some(kept) = &result.replaced {
        let _ = write!(
            text,
            "\n\nThe figure this replaced is kept as version {}: {}.",
            kept.version,
            kept.path.display()
        );
    }
    if let Some(hint) = &result.hint {
        let _ = write!(text, "\n\n{hint}");
    }
    let stderr = result.stderr_tail.trim_end();
    if !stderr.is_empty() {
        let _ = write!(text, "\n\nstderr (tail):\n{stderr}");
    }
    let mut content = vec![ContentBlock::text(text)];
    content.extend(images);
    CallToolResult::success(content)
}

fn figure_heading(i: usize, count: usize, figure: &SavedFigure) -> String {
    let which = if count == 1 {
        "Figure".to_owned()
    } else {
        format!("Figure {} of {count}", i + 1)
    };
    let how = match (figure.captured, figure.saved_as.as_deref()) {
        (Captured::Out, _) => "saved at OUT".to_owned(),
        (Captured::Saved, Some(name)) => format!("saved by the code as {name:?}"),
        (Captured::Saved, None) => "saved by the code".to_owned(),
        (Captured::Shown, _) => "captured from plt.show() or the open figures".to_owned(),
    };
    format!(
        "{which}: {} ({}, {} bytes, {how}).",
        figure.path.display(),
        figure.format.extension().to_uppercase(),
        figure.bytes
    )
}

/// The worker's preview of the figure, or the file itself when it is a raster image that
/// fits; `None` when neither fits.
fn inline_image(figure: &SavedFigure) -> Option<ContentBlock> {
    let engine = base64::engine::general_purpose::STANDARD;
    if let Some(preview) = &figure.preview {
        let data = engine.encode(&preview.bytes);
        if data.len() <= MAX_INLINE_BASE64 {
            return Some(ContentBlock::image(data, preview.format.mime()));
        }
    }
    if !figure.format.is_raster() || figure.bytes as usize > MAX_INLINE_BASE64 / 4 * 3 {
        return None;
    }
    let bytes = std::fs::read(&figure.path).ok()?;
    let data = engine.encode(&bytes);
    (data.len() <= MAX_INLINE_BASE64).then(|| ContentBlock::image(data, figure.format.mime()))
}

/// The figure as an MCP resource: its `file://` URI, readable with `resources/read`.
pub fn figure_resource(figure: &SavedFigure) -> Resource {
    let name = figure
        .path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    Resource::new(uri::file_uri(&figure.path), name)
        .with_mime_type(figure.format.mime())
        .with_size(figure.bytes)
        .with_description("the full-size figure file")
}

/// How to read data and save figures: said after failures about either.
const REMINDER: &str = "Remember: read data by its name in the data folder \
     (pd.read_csv('data.csv')), and save with plt.savefig(OUT) (or plt.savefig('name.png'), \
     or plt.show()).";
/// Most characters shown of what the code printed before its failure.
const PRINTED_MAX_CHARS: usize = 600;

/// The code's own output on stderr before the worker's traceback (a library's warnings,
/// the code's prints), its tail: the traceback itself is in the hint, whole.
fn printed_before_failure(stderr: &str) -> &str {
    let before = stderr
        .rfind("Traceback (your code first")
        .map_or(stderr, |at| &stderr[..at])
        .trim_end();
    tail_chars(before, PRINTED_MAX_CHARS)
}

/// Everything an agent needs to fix its code: what happened, every violation with its line
/// and column, the instructional hint, and the tail of stderr.
pub fn failure_text(result: &FigureResult) -> String {
    let mut text = String::from(match result.stage {
        Outcome::Check => "REJECTED before running (nothing ran).\n",
        Outcome::Run => "The code ran and FAILED; no figure was made.\n",
        Outcome::NoOutput => "The code ran but made NO FIGURE.\n",
        Outcome::Timeout => "The code was STOPPED: it ran past the time limit.\n",
        Outcome::Input => "The request was REFUSED (bad arguments); nothing ran.\n",
        Outcome::Done | Outcome::Updated => "",
    });
    match result.stage {
        // One sentence: nothing about the code, which never reached a worker.
        Outcome::Updated => text.push_str(result.hint.as_deref().unwrap_or_default()),
        Outcome::Check => {
            if let Some(hint) = &result.hint {
                text.push_str(hint);
                text.push('\n');
            }
            // The hint spells out the first violations; list the rest, so the agent sees
            // every one without the JSON.
            let shown_in_hint = result
                .hint
                .as_deref()
                .map(|h| {
                    result
                        .errors
                        .iter()
                        .take_while(|v| {
                            h.contains(&format!("\n{}:{} {} — ", v.line, v.col, v.rule))
                        })
                        .count()
                })
                .unwrap_or(0);
            let rest: Vec<_> = result.errors.iter().skip(shown_in_hint).collect();
            if !rest.is_empty() {
                text.push_str("All remaining violations:\n");
                for v in rest.iter().take(MAX_EXTRA_VIOLATIONS) {
                    let _ = writeln!(text, "{}:{} {} — {}", v.line, v.col, v.rule, v.message);
                }
            }
        }
        Outcome::Input => {
            for v in &result.errors {
                let _ = writeln!(text, "{} — {}", v.rule, v.message);
            }
        }
        _ => match &result.failure {
            // The worker's answer: what the code printed before, then the traceback with
            // the message last and the fix (already in `hint`); the reminder only when the
            // failure is about reading data or saving figures.
            Some(failure) => {
                let before = printed_before_failure(&result.stderr_tail);
                if !before.is_empty() {
                    let _ = writeln!(text, "stderr before the failure (tail):\n{before}");
                }
                if let Some(hint) = &result.hint {
                    let _ = writeln!(text, "{hint}");
                }
                if failure.about_files {
                    text.push_str(REMINDER);
                }
            }
            None => {
                if let Some(hint) = &result.hint {
                    let _ = writeln!(text, "{hint}");
                }
                let stderr = result.stderr_tail.trim_end();
                if !stderr.is_empty() {
                    let _ = writeln!(
                        text,
                        "stderr (tail; line numbers are your code's own):\n{stderr}"
                    );
                }
                if result.stage == Outcome::NoOutput {
                    text.push_str(REMINDER);
                }
            }
        },
    }
    text.trim_end().to_owned()
}

pub fn listing(sub: &str, listing: &Listing) -> CallToolResult {
    let total: u64 = listing.files().map(|f| f.bytes).sum();
    let place = if sub.is_empty() {
        "the data folder".to_owned()
    } else {
        format!("`{sub}`")
    };
    let mut text = format!(
        "{} files in {place} ({total} bytes); read one with load('<path>') or srcpath('<path>'):\n",
        listing.files().count()
    );
    // The files and the refused entries, in the listing's order (what the window's tree
    // shows, less the folders).
    for e in listing
        .entries
        .iter()
        .filter(|e| !e.dir || e.refused.is_some())
    {
        let _ = match e.refused {
            Some(refusal) => writeln!(text, "{}\t{}", e.path, refusal.reason()),
            None => writeln!(text, "{}\t{} bytes", e.path, e.bytes),
        };
    }
    if listing.left_out > 0 {
        let _ = writeln!(
            text,
            "... truncated: {} more entries not listed (pass sub='<folder>' to list one part)",
            listing.left_out
        );
    }
    if listing.not_entered > 0 {
        let _ = writeln!(
            text,
            "... {} folders {} levels down not listed (pass sub='<folder>' to list one)",
            listing.not_entered, MAX_DEPTH
        );
    }
    if listing.hidden > 0 {
        let _ = writeln!(
            text,
            "({} hidden entries, names starting with '.', not listed; one can still be read by \
             its name)",
            listing.hidden
        );
    }
    let mut call = CallToolResult::success(vec![ContentBlock::text(text.trim_end())]);
    call.structured_content = serde_json::to_value(listing).ok();
    call
}

/// A refusal or failure of `list_data`/`describe_data`: text only, `isError: true`.
/// How many earlier versions each listed file's name has (by file stem: `bands` for
/// `bands.png`), in the order of `entries`.
pub fn version_counts(figures: &std::path::Path, entries: &[Entry]) -> Vec<usize> {
    entries
        .iter()
        .map(|e| {
            e.file
                .file_stem()
                .and_then(|s| s.to_str())
                .map_or(0, |stem| versions::count(figures, stem))
        })
        .collect()
}

/// The `list_figures` result: one line per figure file, with its name, time, whether its
/// data changed since (`stale`: redraw it with make_figure and its code) and how many
/// earlier versions its name keeps (`versions[i]` for `entries[i]`).
pub fn figure_list(entries: &[Entry], versions: &[usize]) -> CallToolResult {
    let mut text = if entries.is_empty() {
        "No figures in the figures folder yet.".to_owned()
    } else {
        format!("{} figure file(s):", entries.len())
    };
    let mut listed = Vec::with_capacity(entries.len());
    for (i, entry) in entries.iter().enumerate() {
        let file = entry
            .file
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        listed.push(serde_json::json!({
            "file": entry.file,
            "name": entry.name(),
            "stale": entry.freshness == Freshness::Stale,
            "versions": versions.get(i).copied().unwrap_or(0),
        }));
        let _ = write!(text, "\n- {file} ({} bytes): ", entry.bytes);
        match (&entry.provenance, entry.freshness) {
            (Some(p), freshness) => {
                let state = if freshness == Freshness::Stale {
                    format!("STALE (changed: {})", entry.changed.join(", "))
                } else {
                    "fresh".to_owned()
                };
                let _ = write!(
                    text,
                    "name `{}`, made {}, {state}; data: {}",
                    p.name,
                    p.created,
                    if p.inputs.is_empty() {
                        "none recorded".to_owned()
                    } else {
                        p.inputs
                            .iter()
                            .map(|i| i.path.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    }
                );
            }
            (None, Freshness::Untrusted) => {
                let _ = write!(
                    text,
                    "record not trusted: {}",
                    entry.problem.as_deref().unwrap_or("")
                );
            }
            (None, _) => text.push_str("no provenance record"),
        }
        match versions.get(i).copied().unwrap_or(0) {
            0 => {}
            1 => text.push_str("; 1 earlier version kept"),
            n => {
                let _ = write!(text, "; {n} earlier versions kept");
            }
        }
    }
    if entries.iter().any(|e| e.freshness == Freshness::Stale) {
        text.push_str(
            "\n\nTo redraw a stale figure call make_figure with its name and code (call              list_figures with code = true to get the code back).",
        );
    }
    let mut call = CallToolResult::success(vec![ContentBlock::text(text)]);
    call.structured_content = Some(serde_json::json!({ "figures": listed }));
    call
}

/// The code of the figures named, as `list_figures {code: true}` returns it.
pub fn figure_code(entries: &[Entry]) -> String {
    let mut out = String::new();
    for entry in entries {
        if let Some(p) = &entry.provenance {
            let _ = write!(
                out,
                "\n\n--- code of {} (name `{}`, format {}) ---\n{}",
                p.file, p.name, p.format, p.code
            );
        }
    }
    out
}

pub fn error_text(text: impl Into<String>) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(text.into())])
}

/// The last characters of a long text, for messages.
pub fn tail(text: &str, max_chars: usize) -> &str {
    tail_chars(text, max_chars)
}

#[cfg(test)]
mod tests {
    use super::*;
    use python_runtime::{Advice, Diagnostic, RuleId};

    fn rejected(n: usize) -> FigureResult {
        let diagnostics: Vec<Diagnostic> = (1..=n)
            .map(|i| Diagnostic {
                line: i,
                col: 1,
                rule: RuleId::ImportNotAllowed,
                what: format!("m{i}"),
                advice: Advice::Rule,
            })
            .collect();
        let hint = python_runtime::render_hint(&diagnostics, python_runtime::Policy::builtin());
        let errors = diagnostics.iter().map(Diagnostic::violation).collect();
        FigureResult {
            ok: false,
            stage: Outcome::Check,
            figure: None,
            bytes: None,
            figures: vec![],
            ms: 1,
            errors,
            hint: Some(hint),
            stderr_tail: String::new(),
            cancelled: false,
            failure: None,
            replaced: None,
            guard: Vec::new(),
        }
    }

    #[test]
    fn every_violation_is_in_the_text_once() {
        for n in [1, 12, 30] {
            let text = failure_text(&rejected(n));
            for i in 1..=n {
                // The first says the rule's advice after what is wrong; the rest only what.
                let needle = format!("{i}:1 import-not-allowed — m{i}");
                let count = text
                    .lines()
                    .filter(|l| {
                        *l == needle
                            || (l.starts_with(&format!("{needle}; ")) && (i == 1 || i > 12))
                    })
                    .count();
                assert_eq!(count, 1, "n={n} i={i}:\n{text}");
            }
            assert!(text.contains("plt.savefig(OUT)"));
        }
    }

    #[test]
    fn rejection_is_an_error_with_structured_contract() {
        let call = figure(&rejected(2), Preview::Inline);
        assert_eq!(call.is_error, Some(true));
        let s = call.structured_content.unwrap();
        assert_eq!(s["stage"], "check");
        assert_eq!(s["errors"][1]["line"], 2);
    }
}
