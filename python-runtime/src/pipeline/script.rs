//! The worker script: the preamble (`preamble.py`) followed by one call line that hands it
//! `SRC`, `OUT` and the checked code as Python string literals. The code is compiled by the
//! preamble on its own (file name `<code>`), so its line numbers in a traceback are the
//! author's own and no offset needs reporting.

use std::fmt::Write as _;
use std::path::Path;

/// The preamble, shipped inside the binary.
pub const PREAMBLE: &str = include_str!("../preamble.py");

/// Name of the worker script inside the run directory.
pub const SCRIPT_NAME: &str = "worker.py";

/// Name of the PNG figure the code saves (`OUT`) inside the run directory; other formats
/// use `FigureFormat::out_name`.
pub const OUT_NAME: &str = "out.png";

/// The full worker script for `code`, reading from `src` and saving to `out`.
///
/// `src` and `out` must be valid UTF-8 (input validation makes sure of it); anything else
/// is replaced lossily, which would only point the worker at a folder it cannot use.
pub fn render(src: &Path, out: &Path, code: &str) -> String {
    let src = src.to_string_lossy();
    let out = out.to_string_lossy();
    let mut script = String::with_capacity(PREAMBLE.len() + code.len() * 2 + 256);
    script.push_str(PREAMBLE);
    script.push_str("\n\n_pdfagent_run(");
    script.push_str(&py_str_literal(&src));
    script.push_str(", ");
    script.push_str(&py_str_literal(&out));
    script.push_str(", ");
    script.push_str(&py_str_literal(code));
    script.push_str(")\n");
    script
}

/// The script of a warm worker for `src`: the same preamble, called with `OUT` and the code
/// left out; the worker warms up and then reads them as one JSON object from stdin (see
/// [`warm_request`]).
pub fn render_warm(src: &Path) -> String {
    let src = src.to_string_lossy();
    let mut script = String::with_capacity(PREAMBLE.len() + 256);
    script.push_str(PREAMBLE);
    script.push_str("\n\n_pdfagent_run(");
    script.push_str(&py_str_literal(&src));
    script.push_str(", None, None)\n");
    script
}

/// What the parent writes to a warm worker's stdin: `{"out": OUT, "code": CODE}`. JSON
/// strings carry any Rust `str` exactly, so the worker runs the very text Layer 1 checked.
pub fn warm_request(out: &Path, code: &str) -> String {
    serde_json::json!({ "out": out.to_string_lossy(), "code": code }).to_string()
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
        let script = render(Path::new("/data"), Path::new("/run/out.png"), "x = 1\n");
        assert!(script.starts_with(PREAMBLE));
        let tail = &script[PREAMBLE.len()..];
        assert_eq!(
            tail,
            "\n\n_pdfagent_run('/data', '/run/out.png', 'x = 1\\x0a')\n"
        );
    }

    #[test]
    fn warm_script_is_preamble_then_one_call_without_out_and_code() {
        let script = render_warm(Path::new("/data"));
        assert_eq!(
            &script[PREAMBLE.len()..],
            "\n\n_pdfagent_run('/data', None, None)\n"
        );
        let sent: serde_json::Value =
            serde_json::from_str(&warm_request(Path::new("/run/out.png"), "a = '\u{e9}'\n"))
                .unwrap();
        assert_eq!(sent["out"], "/run/out.png");
        assert_eq!(sent["code"], "a = '\u{e9}'\n");
    }

    #[test]
    fn preamble_leaves_no_module_level_names_but_the_runner() {
        // Only `def _pdfagent_run` may sit at column 0 (apart from comments): the code's
        // namespace is built inside it, so no `os`/`sys` is left for the code to find.
        for line in PREAMBLE.lines() {
            if line.is_empty() || line.starts_with('#') || line.starts_with(' ') {
                continue;
            }
            assert!(
                line.starts_with("def _pdfagent_run("),
                "unexpected module-level line in preamble.py: {line}"
            );
        }
    }
}
