//! `module-assignment` — assigning to or deleting an attribute of a module, or of anything
//! reached from one.
//!
//! ## What it does
//! Rejects `R.attr = ...`, `R.attr += ...`, `del R.attr` and every other target form (`for
//! R.attr in ...`, `with ... as R.attr`, tuple targets) when `R` may be an imported module
//! or something reached from one by attribute: a submodule, a class or function defined in
//! one, a module-level object (`os.path.commonpath = f`, `np.load = f`, `plt.savefig = f`,
//! `Axes.plot = f`, `pd.DataFrame.foo = f`), through any alias (`m = np; m.load = f`); and
//! assignment on `type(x)` (the class of a library object). Objects the code makes
//! (`fig.x = 1`, `ax.fmt_xdata = f`), its own classes and instances, `rcParams[...]` items
//! and the reviewed settings namespaces (`allowlist.toml`'s `writable_namespace`:
//! `pd.options.display.max_rows = 100`) stay writable. Rebinding a name (`np = ...`) only
//! changes the script's own name and passes.
//!
//! ## Why is this bad?
//! Modules are shared with the worker: a replaced `os.path.commonpath` or `np.load` changes
//! what the worker's own checks compute (`srcpath`, the capture of figures), and a replaced
//! library method changes what every later call does.
//!
//! ## Instead
//! leave modules and library classes as they are: write your own function or subclass and
//! call it; set options through pd.options / plt.rcParams['key'] = value

use super::{Rule, RuleId};
use crate::check::walker::Checker;

pub const RULE: Rule = Rule {
    id: RuleId::ModuleAssignment,
    instead: "leave modules and library classes as they are: write your own function or subclass and call it; set options through pd.options / plt.rcParams['key'] = value",
};

/// An attribute assigned or deleted on a receiver that may stand for `paths` (every dotted
/// path its chain of names may resolve to; empty when it is the script's own value), or
/// on a `type(x)` call.
pub fn check_store(
    cx: &mut Checker,
    paths: Vec<String>,
    name: &str,
    type_call: bool,
    offset: usize,
) {
    if type_call {
        cx.report(
            &RULE,
            offset,
            format!("assigning `{name}` on `type(x)` changes a class, maybe a library's"),
        );
        return;
    }
    let Some(path) = paths.iter().find(|p| !cx.idx.writable_namespace(p)) else {
        return;
    };
    cx.report(
        &RULE,
        offset,
        format!("`{path}.{name}` belongs to a module; modules and what they define are read-only"),
    );
}

#[cfg(test)]
mod tests {
    use crate::check::rules::{assert_accepts, assert_rejects};

    #[test]
    fn cases() {
        assert_accepts(
            "import pandas as pd\npd.options.display.max_rows = 100\nplt.rcParams['lines.linewidth'] = 2\nfig, ax = plt.subplots()\nax.fmt_xdata = lambda x: f'{x:.2f}'\nclass A:\n    pass\nA.x = 1\na = A()\na.y = 2\nnp = None\n",
        );
        assert_rejects("np.load = print\n", &[(1, 4, "module-assignment")]);
        assert_rejects(
            "import os.path\nos.path.commonpath = print\n",
            &[(2, 9, "module-assignment")],
        );
        assert_rejects(
            "m = np\nm.load = print\ndel m.save\n",
            &[(2, 3, "module-assignment"), (3, 7, "module-assignment")],
        );
        assert_rejects(
            "from matplotlib.axes import Axes\nAxes.plot = print\n",
            &[(2, 6, "module-assignment")],
        );
        assert_rejects(
            "import pandas as pd\npd.DataFrame.foo = 1\nplt.savefig += 1\n",
            &[(2, 14, "module-assignment"), (3, 5, "module-assignment")],
        );
        assert_rejects(
            "for np.lib.format.read_array in [print]:\n    pass\n",
            &[(1, 19, "module-assignment")],
        );
        assert_rejects(
            "import pandas as pd\npd.optionsx = 1\n",
            &[(2, 4, "module-assignment")],
        );
        assert_rejects(
            "fig = plt.figure()\ntype(fig).savefig = print\n",
            &[(2, 11, "module-assignment")],
        );
    }
}
