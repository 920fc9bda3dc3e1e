//! `relative-import` — `from . import x` or `from ..pkg import y`.
//!
//! ## What it does
//! Rejects every relative import.
//!
//! ## Why is this bad?
//! A script run on its own has no package; a relative import can only resolve to whatever
//! happens to sit beside it, outside the allowlist.
//!
//! ## Instead
//! Import allowed modules by their absolute name (`from scipy import signal`).

use super::{Rule, RuleId};

pub const RULE: Rule = Rule {
    id: RuleId::RelativeImport,
    instead: "import allowed modules by their absolute name, e.g. `from scipy import signal`",
};

#[cfg(test)]
mod tests {
    use crate::check::rules::assert_rejects;

    #[test]
    fn cases() {
        assert_rejects("from . import helper\n", &[(1, 1, "relative-import")]);
        assert_rejects("from ..numpy import array\n", &[(1, 1, "relative-import")]);
    }
}
