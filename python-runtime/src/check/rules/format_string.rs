//! `format-string` — a string template that walks attributes when formatted.
//!
//! ## What it does
//! Scans every string literal (f-string literal parts and format specs included) for
//! `str.format` replacement fields whose attribute or index parts start with `_`:
//! `'{0.__class__}'`, `'{x._secret}'`, `'{0[__globals__]}'`. Such a template walks
//! attributes when used with `.format`, `.format_map`, or inside a library
//! (`StrMethodFormatter('{x.__class__}')`).
//!
//! ## Why is this bad?
//! `str.format` performs attribute access itself, so the dunder rule never sees the dot.
//!
//! ## Instead
//! format values only, e.g. '{:.2f}'.format(x) or f'{x:.2f}'; no `._name` or `[_name]`
//! inside a {field}

use super::{Rule, RuleId};
use crate::check::walker::Checker;

pub const RULE: Rule = Rule {
    id: RuleId::FormatString,
    instead: "format values only, e.g. '{:.2f}'.format(x) or f'{x:.2f}'; no `._name` or `[_name]` inside a {field}",
};

/// The first private part of any replacement field in `text`, e.g. `__class__`.
pub fn private_field(text: &str) -> Option<&str> {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'{' {
            if bytes.get(i + 1) == Some(&b'{') {
                i += 2;
                continue;
            }
            let field = &text[i + 1..];
            let end = field.find(['}', '!', ':', '{']).unwrap_or(field.len());
            let name = &field[..end];
            for (at, _) in name.match_indices(['.', '[']) {
                let part = name[at + 1..].trim_start();
                if part.starts_with('_') {
                    let stop = part.find(['.', '[', ']']).unwrap_or(part.len());
                    return Some(&part[..stop]);
                }
            }
        }
        i += 1;
    }
    None
}

pub fn check(cx: &mut Checker, text: &str, offset: usize) {
    if let Some(part) = private_field(text) {
        cx.report(
            &RULE,
            offset,
            format!("this string is a format template that reaches `{part}`"),
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::check::rules::{assert_accepts, assert_rejects};

    #[test]
    fn cases() {
        assert_accepts(
            "s = '{:.2f} {x} {0[1]} {{0.__class__}}'.format(1.0, [2, 3], x=3)\nt = r'$\\frac{a}{b}$'\nf'{1.5:{4}.{2}}'\n",
        );
        assert_rejects(
            "s = '{0.__class__}'.format(1)\n",
            &[(1, 5, "format-string")],
        );
        assert_rejects(
            "s = '{x.__globals__}'.format_map({'x': f})\n",
            &[(1, 5, "format-string")],
        );
        assert_rejects("s = '{0[_x]}'.format(d)\n", &[(1, 5, "format-string")]);
        assert_rejects(
            "s = f'{{0.__class__}}'.format(1)\n",
            &[(1, 5, "format-string")],
        );
        assert_rejects(
            "from matplotlib.ticker import StrMethodFormatter\nf = StrMethodFormatter('{x.__class__}')\n",
            &[(2, 24, "format-string")],
        );
        assert_rejects(
            "s = f'{x:{\"{0.__init__}\"}}'\n",
            &[(1, 11, "format-string")],
        );
    }
}
