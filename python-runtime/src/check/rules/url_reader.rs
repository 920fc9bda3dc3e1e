//! `url-reader` — a URL literal passed to a function that reads data.
//!
//! ## What it does
//! Rejects a string literal starting with a URL scheme (`http://`, `https://`, `ftp://`,
//! `file://`, ...) passed to a call whose name matches the `urls.readers` patterns
//! (`read_*`, `load*`, `genfromtxt`, `imread`, ...). A URL in a title or annotation passes.
//!
//! ## Why is this bad?
//! The data is the user's local folder and the run has no network: pandas and numpy would
//! try to download, and `file://` names paths outside the source folder.
//!
//! ## Instead
//! read local files from the source folder: pd.read_csv(srcpath('data.csv'))

use super::{Rule, RuleId};
use crate::check::walker::Checker;
use rustpython_parser::ast::{self, Constant, Expr};

pub const RULE: Rule = Rule {
    id: RuleId::UrlReader,
    instead: "read local files from the source folder: pd.read_csv(srcpath('data.csv'))",
};

pub fn check_call(cx: &mut Checker, call: &ast::ExprCall, func_name: &str) {
    if !cx.idx.is_reader(func_name) {
        return;
    }
    let values = call
        .args
        .iter()
        .chain(call.keywords.iter().map(|k| &k.value));
    for value in values {
        let (text, offset) = match value {
            Expr::Constant(ast::ExprConstant {
                value: Constant::Str(s),
                range,
                ..
            }) => (s.as_str(), range.start().to_usize()),
            Expr::JoinedStr(j) => match j.values.first() {
                Some(Expr::Constant(ast::ExprConstant {
                    value: Constant::Str(s),
                    ..
                })) => (s.as_str(), j.range.start().to_usize()),
                _ => continue,
            },
            _ => continue,
        };
        let lower = text.trim_start().to_ascii_lowercase();
        if let Some(scheme) = cx
            .idx
            .policy
            .urls
            .schemes
            .iter()
            .find(|s| lower.starts_with(s.as_str()))
        {
            cx.report(
                &RULE,
                offset,
                format!("`{func_name}` is given a `{scheme}` URL; the run has no network"),
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
            "plt.title('data: https://example.org')\nimport pandas as pd\ndf = pd.read_csv(srcpath('a.csv'))\n",
        );
        assert_rejects(
            "import pandas as pd\ndf = pd.read_csv('https://x.org/a.csv')\n",
            &[(2, 18, "url-reader")],
        );
        assert_rejects(
            "a = np.loadtxt(fname='file:///etc/passwd')\n",
            &[(1, 22, "url-reader")],
        );
        assert_rejects(
            "a = np.genfromtxt(f'HTTP://{h}/a')\n",
            &[(1, 19, "url-reader")],
        );
    }
}
