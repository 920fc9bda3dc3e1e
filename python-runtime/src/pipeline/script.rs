//! The worker script, pasted together from the worker's Python in `python-runtime/worker/`
//! (its README gives every script's paste order and the `_pdfagent_` naming rule). A
//! figure's script is seven parts — the preamble (`preamble.py`), the reader table
//! (`readers.py`) and its `.fig` reader (`figfile.py`), the run-time hardening
//! (`harden.py`), the answers to a failure (`answers.py`), the figure capture (`capture.py`)
//! and the figure report (`figure_report.py`) — followed by one call line that hands it
//! `SRC`, `OUT`, the checked code and the run's options as Python string literals
//! ([`render`]); a warm worker's is the same seven with `OUT` and the code left out
//! ([`render_warm`]); a fork server's adds its loop (`fork_server.py`) before the call line
//! ([`render_fork_server`]). The code is compiled by the preamble on its own (file name
//! `<code>`), so its line numbers in a traceback are the author's own and no offset needs
//! reporting.

use super::FigureFormat;
use std::fmt::Write as _;
use std::path::Path;

/// The preamble, shipped inside the binary.
pub const PREAMBLE: &str = include_str!("../../worker/preamble.py");
/// The reader table behind `load()` (and behind every inspection, see `inspect.rs`), pasted
/// after the preamble.
pub const READERS: &str = include_str!("../../worker/readers.py");
/// The reader of MATLAB `.fig` files (the reader table's `.fig` row calls it), pasted right
/// after the reader table wherever the table goes (figures and inspections).
pub const FIGFILE: &str = include_str!("../../worker/figfile.py");
/// The run-time hardening behind Layer 1 (importers, downloaders and unpicklers the
/// libraries hold replaced by refusals; modules read-only to the code), pasted after the
/// reader table; the preamble calls it once its libraries are imported.
pub const HARDEN: &str = include_str!("../../worker/harden.py");
/// The answers to a failed run (the fix where the error is raised, the traceback as data)
/// and the readers' paths as chat assistants write them, pasted after the hardening.
pub const ANSWERS: &str = include_str!("../../worker/answers.py");
/// The figure capture (`savefig` under any name, `plt.show()`, backends, styles, files by
/// plain name), pasted after the preamble.
pub const CAPTURE: &str = include_str!("../../worker/capture.py");
/// The figure report (what each figure shows, with warnings) and the preview, pasted last:
/// the capture calls them for every figure it keeps.
pub const REPORT: &str = include_str!("../../worker/figure_report.py");

/// What a run asks of the worker besides the code: sent as JSON (see `capture.py`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct RunOptions {
    /// The requested format: what `OUT` is and what figures captured from `plt.show()`
    /// are saved as.
    pub format: FigureFormat,
    /// Most figures one run may make.
    pub max_figures: usize,
    /// Whether the worker makes a small preview of every figure (for MCP clients).
    pub preview: bool,
}

impl RunOptions {
    pub fn new(format: FigureFormat) -> RunOptions {
        RunOptions {
            format,
            max_figures: super::figures::capture::MAX_FIGURES,
            preview: false,
        }
    }

    fn to_json(self) -> String {
        // Plain fields only: serialisation cannot fail.
        serde_json::to_string(&self).unwrap_or_else(|_| "{}".into())
    }
}

/// Everything the worker script holds before its call line.
fn script_head(extra: usize) -> String {
    let parts = [PREAMBLE, READERS, FIGFILE, HARDEN, ANSWERS, CAPTURE, REPORT];
    let mut script = String::with_capacity(parts.iter().map(|p| p.len()).sum::<usize>() + extra);
    for part in parts {
        script.push_str(part);
        script.push_str("\n\n");
    }
    script.truncate(script.len() - 2);
    script
}

/// Name of the worker script inside the run directory.
pub const SCRIPT_NAME: &str = "worker.py";

/// Name of the PNG figure the code saves (`OUT`) inside the run directory; other formats
/// use `FigureFormat::out_name`.
pub const OUT_NAME: &str = "out.png";

/// The full worker script for `code`, reading from `src` and saving to `out`.
///
/// `src` and `out` must be valid UTF-8 (input validation makes sure of it); anything else
/// is replaced lossily, which would only point the worker at a folder it cannot use.
pub fn render(src: &Path, out: &Path, code: &str, options: RunOptions) -> String {
    // Python's paths: never `\\?\`-prefixed on Windows (`plain_path`).
    let src = crate::plain_path::plain_ref(src);
    let out = crate::plain_path::plain_ref(out);
    let src = src.to_string_lossy();
    let out = out.to_string_lossy();
    let mut script = script_head(code.len() * 2 + 256);
    script.push_str("\n\n_pdfagent_run(");
    script.push_str(&py_str_literal(&src));
    script.push_str(", ");
    script.push_str(&py_str_literal(&out));
    script.push_str(", ");
    script.push_str(&py_str_literal(code));
    script.push_str(", ");
    script.push_str(&py_str_literal(&options.to_json()));
    script.push_str(")\n");
    script
}

