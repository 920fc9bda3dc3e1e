//! `blocked-submodule` — an allowed package's dangerous or private submodule.
//!
//! ## What it does
//! Rejects `numpy.ctypeslib`, `numpy.f2py`, `numpy.testing`, `matplotlib.testing`,
//! `pandas.io.clipboard` (the list is in `allowlist.toml`) and any dotted component that
//! starts with `_`, however imported: `import numpy.f2py`, `from numpy import f2py`,
//! `from numpy.f2py import main`. The few private modules a library's public documentation
//! tells users to import (`from matplotlib._enums import JoinStyle`) are listed in the
//! policy's `public_private_module` table and pass.
//!
//! ## Why is this bad?
//! These submodules load C libraries, run compilers or start programs; private modules
//! are the usual road from an allowed library to a dangerous one.
//!
//! ## Instead
//! use the public numerics and plotting APIs of the allowed modules

use super::{Flow, Rule, RuleId};
use crate::check::walker::Checker;

pub const RULE: Rule = Rule {
    id: RuleId::BlockedSubmodule,
    instead: "use the public numerics and plotting APIs of the allowed modules",
};

/// Check every dotted component of `path` (whose top level is allowed).
pub fn check(cx: &mut Checker, path: &str, offset: usize) -> Flow {
    // The documented private module itself (and what is inside it) is public API.
    let documented = cx.idx.policy.public_private_modules.iter().find(|m| {
        path == m.path || path.starts_with(&m.path) && path[m.path.len()..].starts_with('.')
    });
    let checked = documented.map_or(path, |m| &path[m.path.len()..]);
    if let Some(private) = checked.split('.').find(|c| c.starts_with('_')) {
        cx.report(
            &RULE,
            offset,
            format!("`{path}` reaches the private module part `{private}`"),
        );
        return Flow::Reported;
    }
    if let Some((blocked, reason)) = cx.idx.blocked_submodule(path) {
        cx.report(&RULE, offset, format!("`{blocked}` is blocked ({reason})"));
        return Flow::Reported;
    }
    if let Some((part, reason)) = path
        .split('.')
        .skip(1)
        .find_map(|c| cx.idx.blocked_attribute(c).map(|r| (c, r)))
    {
        cx.report(
            &RULE,
            offset,
            format!("`{path}` reaches `{part}` ({reason})"),
        );
        return Flow::Reported;
    }
    Flow::Continue
}

#[cfg(test)]
mod tests {
    use crate::check::rules::{assert_accepts, assert_rejects};

    #[test]
    fn cases() {
        assert_accepts(
            "import numpy.fft\nfrom scipy import io\nfrom pandas.plotting import scatter_matrix\nfrom matplotlib.backends.backend_pdf import PdfPages\n",
        );
        assert_rejects("import numpy.ctypeslib\n", &[(1, 8, "blocked-submodule")]);
        assert_rejects("from numpy import f2py\n", &[(1, 19, "blocked-submodule")]);
        assert_rejects(
            "from numpy.testing import assert_equal\n",
            &[(1, 1, "blocked-submodule")],
        );
        assert_rejects(
            "import matplotlib.testing.compare as c\n",
            &[(1, 8, "blocked-submodule")],
        );
        assert_rejects(
            "from pandas.io import clipboard\n",
            &[(1, 23, "blocked-submodule")],
        );
        assert_rejects("import numpy._core\n", &[(1, 8, "blocked-submodule")]);
        // matplotlib's gallery imports this one; nothing private beyond it passes.
        assert_accepts(
            "from matplotlib._enums import JoinStyle, CapStyle\nimport matplotlib._enums\n",
        );
        assert_rejects(
            "from matplotlib._enums import _private\n",
            &[(1, 31, "blocked-submodule")],
        );
        assert_rejects(
            "import matplotlib._enumsx\n",
            &[(1, 8, "blocked-submodule")],
        );
        assert_rejects(
            "from matplotlib._enums._x import y\n",
            &[(1, 1, "blocked-submodule")],
        );
        assert_rejects(
            "from scipy._lib import doccer\n",
            &[(1, 1, "blocked-submodule")],
        );
    }
}
