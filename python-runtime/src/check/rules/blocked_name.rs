//! `blocked-name` — a bare name that would refer to a dangerous module.
//!
//! ## What it does
//! Reports a bare name from the blocked list (`os`, `sys`, `subprocess`, `socket`,
//! `ctypes`, `pickle`, `pathlib`, `glob`, `shutil`, `builtins`, ...; 36 in
//! `allowlist.toml`) that the script reads without ever binding it itself.
//!
//! A restricted module (`os`, `io`: the `restricted_module` table) may be imported, but
//! every use of the name its import binds must be one of the module's pure names written
//! out: `os.path.join(...)`, `p.basename(x)` after `import os.path as p`, `io.BytesIO()`.
//! Any other use (`os.environ`, `f = os`, `os.path.exists(...)`, `io.open(...)`) is reported
//! here, and its import by `import-not-allowed`.
//!
//! Danger is what a name refers to: `gc = img[..., 1]` (a green channel), `for code in
//! codes:`, `def f(signal):` or `from scipy import signal` bind the name, and then it
//! refers to the script's own value, so it passes. A bare `os.remove(...)` with no binding
//! can only mean a module someone pre-imported, and is rejected. The file is one binding
//! scope: a name bound only elsewhere fails at run time with NameError, since the worker
//! pre-defines none of these names.
//!
//! ## Why is this bad?
//! These modules reach files, processes, the network or the interpreter's internals.
//!
//! ## Instead
//! read files through srcpath('file'), list them with listdir()/walkfiles(), save with
//! plt.savefig(OUT)

use super::{Rule, RuleId};
use crate::check::walker::Checker;

pub const RULE: Rule = Rule {
    id: RuleId::BlockedName,
    instead: "read files through srcpath('file'), list them with listdir()/walkfiles(), save with plt.savefig(OUT)",
};

/// Called once the whole file is walked: report the reads of never-bound blocked names.
pub fn finish(cx: &mut Checker, reads: Vec<(String, usize)>) {
    for (name, offset) in reads {
        if cx.is_bound(&name) {
            continue;
        }
        if let Some(reason) = cx.idx.blocked_names.get(name.as_str()) {
            cx.report(
                &RULE,
                offset,
                format!("`{name}` refers to a blocked module ({reason})"),
            );
        }
    }
}

/// Called once the whole file is walked: every read of a name an import bound to a
/// restricted module (`import os`, `import io`, `from os import path`) must be one of the
/// module's listed names written out (`os.path.join`, `io.BytesIO`). Each other read is
/// reported, and so is the import that bound the name (`import os` is refused as before
/// when the script does more with `os` than join path strings).
pub fn finish_restricted(cx: &mut Checker, reads: Vec<(String, usize)>) {
    let mut refused_imports: Vec<(usize, String, String)> = Vec::new();
    for (name, offset) in reads {
        let sites: Vec<(String, usize)> = cx
            .import_sites(&name)
            .iter()
            .filter(|(p, _)| cx.idx.restricted_under(p).is_some())
            .cloned()
            .collect();
        let Some((module, _)) = sites.first().cloned() else {
            continue;
        };
        let rest: Vec<String> = cx
            .chain_at(offset)
            .map_or(&[][..], |c| c.get(1..).unwrap_or(&[]))
            .to_vec();
        let full = rest.iter().fold(module.clone(), |p, c| format!("{p}.{c}"));
        if cx.idx.restricted_allows(&full) {
            continue;
        }
        let what = if name == module {
            format!("`{name}`")
        } else {
            format!("`{name}` (`{module}`)")
        };
        cx.report(
            &RULE,
            offset,
            format!(
                "{what} may only be used as {}, written out",
                cx.idx.restricted_summary(&module)
            ),
        );
        let (line, _) = cx.locate(offset);
        let used = match rest.first() {
            Some(attr) => format!("line {line} uses `{name}.{attr}`"),
            None => format!("line {line} uses `{name}` as a value"),
        };
        for (path, at) in sites {
            if !refused_imports.iter().any(|(a, _, _)| *a == at) {
                refused_imports.push((at, path, used.clone()));
            }
        }
    }
    for (at, path, used) in refused_imports {
        super::import_not_allowed::refuse_restricted_import(cx, &path, at, &used);
    }
}

