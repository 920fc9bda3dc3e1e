//! `dangerous-rcparam` — a matplotlib setting that starts programs.
//!
//! ## What it does
//! Rejects the keys of the `dangerous_rcparam` table (`text.usetex`,
//! `animation.ffmpeg_path`, `pgf.texsystem`, `ps.usedistiller`, ...) wherever they appear
//! as a string literal (`plt.rcParams['text.usetex'] = True`, `rc_context({...})`), and in
//! the grouped form `plt.rc('animation', ffmpeg_path=...)`; and `module://` backend names
//! (`matplotlib.use('module://os')`), which make matplotlib import any module; and
//! `plt.style.use(...)`/`style.context(...)` with a literal string that is a file or a
//! package style (`'my.mplstyle'`, `'data/x'`, `'pkg.style'`: a style file from the data
//! folder can set any of the keys above, and a dotted name imports a package). A style
//! given by a variable is checked when it runs: the worker accepts only matplotlib's
//! built-in style names and dicts there (`capture.py`).
//!
//! Reading a setting passes: `plt.rcParams['text.usetex']` in a load, on matplotlib's own
//! rcParams (`rcparam_reads` in the policy, written through import-bound names or the
//! pre-imported `plt`). On any other object the literal is refused as before: a
//! `defaultdict`'s read inserts the key, to be copied into rcParams later.
//!
//! ## Why is this bad?
//! These settings make matplotlib start LaTeX, Ghostscript or ffmpeg, with paths and
//! arguments the script chooses.
//!
//! ## Instead
//! leave this setting at its default; use mathtext (r'$x^2$') for formulas and
//! plt.savefig(OUT) for output

use super::{Rule, RuleId};
use crate::check::walker::Checker;
use rustpython_parser::ast::{self, Constant, Expr};

pub const RULE: Rule = Rule {
    id: RuleId::DangerousRcparam,
    instead: "leave this setting at its default; use mathtext (r'$x^2$') for formulas and plt.savefig(OUT) for output",
};

/// A string literal anywhere in the code.
pub fn check_literal(cx: &mut Checker, text: &str, offset: usize) {
    let key = text.trim();
    if let Some(reason) = cx.idx.rcparams.get(key) {
        cx.report(
            &RULE,
            offset,
            format!("the setting `{key}` is not allowed ({reason})"),
        );
    }
    let lower = key.to_ascii_lowercase();
    if let Some(prefix) = cx
        .idx
        .policy
        .module_strings
        .prefixes
        .iter()
        .find(|p| lower.starts_with(p.as_str()))
    {
        cx.report(
            &RULE,
            offset,
            format!("`{prefix}` names a module for matplotlib to import"),
        );
    }
}

/// `X['text.usetex']` read: harmless on matplotlib's own rcParams (`on`, the module path `X`
/// stands for), the literal rule otherwise.
pub fn finish_read(cx: &mut Checker, on: Option<&str>, key: &str, offset: usize) {
    let readable = on.is_some_and(|on| cx.idx.policy.rcparam_reads.objects.iter().any(|o| o == on));
    if !readable {
        check_literal(cx, key, offset);
    }
}

/// `plt.style.use(x)` / `plt.style.context(x)`: a style may be a file from the (untrusted)
/// data folder that sets any setting. Literal names must be plain (`'ggplot'`); anything
/// computed is left to the worker's run-time check of built-in names.
pub fn check_style_call(cx: &mut Checker, call: &ast::ExprCall) {
    let Expr::Attribute(func) = &*call.func else {
        return;
    };
    let on_style = match &*func.value {
        Expr::Attribute(a) => a.attr.as_str() == "style",
        Expr::Name(n) => n.id.as_str() == "style",
        _ => false,
    };
    if !on_style || !matches!(func.attr.as_str(), "use" | "context") {
        return;
    }
    for arg in call
        .args
        .iter()
        .chain(call.keywords.iter().map(|k| &k.value))
    {
        if !is_named_style(arg) {
            use rustpython_parser::ast::Ranged;
            cx.report(
                &RULE,
                arg.start().to_usize(),
                "a style must be a built-in style name like 'ggplot' or a dict of settings, not a file or a package".into(),
            );
        }
    }
}

fn is_named_style(arg: &Expr) -> bool {
    match arg {
        Expr::Constant(ast::ExprConstant {
            value: Constant::Str(s),
            ..
        }) => !s.contains(['/', '\\', '.']),
        Expr::List(l) => l.elts.iter().all(is_named_style),
        Expr::Tuple(t) => t.elts.iter().all(is_named_style),
        // Plainly a file of the data folder.
        Expr::Call(c) => !matches!(&*c.func, Expr::Name(n) if n.id.as_str() == "srcpath"),
        // A dict, a variable, an expression: judged by the worker when it runs.
        _ => true,
    }
}

