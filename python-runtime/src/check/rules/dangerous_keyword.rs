//! `dangerous-keyword` — a keyword argument that turns a safe call into a dangerous one.
//!
//! ## What it does
//! Rejects `allow_pickle=...` and `usetex=...` (the `dangerous_keyword` table) unless the
//! value is the literal `False`, also as a dict key (`**{'allow_pickle': True}`).
//!
//! ## Why is this bad?
//! `np.load(f, allow_pickle=True)` runs code stored in the file; `usetex=True` starts LaTeX
//! and dvipng programs.
//!
//! ## Instead
//! leave the keyword out
//!
//! Each entry of the policy's `dangerous_keyword` table carries its own replacement, said
//! after "instead" in the message: `np.load(srcpath('x.npy'))` for plain arrays, mathtext
//! (`r'$\alpha$'`) for formulas.

use super::{Rule, RuleId};
use crate::check::Advice;
use crate::check::walker::Checker;
use rustpython_parser::ast::{self, Constant, Expr};

pub const RULE: Rule = Rule {
    id: RuleId::DangerousKeyword,
    instead: "leave the keyword out",
};

pub fn check(cx: &mut Checker, name: &str, value: &Expr, offset: usize) {
    let Some(kw) = cx.idx.keywords.get(name) else {
        return;
    };
    if let Expr::Constant(ast::ExprConstant {
        value: Constant::Bool(false),
        ..
    }) = value
    {
        return;
    }
    cx.report_with(
        &RULE,
        offset,
        format!("`{name}=` is not allowed ({})", kw.reason),
        Advice::Entry(&kw.instead),
    );
}

/// The keyword's name as a dict key: `np.load(f, **{'allow_pickle': True})`.
pub fn check_literal(cx: &mut Checker, text: &str, offset: usize) {
    if let Some(kw) = cx.idx.keywords.get(text.trim()) {
        cx.report_with(
            &RULE,
            offset,
            format!("`{}` is not allowed ({})", text.trim(), kw.reason),
            Advice::Entry(&kw.instead),
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::check::rules::{assert_accepts, assert_rejects};

    #[test]
    fn cases() {
        assert_accepts(
            "a = np.load(srcpath('a.npy'))\nb = np.load(srcpath('a.npy'), allow_pickle=False)\nplt.text(0, 0, r'$\\alpha$', usetex=False)\n",
        );
        assert_rejects(
            "a = np.load('a.npy', allow_pickle=True)\n",
            &[(1, 22, "dangerous-keyword")],
        );
        assert_rejects(
            "plt.rc('text', usetex=True)\n",
            &[(1, 16, "dangerous-keyword"), (1, 16, "dangerous-rcparam")],
        );
    }

    #[test]
    fn more_cases() {
        use crate::check::rules::assert_rejects;
        assert_rejects(
            "a = np.load('a.npy', **{'allow_pickle': True})\n",
            &[(1, 25, "dangerous-keyword")],
        );
        assert_rejects(
            "plt.savefig(OUT, backend='pgf')\n",
            &[(1, 18, "dangerous-keyword")],
        );
    }
}
