//! Turning raw bytes into the one text both the checker and the interpreter read.
//!
//! CPython decodes a source file by its coding declaration, drops a UTF-8 BOM, refuses NUL
//! bytes and reads `\r\n` and `\r` as `\n`. The checker must decide on exactly that text, so
//! anything the two could read differently is rejected here, and what is accepted is
//! normalised (BOM dropped, line breaks made `\n`) and handed to the runner verbatim.

use super::Diagnostic;
use super::rules::encoding;

/// Byte offsets of line starts, for 1-based line and character columns.
pub struct LineIndex<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> LineIndex<'a> {
    pub fn new(text: &'a str) -> Self {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        LineIndex { text, starts }
    }

    /// `(line, col)`, both 1-based; the column counts characters, not bytes.
    pub fn locate(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let line = self.starts.partition_point(|&s| s <= offset).max(1);
        let start = self.starts[line - 1];
        let col = self
            .text
            .get(start..offset)
            .map_or(offset - start, |s| s.chars().count());
        (line, col + 1)
    }

    pub fn text(&self) -> &'a str {
        self.text
    }
}

/// Decode and normalise `code`, or say why the interpreter could read it differently.
pub fn prepare(code: &[u8]) -> Result<String, Diagnostic> {
    let code = code.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(code);
    let text = match std::str::from_utf8(code) {
        Ok(text) => text,
        Err(err) => {
            let valid = std::str::from_utf8(&code[..err.valid_up_to()]).unwrap_or_default();
            return Err(encoding::violation(
                valid,
                valid.len(),
                "the code is not valid UTF-8",
            ));
        }
    };
    if let Some(at) = text.find('\0') {
        return Err(encoding::violation(
            text,
            at,
            "the code contains a NUL byte",
        ));
    }
    // Only the one leading BOM is dropped; another U+FEFF is invisible, CPython refuses it
    // outside strings, and the checker's parser might not (write `'\ufeff'` in a string).
    if let Some(at) = text.find('\u{FEFF}') {
        return Err(encoding::violation(
            text,
            at,
            "the code contains a second byte-order mark (U+FEFF)",
        ));
    }
    if let Some((at, name)) = coding_declaration(text)
        && !is_utf8_name(&name)
    {
        return Err(encoding::violation(
            text,
            at,
            &format!("the coding declaration `{name}` is not UTF-8"),
        ));
    }
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    if let Some(at) = form_feed_in_indentation(&text) {
        return Err(encoding::violation(
            &text,
            at,
            "a form feed or vertical tab in indentation (parsers count it differently)",
        ));
    }
    Ok(text)
}

/// CPython resets the indentation column at a form feed; other parsers may not, and the
/// block structure (which method a line belongs to) must be the same for both.
fn form_feed_in_indentation(text: &str) -> Option<usize> {
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let indent = line
            .bytes()
            .take_while(|b| matches!(b, b' ' | b'\t' | b'\x0c' | b'\x0b'))
            .position(|b| matches!(b, b'\x0c' | b'\x0b'));
        if let Some(at) = indent {
            return Some(offset + at);
        }
        offset += line.len();
    }
    None
}

/// PEP 263: `^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)` on line 1, or on line 2 when line 1
/// is blank or a comment. Returns the byte offset of the line and the declared name.
fn coding_declaration(text: &str) -> Option<(usize, String)> {
    let mut offset = 0;
    for (n, line) in text.split_inclusive(['\n', '\r']).take(2).enumerate() {
        let trimmed = line.trim_start_matches([' ', '\t', '\x0c']);
        if let Some(comment) = trimmed.strip_prefix('#') {
            let hit = [comment.find("coding:"), comment.find("coding=")]
                .into_iter()
                .flatten()
                .min();
            if let Some(at) = hit {
                let rest = comment[at + 7..].trim_start_matches([' ', '\t']);
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '.'))
                    .collect();
                if !name.is_empty() {
                    return Some((offset, name));
                }
            }
        } else if n == 0 && !trimmed.trim().is_empty() {
            return None;
        }
        offset += line.len();
    }
    None
}

fn is_utf8_name(name: &str) -> bool {
    let n = name.to_ascii_lowercase().replace('_', "-");
    n == "utf-8" || n == "utf8" || n.starts_with("utf-8-")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bom_is_dropped_and_line_breaks_become_newlines() {
        let text = prepare(b"\xEF\xBB\xBFa = 1\r\nb = 2\rc = 3\n").unwrap();
        assert_eq!(text, "a = 1\nb = 2\nc = 3\n");
    }

    #[test]
    fn utf8_coding_declarations_pass_and_others_are_rejected() {
        assert!(prepare(b"# -*- coding: utf-8 -*-\nx = 1\n").is_ok());
        assert!(prepare(b"#!/usr/bin/env python\n# coding=UTF_8\nx = 1\n").is_ok());
        let v = prepare(b"# -*- coding: latin-1 -*-\nx = 1\n").unwrap_err();
        assert_eq!((v.line, v.col, v.rule.as_str()), (1, 1, "encoding"));
        let v = prepare(b"\n# vim: set fileencoding=utf-7 :\nx = 1\n").unwrap_err();
        assert_eq!((v.line, v.rule.as_str()), (2, "encoding"));
        // Only lines 1-2, and line 2 only after a comment or blank line.
        assert!(prepare(b"x = 1\n# coding: latin-1\n").is_ok());
        assert!(prepare(b"x = 1\ny = 2\n# coding: latin-1\n").is_ok());
    }

    #[test]
    fn only_one_leading_bom_is_dropped() {
        assert_eq!(prepare(b"\xEF\xBB\xBFx = 1\n").unwrap(), "x = 1\n");
        let v = prepare(b"\xEF\xBB\xBF\xEF\xBB\xBF# c\n").unwrap_err();
        assert_eq!((v.line, v.col, v.rule.as_str()), (1, 1, "encoding"));
        assert!(prepare("x = '\u{FEFF}'\n".as_bytes()).is_err());
    }

    #[test]
    fn form_feed_in_indentation_is_rejected() {
        assert!(prepare(b"x = 1\x0c\n").is_ok());
        let v = prepare(b"if x:\n  \x0c  y = 1\n").unwrap_err();
        assert_eq!((v.line, v.col, v.rule.as_str()), (2, 3, "encoding"));
    }

    #[test]
    fn nul_and_invalid_utf8_are_located() {
        let v = prepare(b"x = 1\ny = \0\n").unwrap_err();
        assert_eq!((v.line, v.col), (2, 5));
        let v = prepare(b"x = 1\ny = '\xff'\n").unwrap_err();
        assert_eq!((v.line, v.col), (2, 6));
    }

    #[test]
    fn columns_count_characters() {
        let idx = LineIndex::new("é = 1\nab");
        assert_eq!(idx.locate(0), (1, 1));
        assert_eq!(idx.locate(3), (1, 3));
        assert_eq!(idx.locate(8), (2, 2));
    }
}