#[cfg(test)]
mod tests {
    use crate::check::rules::{assert_accepts, assert_rejects};

    #[test]
    fn restricted_modules_only_by_their_listed_names() {
        // matplotlib's gallery: os.path.join(matplotlib.get_data_path(), ...), io.BytesIO().
        assert_accepts(
            "import os\nimport matplotlib\np = os.path.join(matplotlib.get_data_path(), 'fonts')\nb = os.path.basename(p)\nimport io\nf = io.BytesIO()\nfrom io import BytesIO, StringIO\ns = StringIO('1,2')\n",
        );
        assert_accepts(
            "import os.path as osp\nfrom os import path\nfrom os.path import splitext\nx = osp.join('a', 'b') + path.sep\nj = os.path.join if False else None\nimport os.path\ny = splitext(os.path.join('a', 'b.c'))\n",
        );
        assert_rejects(
            "import os\nos.environ\nf = os\nos.path.exists('x')\nos.remove('x')\n",
            &[
                (1, 8, "import-not-allowed"),
                (2, 1, "blocked-name"),
                (3, 5, "blocked-name"),
                (4, 1, "blocked-name"),
                (5, 1, "blocked-name"),
            ],
        );
        assert_rejects(
            "import os.path as p\np.realpath('x')\nq = p\n",
            &[
                (1, 8, "import-not-allowed"),
                (2, 1, "blocked-name"),
                (3, 5, "blocked-name"),
            ],
        );
        assert_rejects(
            "import io\nio.open('x')\nio.FileIO('x')\n",
            &[
                (1, 8, "import-not-allowed"),
                (2, 1, "blocked-name"),
                (2, 4, "blocked-attribute"),
                (3, 1, "blocked-name"),
                (3, 4, "blocked-attribute"),
            ],
        );
        assert_rejects(
            "from os import getcwd, path\nfrom io import open\nfrom os.path import exists\n",
            &[
                (1, 16, "import-not-allowed"),
                (2, 16, "import-not-allowed"),
                (3, 21, "import-not-allowed"),
            ],
        );
        // Inside a class body the module would be an attribute (`A.os.remove`).
        assert_rejects(
            "class A:\n    import os\nA.os.remove('x')\n",
            &[(2, 12, "import-not-allowed"), (3, 3, "blocked-attribute")],
        );
        // A second binding of the name does not lift the restriction.
        assert_rejects(
            "import io\nio = 3\nio.open\n",
            &[
                (1, 8, "import-not-allowed"),
                (3, 1, "blocked-name"),
                (3, 4, "blocked-attribute"),
            ],
        );
        assert_rejects("import os.sys\n", &[(1, 8, "import-not-allowed")]);
    }

    #[test]
    fn cases() {
        assert_accepts("gc = np.ones((3, 3))[..., 1]\nprint(gc.sum())\n");
        assert_accepts("code = 3\nprint(code)\n");
        assert_accepts("from scipy import signal\nb, a = signal.butter(4, 0.1)\n");
        assert_accepts("for types in ['a', 'b']:\n    print(types)\n");
        assert_accepts("d = dict(os=1)\n");
        assert_rejects("os.remove('x')\n", &[(1, 1, "blocked-name")]);
        assert_rejects(
            "x = [sys, pickle]\n",
            &[(1, 6, "blocked-name"), (1, 11, "blocked-name")],
        );
        assert_rejects(
            "import os\nos.system('ls')\n",
            &[
                (1, 8, "import-not-allowed"),
                (2, 1, "blocked-name"),
                (2, 4, "blocked-attribute"),
            ],
        );
        assert_rejects(
            "𝐨𝐬.system('ls')\n",
            &[(1, 1, "blocked-name"), (1, 4, "blocked-attribute")],
        );
    }
}
