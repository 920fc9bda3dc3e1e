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
//! Import the names you use: `from numpy import linspace, sin`, or use `np.linspace`.

use super::{Rule, RuleId};

pub const RULE: Rule = Rule {
    id: RuleId::StarImport,
    instead: "import the names you use, e.g. `from numpy import linspace`, or write `np.linspace`",
};

#[cfg(test)]
mod tests {
    use crate::check::rules::assert_rejects;

    #[test]
    fn cases() {
        assert_rejects("from numpy import *\n", &[(1, 19, "star-import")]);
        assert_rejects("from os import *\n", &[(1, 1, "import-not-allowed")]);
    }
}
