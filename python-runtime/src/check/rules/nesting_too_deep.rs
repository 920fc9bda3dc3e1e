//! `nesting-too-deep` — brackets or expressions nested deeper than any script needs.
//!
//! ## What it does
//! Before parsing, counts open brackets `([{` (anywhere in the text, strings included, so
//! f-string fields count too) and rejects more than [`MAX_BRACKETS`] open at once. While
//! walking, rejects a syntax tree deeper than [`MAX_TREE_DEPTH`] (long operator chains such
//! as `-----x` or `a.b.c.d...` have no brackets).
//!
//! ## Why is this bad?
//! The parser and the checker are recursive: unbounded nesting is a stack overflow, and
//! CPython itself refuses 200 nested parentheses.
//!
//! ## Instead
//! split the expression into named intermediate variables

use super::{Flow, Rule, RuleId};
use crate::check::source::LineIndex;
use crate::check::walker::Checker;
use crate::check::{Advice, Diagnostic};

pub const RULE: Rule = Rule {
    id: RuleId::NestingTooDeep,
    instead: "split the expression into named intermediate variables",
};

/// Open brackets allowed at once (CPython's own limit is 200).
pub const MAX_BRACKETS: usize = 100;
/// Syntax tree depth allowed while walking.
pub const MAX_TREE_DEPTH: usize = 200;

/// The decoded text, before it is parsed: too many brackets open at once?
pub fn check_brackets(text: &str) -> Option<Diagnostic> {
    let offset = prescan(text)?;
    let (line, col) = LineIndex::new(text).locate(offset);
    Some(Diagnostic {
        line,
        col,
        rule: RULE.id,
        what: format!("more than {MAX_BRACKETS} brackets are open here"),
        advice: Advice::Rule,
    })
}

/// The walk is `depth` levels deep at `offset`: too deep? Reported once per file
/// (`reported` remembers it); the walker does not descend further unless this continues.
pub fn check_depth(cx: &mut Checker, depth: usize, offset: usize, reported: &mut bool) -> Flow {
    if depth <= MAX_TREE_DEPTH {
        return Flow::Continue;
    }
    if !*reported {
        *reported = true;
        cx.report(
            &RULE,
            offset,
            format!("the code nests deeper than {MAX_TREE_DEPTH} levels"),
        );
    }
    Flow::Reported
}

/// Byte offset of the first bracket that opens level `MAX_BRACKETS + 1`, if any.
pub fn prescan(text: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (i, b) in text.bytes().enumerate() {
        match b {
            b'(' | b'[' | b'{' => {
                depth += 1;
                if depth > MAX_BRACKETS {
                    return Some(i);
                }
            }
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use crate::check::rules::{assert_accepts, assert_rejects};

    #[test]
    fn cases() {
        let ok = format!("x = {}1{}\n", "(".repeat(50), ")".repeat(50));
        assert_accepts(&ok);
        let deep = format!("x = {}1{}\n", "(".repeat(10_000), ")".repeat(10_000));
        assert_rejects(&deep, &[(1, 105, "nesting-too-deep")]);
        let chain = format!("x = {}1\n", "-".repeat(5_000));
        assert_rejects(&chain, &[(1, 204, "nesting-too-deep")]);
    }
}
