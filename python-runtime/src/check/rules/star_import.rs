//! `star-import` — `from module import *`.
//!
//! ## What it does
//! Rejects a star import the checker cannot expand: one inside a class or function, or from
//! a module whose star-import names the bundled runtime's table (`check/library_star.txt`)
//! does not list. A star import of an allowed module at module level passes: it binds the
//! module's `__all__` (or its public names) minus every name the checker refuses as
//! `from M import NAME`, and runs as that explicit import list (`check/star.rs`), with a
//! note when it rebinds builtins or the worker's `load()`.
//!
//! ## Why is this bad?
//! A star import binds names the checker cannot see, so the name rules would judge the
//! wrong thing, and Python's own star import follows `__all__` as it is at run time and
//! imports the lazily loaded submodules it names.
//!
//! ## Instead
//! import the names you use, e.g. `from numpy import linspace`, or write `np.linspace`

use super::{Flow, Rule, RuleId};
use crate::check::walker::Checker;

pub const RULE: Rule = Rule {
    id: RuleId::StarImport,
    instead: "import the names you use, e.g. `from numpy import linspace`, or write `np.linspace`",
};

/// One imported `name` of `from module import ...`: `*` is refused.
pub fn check(cx: &mut Checker, module: &str, name: &str, offset: usize) -> Flow {
    if name != "*" {
        return Flow::Continue;
    }
    cx.report(
        &RULE,
        offset,
        format!("`from {module} import *` here hides which names it binds (only a module-level star import of an allowed module is expanded)"),
    );
    Flow::Reported
}

#[cfg(test)]
mod tests {
    use crate::check::rules::{assert_accepts, assert_rejects};

    #[test]
    fn cases() {
        assert_accepts("from numpy import *\nx = linspace(0, 1)\ny = sum(x)\n");
        assert_accepts(
            "from math import *\nfrom colorsys import *\nc = hls_to_rgb(pi / 8, 0.5, 0.5)\n",
        );
        assert_rejects(
            "def f():\n    from numpy import *\n",
            &[(2, 23, "star-import")],
        );
        assert_rejects("from os import *\n", &[(1, 1, "import-not-allowed")]);
        assert_rejects("from numpy.f2py import *\n", &[(1, 1, "blocked-submodule")]);
        assert_rejects("from io import *\n", &[(1, 1, "import-not-allowed")]);
    }
}
