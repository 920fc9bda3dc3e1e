//! `syntax-error` — the code does not parse.
//!
//! ## What it does
//! Reports the parser's error at its location.
//!
//! ## Why is this bad?
//! Code that does not parse cannot be checked, and would not run.
//!
//! ## Instead
//! Fix the syntax at the given line and column (Python 3.11).

use super::Rule;

pub const RULE: Rule = Rule {
    id: "syntax-error",
    instead: "fix the Python 3.11 syntax at this line and column",
};

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