/// `rc('group', key=value)`: the keys are `group.key`.
pub fn check_rc_call(cx: &mut Checker, call: &ast::ExprCall, func_name: &str) {
    if func_name != "rc" {
        return;
    }
    let Some(Expr::Constant(ast::ExprConstant {
        value: Constant::Str(group),
        ..
    })) = call.args.first()
    else {
        return;
    };
    for kw in &call.keywords {
        if let Some(arg) = &kw.arg {
            let key = format!("{}.{}", group.trim(), arg.as_str());
            if let Some(reason) = cx.idx.rcparams.get(key.as_str()) {
                let offset = kw.range.start().to_usize();
                cx.report(
                    &RULE,
                    offset,
                    format!("the setting `{key}` is not allowed ({reason})"),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::check::rules::{assert_accepts, assert_rejects};

    #[test]
    fn cases() {
        assert_accepts("plt.rcParams['font.size'] = 12\nplt.rc('lines', linewidth=2)\n");
        assert_rejects(
            "plt.rcParams['text.usetex'] = True\n",
            &[(1, 14, "dangerous-rcparam")],
        );
        assert_rejects(
            "plt.rcParams.update({'animation.ffmpeg_path': '/bin/sh'})\n",
            &[(1, 22, "dangerous-rcparam")],
        );
        assert_rejects(
            "plt.rc('animation', ffmpeg_path='/bin/sh')\n",
            &[(1, 21, "dangerous-rcparam")],
        );
    }

    #[test]
    fn reading_a_setting_of_matplotlibs_rcparams() {
        // matplotlib's gallery: `rf"{s} \%" if plt.rcParams["text.usetex"] else f"{s} %"`.
        assert_accepts(
            "s = 'a' if plt.rcParams['text.usetex'] else 'b'\nimport matplotlib as mpl\nif not mpl.rcParams['text.usetex']:\n    pass\nfrom matplotlib import rcParams\nu = rcParams['text.usetex']\nimport matplotlib.pyplot as p2\nv = p2.rcParams['text.usetex']\n",
        );
        // Writing it stays refused, however spelled.
        assert_rejects(
            "plt.rcParams['text.usetex'] |= True\n",
            &[(1, 14, "dangerous-rcparam")],
        );
        assert_rejects(
            "del plt.rcParams['text.usetex']\n",
            &[(1, 18, "dangerous-rcparam")],
        );
        assert_rejects(
            "k = 'text.usetex'\nplt.rcParams[k] = True\n",
            &[(1, 5, "dangerous-rcparam")],
        );
        // A read on anything but matplotlib's rcParams: a defaultdict's read inserts the key.
        assert_rejects(
            "import collections\nd = collections.defaultdict(lambda: True)\nd['text.usetex']\nplt.rcParams.update(d)\n",
            &[(3, 3, "dangerous-rcparam")],
        );
        assert_rejects(
            "plt = {}\nx = plt.rcParams['text.usetex']\n",
            &[(2, 18, "dangerous-rcparam")],
        );
        assert_rejects(
            "def f(mpl):\n    return mpl.rcParams['text.usetex']\n",
            &[(2, 25, "dangerous-rcparam")],
        );
    }

    #[test]
    fn more_cases() {
        use crate::check::rules::{assert_accepts, assert_rejects};
        assert_accepts("import matplotlib\nmatplotlib.use('Agg')\n");
        assert_rejects(
            "import matplotlib\nmatplotlib.use('module://os')\n",
            &[(2, 16, "dangerous-rcparam")],
        );
    }

    #[test]
    fn styles() {
        use crate::check::rules::{assert_accepts, assert_rejects};
        assert_accepts(
            "plt.style.use('ggplot')\nwith plt.style.context(['dark_background', {'lines.linewidth': 2}]):\n    pass\n",
        );
        assert_rejects(
            "plt.style.use(srcpath('x.mplstyle'))\n",
            &[(1, 15, "dangerous-rcparam")],
        );
        assert_rejects(
            "plt.style.use('/tmp/evil.mplstyle')\n",
            &[(1, 15, "dangerous-rcparam")],
        );
        // A dotted literal is a package style: matplotlib would import the package.
        assert_rejects(
            "plt.style.use('antigravity.x')\n",
            &[(1, 15, "dangerous-rcparam")],
        );
        // A style chosen by a variable (matplotlib's gallery loops over names) is left to
        // the worker, which accepts only built-in names and dicts when it runs.
        assert_accepts(
            "for name in ['ggplot', 'bmh']:\n    with plt.style.context(name):\n        pass\nstyle = 'ggplot'\nplt.style.use(style)\nplt.style.use(plt.style.available[0])\n",
        );
    }
}
