//! Tool results as an agent reads them: a figure as text plus an `image/png` item, every
//! refusal or failure as `isError: true` with text that is enough to fix the code.

use base64::Engine as _;
use python_runtime::pipeline::listing::Listing;
use python_runtime::pipeline::output::{is_png, tail_chars};
use python_runtime::pipeline::{FigureFormat, FigureResult, Outcome};
use rmcp::model::{CallToolResult, ContentBlock};
use std::fmt::Write as _;

/// Largest figure sent inline; larger ones stay on disk only (the path is in the text).
/// Figures are not downscaled on purpose: the PNG was written by untrusted code, and this
/// process is not confined, so it reads only the `IHDR` header and never decodes the image.
pub const MAX_INLINE_BYTES: u64 = 1_500_000;
/// Largest width or height sent inline: what a model can look at without being resized.
pub const MAX_INLINE_PIXELS: u32 = 4096;
/// At most this many violations are spelled out beyond the ones the hint already lists.
const MAX_EXTRA_VIOLATIONS: usize = 200;

/// Width and height from a PNG's `IHDR` chunk.
pub fn png_size(bytes: &[u8]) -> Option<(u32, u32)> {
    if !is_png(bytes) || bytes.len() < 24 {
        return None;
    }
    let word =
        |at: usize| u32::from_be_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
    Some((word(16), word(20)))
}

/// The `make_figure` result for `result`; a PNG figure is read back from disk and attached,
/// a vector one (SVG, PDF) is only named: clients show images, not documents.
pub fn figure(result: &FigureResult, format: FigureFormat) -> CallToolResult {
    let structured = serde_json::to_value(result).ok();
    let mut call = if result.ok && format != FigureFormat::Png {
        vector_made(result, format)
    } else if result.ok {
        figure_made(result)
    } else {
        CallToolResult::error(vec![ContentBlock::text(failure_text(result))])
    };
    call.structured_content = structured;
    call
}

fn vector_made(result: &FigureResult, format: FigureFormat) -> CallToolResult {
    let path = result
        .figure
        .as_ref()
        .map(|p| p.display().to_string())
        .unwrap_or_default();
    let mut text = format!(
        "Figure saved: {path} ({} bytes, {} ms).\nThis is a vector figure ({}): it is on disk at \
         that path and is not attached as an image (ask for format png to see it).",
        result.bytes.unwrap_or_default(),
        result.ms,
        format.extension().to_uppercase(),
    );
    let stderr = result.stderr_tail.trim_end();
    if !stderr.is_empty() {
        let _ = write!(text, "\nstderr (tail):\n{stderr}");
    }
    CallToolResult::success(vec![ContentBlock::text(text)])
}

fn figure_made(result: &FigureResult) -> CallToolResult {
    let path = result
        .figure
        .as_ref()
        .map(|p| p.display().to_string())
        .unwrap_or_default();
    let bytes = result
        .figure
        .as_ref()
        .and_then(|p| std::fs::read(p).ok())
        .unwrap_or_default();
    let size = png_size(&bytes);
    let mut text = format!(
        "Figure saved: {path} ({} bytes{}, {} ms).",
        bytes.len(),
        size.map(|(w, h)| format!(", {w}x{h} px"))
            .unwrap_or_default(),
        result.ms
    );
    let inline = match size {
        Some((w, h))
            if (bytes.len() as u64) <= MAX_INLINE_BYTES
                && w <= MAX_INLINE_PIXELS
                && h <= MAX_INLINE_PIXELS =>
        {
            true
        }
        Some(_) => {
            let _ = write!(
                text,
                "\nThe image is not attached: it is larger than {MAX_INLINE_BYTES} bytes or \
                 {MAX_INLINE_PIXELS} px; the full-size file is at the path above (lower the dpi \
                 or figsize to see it inline)."
            );
            false
        }
        None => {
            let _ = write!(
                text,
                "\nThe saved file could not be read back to attach it."
            );
            false
        }
    };
    let stderr = result.stderr_tail.trim_end();
    if !stderr.is_empty() {
        let _ = write!(text, "\nstderr (tail):\n{stderr}");
    }
    let mut content = vec![ContentBlock::text(text)];
    if inline {
        let data = base64::engine::general_purpose::STANDARD.encode(&bytes);
        content.push(ContentBlock::image(data, "image/png"));
    }
    CallToolResult::success(content)
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
        Outcome::Done => "",
    });
    match result.stage {
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
        _ => {
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
            text.push_str("Remember: read data with srcpath('file'), save with plt.savefig(OUT).");
        }
    }
    text.trim_end().to_owned()
}

pub fn listing(sub: &str, listing: &Listing) -> CallToolResult {
    let total: u64 = listing.files.iter().map(|f| f.bytes).sum();
    let place = if sub.is_empty() {
        "the data folder".to_owned()
    } else {
        format!("`{sub}`")
    };
    let mut text = format!(
        "{} files in {place} ({total} bytes); read one with srcpath('<path>'):\n",
        listing.files.len()
    );
    for f in &listing.files {
        let _ = writeln!(text, "{}\t{} bytes", f.path, f.bytes);
    }
    if listing.left_out > 0 {
        let _ = writeln!(
            text,
            "... truncated: {} more files not listed (pass sub='<folder>' to list one part)",
            listing.left_out
        );
    }
    if listing.skipped_links > 0 {
        let _ = writeln!(
            text,
            "({} links pointing outside the data folder were skipped)",
            listing.skipped_links
        );
    }
    let mut call = CallToolResult::success(vec![ContentBlock::text(text.trim_end())]);
    call.structured_content = serde_json::to_value(listing).ok();
    call
}

/// A refusal or failure of `list_data`/`describe_data`: text only, `isError: true`.
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
    use python_runtime::check::Violation;

    fn rejected(n: usize) -> FigureResult {
        let errors: Vec<Violation> = (1..=n)
            .map(|i| Violation {
                line: i,
                col: 1,
                rule: "import-not-allowed".into(),
                message: format!("m{i}"),
            })
            .collect();
        let hint =
            python_runtime::check::hint::render(&errors, python_runtime::policy::Policy::builtin());
        FigureResult {
            ok: false,
            stage: Outcome::Check,
            figure: None,
            bytes: None,
            ms: 1,
            errors,
            hint: Some(hint),
            stderr_tail: String::new(),
        }
    }

    #[test]
    fn every_violation_is_in_the_text_once() {
        for n in [1, 12, 30] {
            let text = failure_text(&rejected(n));
            for i in 1..=n {
                let needle = format!("{i}:1 import-not-allowed — m{i}");
                let count = text.lines().filter(|l| *l == needle).count();
                assert_eq!(count, 1, "n={n} i={i}:\n{text}");
            }
            assert!(text.contains("plt.savefig(OUT)"));
        }
    }

    #[test]
    fn rejection_is_an_error_with_structured_contract() {
        let call = figure(&rejected(2), FigureFormat::Png);
        assert_eq!(call.is_error, Some(true));
        let s = call.structured_content.unwrap();
        assert_eq!(s["stage"], "check");
        assert_eq!(s["errors"][1]["line"], 2);
    }

    #[test]
    fn png_size_reads_ihdr() {
        let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\x02\x80\0\0\x01\xe0\x08\x06\0\0\0";
        assert_eq!(png_size(png), Some((640, 480)));
        assert_eq!(png_size(b"GIF89a"), None);
    }
}
