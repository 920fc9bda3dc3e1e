//! `dunder-name` — a bare `__name__`-style identifier other than `__name__`.
//!
//! ## What it does
//! Rejects bare dunder names (`__builtins__`, `__loader__`, `__spec__`, `__class__`) in any
//! position a name can stand: reads, assignments, parameters, `global`, keyword-argument
//! names (`f(__class__=...)`), import aliases. Only `__name__` may be read. Inside a class
//! body, the protocol dunders (`__init__`, `__call__`, `__len__`, `__slots__`, ...) may be
//! defined.
//!
//! ## Why is this bad?
//! Module dunders hand out the unrestricted builtins and the import machinery.
//!
//! ## Instead
//! use ordinary names; protocol methods like __init__ may only be defined inside a class

use super::{Flow, Rule, RuleId};
use crate::check::walker::Checker;

pub const RULE: Rule = Rule {
    id: RuleId::DunderName,
    instead: "use ordinary names; protocol methods like __init__ may only be defined inside a class",
};

pub fn is_dunder(name: &str) -> bool {
    name.len() > 4 && name.starts_with("__") && name.ends_with("__")
}

/// How a bare name is used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Use {
    Read,
    /// A definition directly in a class body (method, class attribute).
    ClassMember,
    /// Any other binding or mention (assignment, parameter, keyword, global, alias).
    Other,
}

pub fn check(cx: &mut Checker, name: &str, offset: usize, usage: Use) -> Flow {
    if !is_dunder(name) {
        return Flow::Continue;
    }
    let allowed = match usage {
        Use::Read => cx.idx.bare_dunders.contains(name),
        Use::ClassMember => cx.idx.protocol_dunders.contains(name),
        Use::Other => false,
    };
    if allowed {
        return Flow::Continue;
    }
    cx.report(
        &RULE,
        offset,
        format!("the dunder name `{name}` is not allowed"),
    );
    Flow::Reported
}

#[cfg(test)]
mod tests {
    use crate::check::rules::{assert_accepts, assert_rejects};

    #[test]
    fn cases() {
        assert_accepts("if __name__ == '__main__':\n    pass\n");
        assert_accepts(
            "class A:\n    __slots__ = ('a',)\n    def __init__(self):\n        self.a = 1\n    def __len__(self):\n        return 1\n",
        );
        assert_rejects("b = __builtins__\n", &[(1, 5, "dunder-name")]);
        assert_rejects("__name__ = 'x'\n", &[(1, 1, "dunder-name")]);
        assert_rejects(
            "def __getattribute__(self):\n    pass\n",
            &[(1, 5, "dunder-name")],
        );
        assert_rejects("f(__class__=1)\n", &[(1, 3, "dunder-name")]);
        assert_rejects(
            "def f():\n    global __builtins__\n",
            &[(2, 12, "dunder-name")],
        );
        assert_rejects(
            "class A:\n    def __reduce__(self):\n        pass\n",
            &[(2, 9, "dunder-name")],
        );
    }
}
