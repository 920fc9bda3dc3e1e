//! `syntax-error` — the code does not parse.
//!
//! ## What it does
//! Reports the parser's error at its location.
//!
//! ## Why is this bad?
//! Code that does not parse cannot be checked, and would not run.
//!
//! ## Instead
//! fix the Python 3.11 syntax at this line and column

use super::{Rule, RuleId};
use crate::check::source::LineIndex;
use crate::check::{Advice, Diagnostic};

pub const RULE: Rule = Rule {
    id: RuleId::SyntaxError,
    instead: "fix the Python 3.11 syntax at this line and column",
};

/// The parser's error, at its position.
pub fn parse_error(lines: &LineIndex, err: &rustpython_parser::ParseError) -> Diagnostic {
    let (line, col) = lines.locate(err.offset.to_usize());
    Diagnostic {
        line,
        col,
        rule: RULE.id,
        what: err.error.to_string(),
        advice: Advice::Rule,
    }
}

/// The checker itself could not finish on this input (its thread failed): refused.
pub fn checker_failed(what: &str) -> Diagnostic {
    Diagnostic {
        line: 1,
        col: 1,
        rule: RULE.id,
        what: what.to_owned(),
        advice: Advice::Own("simplify the code and retry"),
    }
}

#[cfg(test)]
mod tests {
    use crate::check::rules::{assert_accepts, assert_rejects};

    #[test]
    fn cases() {
        assert_accepts("x = (1 +\n     2)\n");
        assert_rejects("x = (1 +\n", &[(2, 1, "syntax-error")]);
        assert_rejects("def f(:\n    pass\n", &[(1, 7, "syntax-error")]);
    }
}