/// The script of a warm worker for `src`: the same preamble, called with `OUT` and the code
/// left out; the worker warms up and then reads them as one JSON object from stdin (see
/// `running/protocol.rs`'s `figure_request`).
pub fn render_warm(src: &Path) -> String {
    let src = crate::plain_path::plain_ref(src);
    let src = src.to_string_lossy();
    let mut script = script_head(256);
    script.push_str("\n\n_pdfagent_run(");
    script.push_str(&py_str_literal(&src));
    script.push_str(", None, None, None)\n");
    script
}

/// The fork server's loop (Linux), pasted after the figure report in its script only.
pub const FORK_SERVER: &str = include_str!("../../worker/fork_server.py");

/// The script of a fork server for `src`: the warm worker's script plus the server loop,
/// called with options `"serve"` (see `fork_server.py`; its messages are in
/// `running/protocol.rs`).
pub fn render_fork_server(src: &Path) -> String {
    let src = src.to_string_lossy();
    let mut script = script_head(FORK_SERVER.len() + 256);
    script.push_str("\n\n");
    script.push_str(FORK_SERVER);
    script.push_str("\n\n_pdfagent_run(");
    script.push_str(&py_str_literal(&src));
    script.push_str(", None, None, 'serve')\n");
    script
}

/// A Python `str` literal that evaluates to exactly `text`: printable ASCII as is,
/// everything else escaped by code point, so no decoding step can read it differently.
pub fn py_str_literal(text: &str) -> String {
    let mut lit = String::with_capacity(text.len() + 2);
    lit.push('\'');
    for c in text.chars() {
        match c {
            '\\' => lit.push_str("\\\\"),
            '\'' => lit.push_str("\\'"),
            ' '..='~' => lit.push(c),
            _ => {
                let cp = u32::from(c);
                // Writing into a String cannot fail.
                let _ = if cp < 0x100 {
                    write!(lit, "\\x{cp:02x}")
                } else if cp < 0x1_0000 {
                    write!(lit, "\\u{cp:04x}")
                } else {
                    write!(lit, "\\U{cp:08x}")
                };
            }
        }
    }
    lit.push('\'');
    lit
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literal_escapes_quotes_backslashes_and_non_ascii() {
        assert_eq!(py_str_literal("a'b\\c"), r"'a\'b\\c'");
        assert_eq!(py_str_literal("x\ny\r\t\0"), r"'x\x0ay\x0d\x09\x00'");
        assert_eq!(py_str_literal("é€😀"), r"'\xe9\u20ac\U0001f600'");
        assert_eq!(py_str_literal("\u{2028}"), r"'\u2028'");
    }

    #[test]
    fn literal_is_a_single_line() {
        let lit = py_str_literal("line1\nline2\r\n\u{85}\u{2029}");
        assert!(!lit.contains(['\n', '\r', '\u{85}', '\u{2028}', '\u{2029}']));
    }

    #[test]
    fn script_is_preamble_then_one_call() {
        let options = RunOptions::new(FigureFormat::Svg);
        let script = render(
            Path::new("/data"),
            Path::new("/run/out.svg"),
            "x = 1\n",
            options,
        );
        let head = script_head(0);
        assert!(script.starts_with(&head));
        let tail = &script[head.len()..];
        assert_eq!(
            tail,
            "\n\n_pdfagent_run('/data', '/run/out.svg', 'x = 1\\x0a', \
             '{\"format\":\"svg\",\"max_figures\":16,\"preview\":false}')\n"
        );
    }

    #[test]
    fn warm_script_is_preamble_then_one_call_without_out_and_code() {
        let script = render_warm(Path::new("/data"));
        assert_eq!(
            &script[script_head(0).len()..],
            "\n\n_pdfagent_run('/data', None, None, None)\n"
        );
    }

    #[test]
    fn worker_files_leave_no_module_level_names_but_their_functions() {
        // Only `def _pdfagent_...` may sit at column 0 (apart from comments): the code's
        // namespace is built inside `_pdfagent_run`, so no `os`/`sys` is left for the code
        // to find.
        for line in script_head(0).lines() {
            if line.is_empty() || line.starts_with('#') || line.starts_with(' ') {
                continue;
            }
            assert!(
                line.starts_with("def _pdfagent_"),
                "unexpected module-level line in the worker script: {line}"
            );
        }
    }
}
