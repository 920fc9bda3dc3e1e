//! What `from M import *` binds, for the allowed modules: read from `library_star.txt`
//! (generated from the bundled runtime by `library_privates.py`: each module's `__all__`, or
//! without one the public names of its namespace, as Python's star import binds them), minus
//! every name the checker refuses as `from M import NAME`. The checker binds those names and
//! the run executes exactly them as an explicit import list (never Python's own star import,
//! which would follow a changed `__all__` and import lazily loaded submodules).

use super::source::LineIndex;
use super::walker::Checker;
use crate::policy::Policy;
use std::collections::HashMap;
use std::sync::OnceLock;

/// The table as shipped.
pub const LIBRARY_STAR: &str = include_str!("library_star.txt");

/// Python's builtins and the worker's own names that a star import may shadow (the note
/// says so: after `from numpy import *`, `sum`, `max` and `load` are numpy's).
const SHADOWABLE: &[&str] = &[
    "abs",
    "all",
    "any",
    "ascii",
    "bin",
    "bool",
    "bytearray",
    "bytes",
    "callable",
    "chr",
    "complex",
    "dict",
    "divmod",
    "enumerate",
    "filter",
    "float",
    "format",
    "frozenset",
    "hash",
    "hex",
    "id",
    "int",
    "isinstance",
    "issubclass",
    "iter",
    "len",
    "list",
    "map",
    "max",
    "min",
    "next",
    "object",
    "oct",
    "ord",
    "pow",
    "print",
    "property",
    "range",
    "repr",
    "reversed",
    "round",
    "set",
    "slice",
    "sorted",
    "str",
    "sum",
    "super",
    "tuple",
    "type",
    "zip",
    "SRC",
    "OUT",
    "srcpath",
    "listdir",
    "walkfiles",
    "load",
];

/// Every module's star-import names as the runtime gives them.
fn table() -> &'static HashMap<&'static str, Vec<&'static str>> {
    static TABLE: OnceLock<HashMap<&'static str, Vec<&'static str>>> = OnceLock::new();
    TABLE.get_or_init(|| {
        LIBRARY_STAR
            .lines()
            .filter_map(|line| {
                let mut parts = line.split_ascii_whitespace();
                match (parts.next(), parts.next()) {
                    (Some("S"), Some(module)) => Some((module, parts.collect())),
                    _ => None,
                }
            })
            .collect()
    })
}

/// The names `from module import *` may bind: the runtime's list without any name the
/// checker refuses as `from module import NAME` (each such line is checked on its own).
/// `None` when the table does not know the module.
pub fn bindable(module: &str) -> Option<Vec<&'static str>> {
    let names = table().get(module)?;
    let text: String = names
        .iter()
        .map(|n| format!("from {module} import {n}\n"))
        .collect();
    let refused: Vec<usize> =
        match rustpython_parser::parse(&text, rustpython_parser::Mode::Module, "<star>") {
            Err(_) => return None,
            Ok(rustpython_parser::ast::Mod::Module(m)) => {
                let lines = LineIndex::new(&text);
                Checker::new(Policy::builtin().index(), &lines)
                    .run(&m.body)
                    .into_iter()
                    .map(|d| d.line)
                    .collect()
            }
            Ok(_) => return None,
        };
    Some(
        names
            .iter()
            .enumerate()
            .filter(|(i, _)| !refused.contains(&(i + 1)))
            .map(|(_, n)| *n)
            .collect(),
    )
}

/// The note for a star import that shadows builtins or the worker's names, if it does.
pub fn shadow_note(module: &str, names: &[&str]) -> Option<String> {
    let shadowed: Vec<&str> = SHADOWABLE
        .iter()
        .copied()
        .filter(|s| names.contains(s))
        .collect();
    if shadowed.is_empty() {
        return None;
    }
    Some(format!(
        "`from {module} import *` binds {} names and rebinds {}: after it, these are {module}'s, not Python's builtins or the names the worker provides{}",
        names.len(),
        shadowed
            .iter()
            .map(|s| format!("`{s}`"))
            .collect::<Vec<_>>()
            .join(", "),
        if shadowed.contains(&"load") {
            " (`load` is then numpy's np.load; read CSV files with pd.read_csv('data.csv'))"
        } else {
            ""
        }
    ))
}

#[cfg(test)]
mod tests {
    use super::{bindable, shadow_note};

    #[test]
    fn numpy_binds_its_all_without_the_refused_names() {
        let names = bindable("numpy").unwrap_or_default();
        for want in ["linspace", "sin", "load", "sum", "max", "pi"] {
            assert!(names.contains(&want), "{want}");
        }
        // Blocked submodules and attributes, and dunders, are left out.
        for refused in ["ctypeslib", "testing", "f2py", "__version__", "DataSource"] {
            assert!(!names.contains(&refused), "{refused}");
        }
        let note = shadow_note("numpy", &names).unwrap_or_default();
        assert!(note.contains("`sum`") && note.contains("`load`"), "{note}");
    }

    #[test]
    fn the_accepted_source_runs_the_explicit_list_on_the_same_line() {
        let code =
            b"import seaborn as sns\nfrom numpy import *  # all of it\ny = sum(linspace(0, 1))\n";
        let accepted = crate::check::check(code).unwrap_or_else(|r| panic!("{}", r.hint));
        let lines: Vec<&str> = accepted.source.lines().collect();
        assert_eq!(lines.len(), 3);
        assert!(
            lines[1].starts_with("from numpy import (") && lines[1].ends_with(")  # all of it")
        );
        assert!(lines[1].contains(" linspace,") && !lines[1].contains("ctypeslib"));
        assert_eq!(lines[2], "y = sum(linspace(0, 1))");
        assert!(
            accepted.notes.iter().any(|n| n.contains("`sum`")),
            "{:?}",
            accepted.notes
        );
    }

    #[test]
    fn modules_without_all_and_unknown_modules() {
        // pyplot has no `__all__`; its `sys` is a blocked attribute and stays unbound.
        let names = bindable("matplotlib.pyplot").unwrap_or_default();
        assert!(names.contains(&"plot") && !names.contains(&"sys"));
        assert!(bindable("os").is_none());
        assert!(bindable("colorsys").is_some_and(|n| n.contains(&"hls_to_rgb")));
    }
}
