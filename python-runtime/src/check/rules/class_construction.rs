//! `class-construction` — a class made with keywords, or by calling `type()`.
//!
//! ## What it does
//! Rejects keywords in a class statement (`class F(Base, _root=True)`, `metaclass=...`,
//! `**kw`), `type()` called with anything but one positional argument (`type('F', (B,),
//! {})`, `type(*args)`, `type(x, **kw)`), and calling what `type(x)` returns
//! (`type(ax)(...)`: the class of a library object).
//!
//! ## Why is this bad?
//! Class keywords go to the base's `__init_subclass__` and metaclass: `_root=True` walks past
//! `typing.ForwardRef`'s own guard against subclasses, whose private evaluator runs `eval`.
//! Three-argument `type()` makes a class the checker never sees as a class statement, with
//! the same keywords.
//!
//! ## Instead
//! write a plain class statement with only base classes in the parentheses; use `type(x)`
//! only to look at a value's type

use super::{Rule, RuleId};
use crate::check::walker::{Checker, norm};
use rustpython_parser::ast::{self, Expr};

pub const RULE: Rule = Rule {
    id: RuleId::ClassConstruction,
    instead: "write a plain class statement with only base classes in the parentheses; use `type(x)` only to look at a value's type",
};

/// The keywords of a class statement.
pub fn check_class_keywords(cx: &mut Checker, keywords: &[ast::Keyword]) {
    for kw in keywords {
        let what = match &kw.arg {
            Some(name) => format!("the class keyword `{}` is not allowed", norm(name)),
            None => "`**` keywords in a class statement are not allowed".to_owned(),
        };
        cx.report(&RULE, kw.range.start().to_usize(), what);
    }
}

/// Whether `expr` is a call of the bare name `type`.
pub fn is_type_call(expr: &Expr) -> bool {
    matches!(expr, Expr::Call(c) if matches!(&*c.func, Expr::Name(n) if norm(n.id.as_str()) == "type"))
}

/// `type(...)` with other than one plain argument, or `type(x)(...)`.
pub fn check_type_call(cx: &mut Checker, call: &ast::ExprCall, offset: usize) {
    if is_type_call(&call.func) {
        cx.report(
            &RULE,
            offset,
            "calling the class `type(x)` returns is not allowed".into(),
        );
        return;
    }
    let Expr::Name(n) = &*call.func else {
        return;
    };
    if norm(n.id.as_str()) != "type" {
        return;
    }
    let one_plain = matches!(call.args.as_slice(), [a] if !matches!(a, Expr::Starred(_)));
    if !one_plain || !call.keywords.is_empty() {
        cx.report(
            &RULE,
            offset,
            "`type()` with more than one argument makes a class; only `type(x)` is allowed".into(),
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::check::rules::{assert_accepts, assert_rejects};

    #[test]
    fn cases() {
        assert_accepts(
            "class A(object):\n    pass\nclass B(A):\n    pass\nname = type(B()).__name__\nok = type(1) is int\n",
        );
        assert_rejects(
            "from typing import ForwardRef\nclass F(ForwardRef, _root=True):\n    pass\n",
            &[(2, 21, "class-construction")],
        );
        assert_rejects(
            "class F(metaclass=M):\n    pass\n",
            &[(1, 9, "class-construction")],
        );
        assert_rejects(
            "class F(**kw):\n    pass\n",
            &[(1, 9, "class-construction")],
        );
        assert_rejects(
            "F = type('F', (object,), {})\n",
            &[(1, 5, "class-construction")],
        );
        assert_rejects("F = type(*a)\n", &[(1, 5, "class-construction")]);
        assert_rejects("F = type(x, _root=True)\n", &[(1, 5, "class-construction")]);
        assert_rejects(
            "G = type(int)('G', (int,), {})\n",
            &[(1, 5, "class-construction")],
        );
    }
}
