//! `blocked-name` — a bare name that would refer to a dangerous module.
//!
//! ## What it does
//! Reports a bare name from the blocked list (`os`, `sys`, `subprocess`, `socket`,
//! `ctypes`, `pickle`, `pathlib`, `glob`, `shutil`, `builtins`, ...; 37 in
//! `allowlist.toml`) that the script reads without ever binding it itself.
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
//! Files: `srcpath('file')`, `listdir(sub='')`, `walkfiles()`; output: `plt.savefig(OUT)`.

use super::Rule;
use crate::check::walker::Checker;

pub const RULE: Rule = Rule {
    id: "blocked-name",
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

#[cfg(test)]
mod tests {
    use crate::check::rules::{assert_accepts, assert_rejects};

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
            "𝐨𝐬.system('ls')\n",
            &[(1, 1, "blocked-name"), (1, 4, "blocked-attribute")],
        );
    }
}
