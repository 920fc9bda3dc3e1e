//! `star-import` — `from module import *`.
//!
//! ## What it does
//! Rejects star imports, even from allowed modules.
//!
//! ## Why is this bad?
//! A star import binds names the checker cannot see (`from numpy import *` brings
//! numpy's re-exported helpers into scope), so the name rules would judge the wrong thing.
//!
//! ## Instead
//! import the names you use, e.g. `from numpy import linspace`, or write `np.linspace`

use super::{Rule, RuleId};
use crate::check::walker::Checker;

pub const RULE: Rule = Rule {
    id: RuleId::StarImport,
    instead: "import the names you use, e.g. `from numpy import linspace`, or write `np.linspace`",
};

/// One imported `name` of `from module import ...`: `*` is refused.
pub fn check(cx: &mut Checker, module: &str, name: &str, offset: usize) -> bool {
    if name != "*" {
        return true;
    }
    cx.report(
        &RULE,
        offset,
        format!("`from {module} import *` hides which names it binds"),
    );
    false
}

#[cfg(test)]
mod tests {
    use crate::check::rules::assert_rejects;

    #[test]
    fn cases() {
        assert_rejects("from numpy import *\n", &[(1, 19, "star-import")]);
        assert_rejects("from os import *\n", &[(1, 1, "import-not-allowed")]);
    }
}
