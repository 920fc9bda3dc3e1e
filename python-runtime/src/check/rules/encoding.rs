//! `encoding` — the bytes could be read differently by the checker and the interpreter.
//!
//! ## What it does
//! Rejects code that is not valid UTF-8, contains a NUL byte, or declares a coding other
//! than UTF-8 (`# -*- coding: latin-1 -*-`).
//!
//! ## Why is this bad?
//! The checker must decide on exactly the text the interpreter will run. A different codec
//! (`utf-7` turns `+AG8-` into letters) or a NUL byte makes the two read different programs.
//!
//! ## Instead
//! send plain UTF-8 text without NUL bytes and without a non-UTF-8 coding line

use super::{Rule, RuleId};
use crate::check::source::LineIndex;
use crate::check::{Advice, Diagnostic};

pub const RULE: Rule = Rule {
    id: RuleId::Encoding,
    instead: "send plain UTF-8 text without NUL bytes and without a non-UTF-8 coding line",
};

/// A violation at byte `offset` of the (valid) prefix `text`.
pub fn violation(text: &str, offset: usize, what: &str) -> Diagnostic {
    let (line, col) = LineIndex::new(text).locate(offset);
    Diagnostic {
        line,
        col,
        rule: RULE.id,
        what: what.to_owned(),
        advice: Advice::Rule,
    }
}

#[cfg(test)]
mod tests {
    use crate::check::rules::{assert_accepts, assert_rejects};

    #[test]
    fn cases() {
        assert_accepts("# coding: utf-8\nx = 'é'\n");
        assert_rejects("# coding: latin-1\nx = 1\n", &[(1, 1, "encoding")]);
        assert_rejects("x = 1\0\n", &[(1, 6, "encoding")]);
    }
}
