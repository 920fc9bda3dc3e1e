//! `dataset-name` — seaborn's `load_dataset` pointed anywhere but the data folder.
//!
//! ## What it does
//! In a call named as in the policy's `[datasets]` table (`load_dataset`), rejects the
//! keywords that choose where it reads (`cache=`, `data_home=`), and a literal data set name
//! that is no plain file name: one with a path separator, `..`, a drive, a URL or a NUL
//! (`sns.load_dataset('../secrets')`, `sns.load_dataset('http://example.com/x')`).
//!
//! ## Why is this bad?
//! The worker's `load_dataset(name)` reads `name.csv` from the data folder and nowhere else
//! (seaborn's cache folder is the data folder and the network is closed). `data_home=` would
//! name another folder, `cache=False` a download; a name with a separator or `..` would leave
//! the folder. The worker refuses all of it again at run time, for names computed there.
//!
//! ## Instead
//! put `NAME.csv` into the data folder and call `sns.load_dataset('NAME')` with the name alone, e.g. `sns.load_dataset('tips')` reads `tips.csv`

use super::{Rule, RuleId};
use crate::check::walker::Checker;
use rustpython_parser::ast::{self, Constant, Expr};

pub const RULE: Rule = Rule {
    id: RuleId::DatasetName,
    instead: "put `NAME.csv` into the data folder and call `sns.load_dataset('NAME')` with the name alone, e.g. `sns.load_dataset('tips')` reads `tips.csv`",
};

/// Whether a data set name is a plain file name stem (what the worker accepts at run time).
pub fn plain_name(name: &str) -> bool {
    !name.is_empty()
        && !name.contains("..")
        && !name
            .chars()
            .any(|c| matches!(c, '/' | '\\' | ':' | '\0') || c.is_control())
}

/// A call named `func_name`: when it loads a data set, its keywords and a literal name.
pub fn check_call(cx: &mut Checker, call: &ast::ExprCall, func_name: &str) {
    let datasets = &cx.idx.policy.datasets;
    if !datasets.calls.iter().any(|c| c == func_name) {
        return;
    }
    for kw in &call.keywords {
        let Some(arg) = &kw.arg else { continue };
        let offset = kw.range.start().to_usize();
        if datasets.keywords.iter().any(|k| k == arg.as_str()) {
            cx.report(
                &RULE,
                offset,
                format!(
                    "`{func_name}(..., {arg}=...)`: the data folder is where data sets are read, never another folder or the network"
                ),
            );
        }
    }
    let named = call
        .keywords
        .iter()
        .filter(|k| k.arg.as_deref() == Some("name"))
        .map(|k| &k.value);
    for value in call.args.first().into_iter().chain(named) {
        if let Expr::Constant(ast::ExprConstant {
            value: Constant::Str(s),
            range,
            ..
        }) = value
            && !plain_name(s)
        {
            cx.report(
                &RULE,
                range.start().to_usize(),
                format!(
                    "`{func_name}({s:?})`: a data set is named by its file name alone, without a folder, `..`, a drive or a URL"
                ),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::check::rules::{assert_accepts, assert_rejects};

    #[test]
    fn cases() {
        assert_accepts(
            "import seaborn as sns\ntips = sns.load_dataset('tips')\nfor n in ['iris', 'penguins']:\n    d = sns.load_dataset(n)\nf = sns.load_dataset(name='fmri', sep=',')\n",
        );
        assert_rejects(
            "import seaborn as sns\nsns.load_dataset('../x')\nsns.load_dataset('a/b')\nsns.load_dataset('C:x')\n",
            &[
                (2, 18, "dataset-name"),
                (3, 18, "dataset-name"),
                (4, 18, "dataset-name"),
            ],
        );
        assert_rejects(
            "import seaborn as sns\nsns.load_dataset('tips', data_home='/tmp')\nsns.load_dataset('tips', cache=False)\nsns.load_dataset('tips', cache=True)\n",
            &[
                (2, 26, "dataset-name"),
                (3, 26, "dataset-name"),
                (4, 26, "dataset-name"),
            ],
        );
        // A URL is also a reader's URL.
        assert_rejects(
            "import seaborn as sns\nsns.load_dataset('http://example.com/x')\n",
            &[(2, 18, "dataset-name"), (2, 18, "url-reader")],
        );
    }
}
