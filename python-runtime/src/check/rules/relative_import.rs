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
//! import allowed modules by their absolute name, e.g. `from scipy import signal`

use super::{Flow, Rule, RuleId};
use crate::check::walker::Checker;

pub const RULE: Rule = Rule {
    id: RuleId::RelativeImport,
    instead: "import allowed modules by their absolute name, e.g. `from scipy import signal`",
};

/// `from <level dots>module import ...`: only level 0 (absolute) passes.
pub fn check(cx: &mut Checker, level: u32, offset: usize) -> Flow {
    if level == 0 {
        return Flow::Continue;
    }
    cx.report(&RULE, offset, "relative imports are not allowed".into());
    Flow::Reported
}

#[cfg(test)]
mod tests {
    use crate::check::rules::assert_rejects;

    #[test]
    fn cases() {
        assert_rejects("from . import helper\n", &[(1, 1, "relative-import")]);
        assert_rejects("from ..numpy import array\n", &[(1, 1, "relative-import")]);
    }
}
