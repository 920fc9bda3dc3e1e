//! `import-not-allowed` — an import of a module outside the allowlist.
//!
//! ## What it does
//! Checks the top-level package of `import a.b as c` and `from a.b import c` against the
//! allowlist in `allowlist.toml` (numpy, scipy, matplotlib, pandas, math, ...).
//! `from __future__ import X` passes for the compiler features listed there.
//!
//! The restricted modules (`os`, `os.path`, `io`) may be imported, and their listed pure
//! names (`from os.path import join`, `from io import BytesIO`), but not inside a class body
//! (the module would become an attribute, `A.os`), and the import is refused after all when
//! the script uses the module beyond those names (`blocked-name` reports the use).
//!
//! ## Why is this bad?
//! Every other module is a way out: files (`os`, `pathlib`), processes (`subprocess`),
//! the network (`socket`), or the interpreter's machinery (`importlib`, `pickle`).
//!
//! ## Instead
//! use only the allowed modules listed below; read files with srcpath('file'), list them
//! with listdir()/walkfiles()

use super::{Flow, Rule, RuleId};
use crate::check::walker::Checker;

pub const RULE: Rule = Rule {
    id: RuleId::ImportNotAllowed,
    instead: "use only the allowed modules listed below; read files with srcpath('file'), list them with listdir()/walkfiles()",
};

/// Whether the top-level package of `path` may be imported; reports it if not.
pub fn check(cx: &mut Checker, path: &str, offset: usize) -> Flow {
    let top = path.split('.').next().unwrap_or(path);
    if cx.idx.modules.contains(top) {
        return Flow::Continue;
    }
    cx.report(&RULE, offset, format!("`{top}` is not an allowed module"));
    Flow::Reported
}

/// `from __future__ import feature`: only the compiler switches the policy lists.
pub fn check_future(cx: &mut Checker, feature: &str, offset: usize) -> Flow {
    if cx.idx.future.contains(feature) {
        return Flow::Continue;
    }
    cx.report(
        &RULE,
        offset,
        format!("`from __future__ import {feature}` is not allowed"),
    );
    Flow::Reported
}

/// An import of a restricted module (`os`, `os.path`, `io`) or of one of its names: only
/// the module itself, what leads to it, and its listed names pass, and never in a class body
/// (the module would become an attribute that the name rules cannot follow).
pub fn check_restricted(cx: &mut Checker, path: &str, offset: usize) -> Flow {
    let idx = cx.idx;
    if idx.restricted_under(path).is_none() && !idx.restricted_allows(path) {
        let top = path.split('.').next().unwrap_or(path);
        cx.report(
            &RULE,
            offset,
            format!(
                "`{path}` is not allowed: of `{top}` only {} may be used",
                idx.restricted_summary(top)
            ),
        );
        return Flow::Reported;
    }
    if cx.in_class_body() {
        cx.report(
            &RULE,
            offset,
            format!("`{path}` may not be imported inside a class body; import it at the top"),
        );
        return Flow::Reported;
    }
    Flow::Continue
}

/// A restricted module's import whose name the script uses beyond the listed names (the
/// use itself is reported by `blocked-name`, with what may be used).
pub fn refuse_restricted_import(cx: &mut Checker, path: &str, offset: usize, used: &str) {
    let top = path.split('.').next().unwrap_or(path);
    cx.report(
        &RULE,
        offset,
        format!("`{top}` is not an allowed module ({used}, not one of its pure names)"),
    );
}

#[cfg(test)]
mod tests {
    use crate::check::rules::{assert_accepts, assert_rejects};

    #[test]
    fn cases() {
        assert_accepts(
            "import numpy as np\nimport matplotlib.pyplot as plt\nfrom scipy import signal\nfrom scipy.optimize import curve_fit\nimport pandas as pd\nimport math, json, csv, re\n",
        );
        assert_accepts("from __future__ import annotations\n");
        assert_rejects("import socket\n", &[(1, 8, "import-not-allowed")]);
        assert_rejects("import os.sys as p\n", &[(1, 8, "import-not-allowed")]);
        // Of `os` only os.path's string functions may be imported (a restricted module).
        assert_accepts("import os.path as p\n");
        assert_rejects(
            "from subprocess import run\n",
            &[(1, 1, "import-not-allowed")],
        );
        assert_rejects(
            "from __future__ import barry_as_FLUFL\n",
            &[(1, 24, "import-not-allowed")],
        );
        assert_rejects("import numpy, pickle\n", &[(1, 15, "import-not-allowed")]);
    }
}
