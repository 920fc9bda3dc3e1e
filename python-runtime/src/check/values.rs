//! What a public dotted path stands for when it is not its own module's name: read from
//! `library_values.txt` (generated from the bundled runtime by `library_privates.py`).
//! `matplotlib.cbook.types` is the module `types`, `PIL.Image.core` is `PIL._imaging`,
//! `matplotlib.pyplot.np` is `numpy`, `matplotlib.Path` is `pathlib.Path`. The checker
//! judges a path by the module it reaches, not by the names written (issue 40): a module
//! that is not allowed, reached through an allowed one, is refused like its import.

use crate::policy::PolicyIndex;
use std::collections::HashMap;
use std::sync::OnceLock;

/// The table as shipped.
pub const LIBRARY_VALUES: &str = include_str!("library_values.txt");

/// What one row says a path is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Value {
    /// The attribute is this module (`types`, `numpy`).
    Module(&'static str),
    /// The attribute is a class or function of a module the policy blocks by name
    /// (`pathlib.Path`).
    Object(&'static str),
}

/// Every row: `path -> value`.
pub fn table() -> &'static HashMap<&'static str, Value> {
    static TABLE: OnceLock<HashMap<&'static str, Value>> = OnceLock::new();
    TABLE.get_or_init(|| {
        LIBRARY_VALUES
            .lines()
            .filter_map(|line| {
                let mut parts = line.split_ascii_whitespace();
                match (parts.next(), parts.next(), parts.next()) {
                    (Some("M"), Some(path), Some(real)) => Some((path, Value::Module(real))),
                    (Some("O"), Some(path), Some(real)) => Some((path, Value::Object(real))),
                    _ => None,
                }
            })
            .collect()
    })
}

/// A path's first step onto a module or object that is not allowed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Foreign {
    /// How many dotted parts of the path, from the left, lead to it (`matplotlib.cbook.types`
    /// in `matplotlib.cbook.types.FunctionType`: 3).
    pub parts: usize,
    /// What it is: `types`, `pathlib.Path`.
    pub real: &'static str,
    pub module: bool,
}

/// Whether code may hold the module `real` as a value: an allowed module or one of its
/// public, unblocked submodules (a documented private one too).
pub fn module_allowed(idx: &PolicyIndex, real: &str) -> bool {
    let top = real.split('.').next().unwrap_or(real);
    if !idx.modules.contains(top) || idx.blocked_submodule(real).is_some() {
        return false;
    }
    let documented = idx.policy.public_private_modules.iter().find(|m| {
        real == m.path || real.starts_with(&m.path) && real[m.path.len()..].starts_with('.')
    });
    let checked = documented.map_or(real, |m| &real[m.path.len()..]);
    !checked.split('.').any(|c| c.starts_with('_'))
}

/// The first step of `path` (a dotted path as the checker resolved it, `matplotlib.cbook.
/// types.FunctionType`) onto a module or object that is not allowed. Each step is judged on
/// what the path so far really is: `matplotlib.pyplot.np.ma` is `numpy.ma`.
pub fn foreign(idx: &PolicyIndex, path: &str) -> Option<Foreign> {
    let table = table();
    let mut parts = path.split('.');
    let mut real = parts.next()?.to_owned();
    for (i, part) in parts.enumerate() {
        let next = format!("{real}.{part}");
        match table.get(next.as_str()) {
            Some(Value::Module(m)) if !module_allowed(idx, m) => {
                return Some(Foreign {
                    parts: i + 2,
                    real: m,
                    module: true,
                });
            }
            Some(Value::Module(m)) => real = (*m).to_owned(),
            Some(Value::Object(o)) => {
                return Some(Foreign {
                    parts: i + 2,
                    real: o,
                    module: false,
                });
            }
            None => real = next,
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::{Value, foreign, module_allowed, table};
    use crate::policy::Policy;

    #[test]
    fn paths_resolve_to_what_they_are() {
        let idx = Policy::builtin().index();
        let hit = |p: &str| foreign(idx, p).map(|f| (f.parts, f.real));
        assert_eq!(hit("matplotlib.cbook.types"), Some((3, "types")));
        assert_eq!(
            hit("matplotlib.cbook.types.FunctionType"),
            Some((3, "types"))
        );
        assert_eq!(hit("typing.types"), Some((2, "types")));
        assert_eq!(hit("PIL.Image.core"), Some((3, "PIL._imaging")));
        assert_eq!(hit("matplotlib.Path"), Some((2, "pathlib.Path")));
        assert_eq!(hit("re.enum.bltns"), Some((2, "enum")));
        assert_eq!(hit("matplotlib.pyplot.np.linalg.norm"), None);
        assert_eq!(hit("numpy.linalg"), None);
        assert_eq!(hit("pandas.plotting"), None);
        assert!(module_allowed(idx, "numpy.ma"));
        assert!(module_allowed(idx, "matplotlib._enums"));
        assert!(!module_allowed(idx, "numpy._core.umath"));
        assert!(!module_allowed(idx, "numpy.f2py"));
        assert!(!module_allowed(idx, "os"));
        assert!(table().len() > 1000);
        assert_eq!(
            table().get("matplotlib.pyplot.np"),
            Some(&Value::Module("numpy"))
        );
    }
}
