//! `dangerous-api` — a library function that evaluates strings as code, loads settings
//! from arbitrary files, unpickles, or starts programs.
//!
//! ## What it does
//! Rejects, after any dot and as an imported name, the names in `allowlist.toml`'s
//! `dangerous_api` table: `pd.eval`, `DataFrame.eval`/`query`, `matplotlib.rc_file`,
//! `read_pickle`/`to_pickle`, `read_clipboard`, `np.DataSource`, `LowLevelCallable`, ...
//!
//! ## Why is this bad?
//! `df.query("@__import__('os')...")`-style strings are code the checker never sees;
//! pickles and settings files run programs.
//!
//! ## Instead
//! Each entry says its replacement (e.g. a boolean mask instead of `query`).

use super::Rule;
use crate::check::walker::Checker;

pub const RULE: Rule = Rule {
    id: "dangerous-api",
    instead: "write the computation directly in Python instead of as a string or settings file",
};

pub fn check(cx: &mut Checker, name: &str, offset: usize) -> bool {
    let Some(api) = cx.idx.apis.get(name) else {
        return true;
    };
    cx.report_with(
        &RULE,
        offset,
        format!(
            "`{name}` is not allowed ({}); instead {}",
            api.reason, api.instead
        ),
    );
    false
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
    }
}
