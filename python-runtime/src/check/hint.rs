//! The instructional rejection text, generated from the violations and the policy file, so
//! the lists it names (modules, pre-imported names, primitives) never drift from the rules.

use super::{Advice, Diagnostic};
use crate::policy::Policy;
use std::fmt::Write;

/// At most this many violations are spelled out in the hint (all stay in `errors`).
const MAX_LISTED: usize = 12;

/// `line:col rule — message` per violation, then the allowed modules, the pre-imported
/// names, the primitives and how to save.
pub fn render(errors: &[Diagnostic], policy: &Policy) -> String {
    let mut out = String::from("The code was rejected. Fix every line below and resend:\n");
    let mut advised = std::collections::HashSet::new();
    for d in errors.iter().take(MAX_LISTED) {
        // The rule's advice is said once; later violations of the same rule say only what.
        let first = advised.insert(d.rule);
        let message = if !first && d.advice == Advice::Rule {
            d.what.clone()
        } else {
            d.message()
        };
        let _ = writeln!(out, "{}:{} {} — {}", d.line, d.col, d.rule, message);
    }
    if errors.len() > MAX_LISTED {
        let _ = writeln!(
            out,
            "... and {} more (see errors)",
            errors.len() - MAX_LISTED
        );
    }
    let modules: Vec<&str> = policy.module_names().collect();
    let _ = writeln!(out, "Allowed imports: {}.", modules.join(", "));
    let pre: Vec<String> = policy
        .preimported
        .iter()
        .map(|p| format!("{} ({})", p.name, p.what))
        .collect();
    let _ = writeln!(out, "Already imported: {}.", pre.join(", "));
    let prims: Vec<&str> = policy.primitives.iter().map(|p| p.usage.as_str()).collect();
    let _ = writeln!(
        out,
        "Provided: {} — read data with load('data.mat') (.mat v5/v7.3, .csv, .tsv, .txt, .npy, .npz, .json, .xlsx) or pd.read_csv('data.csv', sep=';').",
        prims.join(", ")
    );
    out.push_str("Save the figure with plt.savefig(OUT); no open(), os, sys or subprocess.");
    out
}

#[cfg(test)]
mod tests {
    use crate::check::check;

    #[test]
    fn hint_names_everything_an_author_needs_and_stays_short() {
        let r = check(b"import os\nos.system('ls')\nx = eval('1')\n").unwrap_err();
        let hint = r.instructions();
        for needle in [
            "1:8 import-not-allowed",
            "3:5 forbidden-builtin",
            "numpy",
            "np (numpy)",
            "plt (matplotlib.pyplot)",
            "loadmat",
            "SRC",
            "OUT",
            "srcpath('file')",
            "listdir(sub='')",
            "walkfiles()",
            "load('file')",
            "load('data.mat')",
            "plt.savefig(OUT)",
        ] {
            assert!(hint.contains(needle), "hint lacks {needle}:\n{hint}");
        }
        assert!(
            hint.chars().count() <= 1500,
            "{} chars:\n{hint}",
            hint.chars().count()
        );
    }
}
