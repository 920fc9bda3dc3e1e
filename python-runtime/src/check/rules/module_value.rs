//! `module-value` — a module used as a value instead of through its attributes.
//!
//! ## What it does
//! Rejects an imported module (or one reached by attribute, `np.linalg`, `sns.external`'s
//! parents, the pre-imported `np` and `plt`) where it is a value: passed to a function
//! (`f(np)`), put in a container (`[sns]`), returned, compared. A plain alias (`m = np`,
//! `la = np.linalg`) passes: the checker follows it like the module itself. Every use
//! through an attribute (`np.mean(x)`, `la.norm(v)`) is ordinary. A library keyword that
//! documents a module as its value passes with exactly those modules (`allowlist.toml`'s
//! reviewed `module_slot` table: `stats.probplot(x, plot=plt)`).
//!
//! ## Why is this bad?
//! The checker judges what a module is used for by the names written after it; a module
//! handed to a function or a container arrives where no name says it is one, and any
//! blocked or read-only part of it could be reached there (`def f(m): m.external`).
//!
//! ## Instead
//! use modules through their attributes (np.mean(x)); pass functions and values, not modules

use super::{Rule, RuleId};
use crate::check::walker::Checker;

pub const RULE: Rule = Rule {
    id: RuleId::ModuleValue,
    instead: "use modules through their attributes (np.mean(x)); pass functions and values, not modules",
};

/// A chain of names read (`np`, `np.linalg`), the longest at its place, with every path it
/// may stand for: a module among them is reported.
pub fn check(cx: &mut Checker, chain: &[String], paths: &[String], offset: usize) {
    let Some(module) = paths
        .iter()
        .find(|p| cx.idx.library_modules.contains(p.as_str()))
    else {
        return;
    };
    cx.report(
        &RULE,
        offset,
        format!(
            "`{}` is the module `{module}` used as a value",
            chain.join(".")
        ),
    );
}

#[cfg(test)]
mod tests {
    use crate::check::rules::{assert_accepts, assert_rejects};

    #[test]
    fn cases() {
        assert_accepts(
            "import seaborn as sns\nm = np\nla = np.linalg\nv = la.norm(m.ones(3))\nsns.histplot([1, 2])\nplt.plot(np.sin(np.arange(3)))\n",
        );
        assert_rejects("f(np)\n", &[(1, 3, "module-value")]);
        assert_rejects(
            "import seaborn as sns\nx = [sns]\nm = sns\ny = (m, 1)\n",
            &[(2, 6, "module-value"), (4, 6, "module-value")],
        );
        assert_rejects("f(np.linalg)\n", &[(1, 3, "module-value")]);
        // scipy's documented QQ plot takes pyplot as `plot=`; nowhere else, nothing else.
        assert_accepts(
            "from scipy import stats\nr = stats.probplot([1.0, 2.0], plot=plt)\nimport scipy.stats as st\nst.ppcc_plot([1.0], -1, 1, plot=plt)\n",
        );
        assert_rejects(
            "from scipy import stats\nr = stats.probplot([1.0], plot=np)\nstats.describe([1.0], plot=plt)\n",
            &[(2, 32, "module-value"), (3, 28, "module-value")],
        );
        assert_rejects(
            "for m in (np,):\n    m.load = print\n",
            &[(1, 11, "module-value")],
        );
    }
}
