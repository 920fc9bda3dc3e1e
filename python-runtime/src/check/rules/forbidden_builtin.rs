//! `forbidden-builtin` — a builtin that runs strings as code, opens files or reads
//! attributes by computed name.
//!
//! ## What it does
//! Rejects any use of `eval`, `exec`, `compile`, `__import__`, `open`, `getattr`,
//! `setattr`, `delattr`, `globals`, `locals`, `vars`, `input`, `breakpoint`, `help`,
//! `memoryview`, `exit`, `quit` (17, in `allowlist.toml`): calls, bare references
//! (`e = eval`), and rebinding (`open = srcpath`, a parameter named `open`).
//!
//! ## Why is this bad?
//! They run text as code, open any file, or reach attributes past the dunder rule.
//!
//! ## Instead
//! read files with np.loadtxt/pd.read_csv/csv on srcpath('file'); write attribute names
//! out; compute directly instead of evaluating strings

use super::{Flow, Rule, RuleId};
use crate::check::walker::Checker;

pub const RULE: Rule = Rule {
    id: RuleId::ForbiddenBuiltin,
    instead: "read files with np.loadtxt/pd.read_csv/csv on srcpath('file'); write attribute names out; compute directly instead of evaluating strings",
};

/// Report `name` if it is a forbidden builtin; `binding` when the code rebinds it.
pub fn check(cx: &mut Checker, name: &str, offset: usize, binding: bool) -> Flow {
    let Some(reason) = cx.idx.builtins.get(name) else {
        return Flow::Continue;
    };
    let what = if binding {
        format!("rebinding the forbidden builtin `{name}` ({reason}); pick another name")
    } else {
        format!("`{name}` is a forbidden builtin ({reason})")
    };
    cx.report(&RULE, offset, what);
    Flow::Reported
}

#[cfg(test)]
mod tests {
    use crate::check::rules::{assert_accepts, assert_rejects};

    #[test]
    fn cases() {
        assert_accepts("x = np.loadtxt(srcpath('a.txt'))\nprint(len(x), max(x), sorted(x))\n");
        assert_rejects("eval('1+1')\n", &[(1, 1, "forbidden-builtin")]);
        assert_rejects("e = eval\n", &[(1, 5, "forbidden-builtin")]);
        assert_rejects("f = open('/etc/passwd')\n", &[(1, 5, "forbidden-builtin")]);
        assert_rejects("open = 1\n", &[(1, 1, "forbidden-builtin")]);
        assert_rejects(
            "def f(getattr):\n    pass\n",
            &[(1, 7, "forbidden-builtin")],
        );
        assert_rejects("ｅｖａｌ('1')\n", &[(1, 1, "forbidden-builtin")]);
        assert_rejects("__import__('os')\n", &[(1, 1, "forbidden-builtin")]);
    }
}
