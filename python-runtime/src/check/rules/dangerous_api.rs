//! `dangerous-api` — a library function that evaluates strings as code, loads settings
//! from arbitrary files, unpickles, or starts programs.
//!
//! ## What it does
//! Rejects, after any dot and as an imported name, the names in `allowlist.toml`'s
//! `dangerous_api` table: `pd.eval`, `DataFrame.eval`/`query`, `matplotlib.rc_file`,
//! `read_pickle`/`to_pickle`, `read_clipboard`, `np.DataSource`, `LowLevelCallable`, ...
//! and `dict`'s writing methods called on the class (`dict.update(plt.rcParams, {...})`
//! skips rcParams' validation).
//!
//! ## Why is this bad?
//! `df.query("@__import__('os')...")`-style strings are code the checker never sees;
//! pickles and settings files run programs.
//!
//! ## Instead
//! write the computation directly in Python instead of as a string or settings file
//!
//! Each entry of the policy's `dangerous_api` table carries its own replacement, said after
//! "instead" in the message (e.g. a boolean mask for `query`).

use super::{Flow, Rule, RuleId};
use crate::check::Advice;
use crate::check::walker::Checker;

pub const RULE: Rule = Rule {
    id: RuleId::DangerousApi,
    instead: "write the computation directly in Python instead of as a string or settings file",
};

pub fn check(cx: &mut Checker, name: &str, offset: usize) -> Flow {
    let Some(api) = cx.idx.apis.get(name) else {
        return Flow::Continue;
    };
    cx.report_with(
        &RULE,
        offset,
        format!("`{name}` is not allowed ({})", api.reason),
        Advice::Entry(&api.instead),
    );
    Flow::Reported
}

/// `dict`'s own writing methods, called on the class with any mapping as `self`.
const DICT_WRITES: &[&str] = &["update", "setdefault", "pop", "popitem", "clear"];

/// `dict.update(plt.rcParams, {...})`: a dict method called on the class writes into a
/// dict subclass past its own checks (rcParams validates every key in its `__setitem__`;
/// issue 40). `name` is the attribute read on the builtin `dict`.
pub fn check_dict_write(cx: &mut Checker, name: &str, offset: usize) -> Flow {
    if !DICT_WRITES.contains(&name) || cx.is_bound("dict") {
        return Flow::Continue;
    }
    cx.report_with(
        &RULE,
        offset,
        format!("`dict.{name}(...)` writes into any mapping past its own checks (plt.rcParams validates every key)"),
        Advice::Own("call the method on the mapping itself: plt.rcParams.update({...}), d.update(other)"),
    );
    Flow::Reported
}

/// `matplotlib.use(name)` with a name computed at run time: matplotlib imports the module a
/// backend name stands for.
pub fn computed_backend(cx: &mut Checker, offset: usize) {
    cx.report_with(
        &RULE,
        offset,
        "`matplotlib.use` with a backend name computed at run time is not allowed (matplotlib imports the module the name stands for)".into(),
        Advice::Own("leave the backend alone (the worker chooses it), or write the name out: matplotlib.use('agg')"),
    );
}

#[cfg(test)]
mod tests {
    use crate::check::rules::{assert_accepts, assert_rejects};

    #[test]
    fn cases() {
        assert_accepts(
            "import pandas as pd\ndf = pd.read_csv(srcpath('a.csv'))\nd = df[df['x'] > 0]\n",
        );
        assert_rejects(
            "import pandas as pd\nv = pd.eval('1+1')\n",
            &[(2, 8, "dangerous-api")],
        );
        assert_rejects("df2 = df.query('x > 0')\n", &[(1, 10, "dangerous-api")]);
        assert_rejects(
            "import matplotlib\nmatplotlib.rc_file('x.rc')\n",
            &[(2, 12, "dangerous-api")],
        );
        assert_rejects(
            "from pandas import read_pickle\n",
            &[(1, 20, "dangerous-api")],
        );
        assert_rejects("df.to_pickle('x')\n", &[(1, 4, "dangerous-api")]);
        assert_rejects(
            "dict.update(plt.rcParams, {'lines.linewidth': 'x'})\n",
            &[(1, 6, "dangerous-api")],
        );
        assert_accepts(
            "d = dict.fromkeys('ab')\nd.update(a=1)\nplt.rcParams.update({'lines.linewidth': 2})\n",
        );
    }

    #[test]
    fn functools_without_its_attribute_walkers() {
        // matplotlib's gallery (event_handling/viewlims): a callback with a bound argument.
        assert_accepts(
            "import functools\nfrom functools import partial, reduce, lru_cache\ncb = functools.partial(print, 1)\ns = reduce(lambda a, b: a + b, [1, 2])\n@lru_cache(maxsize=None)\ndef f(n):\n    return n\n",
        );
        assert_rejects(
            "import functools\np = functools.partial(eval, '1')\n",
            &[(2, 23, "forbidden-builtin")],
        );
        assert_rejects(
            "from functools import reduce\nx = reduce(getattr, ['real'], 1)\n",
            &[(2, 12, "forbidden-builtin")],
        );
        assert_rejects(
            "import functools\nfunctools.update_wrapper(w, f, assigned=(k,))\n",
            &[(2, 11, "dangerous-api")],
        );
        assert_rejects(
            "from functools import wraps, singledispatch\n",
            &[(1, 23, "dangerous-api"), (1, 30, "dangerous-api")],
        );
    }
}
