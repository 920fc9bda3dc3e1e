//! The library side of the private-name question: which private names a library class
//! carries along its bases, read from `library_classes.txt` (generated from the bundled
//! runtime by `library_privates.py`; review its diff like the allowlist's).

use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

/// The table as shipped.
pub const LIBRARY_CLASSES: &str = include_str!("library_classes.txt");

struct Class {
    bases: Vec<&'static str>,
    names: HashSet<&'static str>,
}

/// Every library class by key (`matplotlib.axes._axes.Axes`), the public dotted paths that
/// stand for them (`matplotlib.axes.Axes`), and every private name of any of them.
pub struct LibraryClasses {
    classes: HashMap<&'static str, Class>,
    public: HashMap<&'static str, &'static str>,
    any: HashSet<&'static str>,
}

impl LibraryClasses {
    /// The table, parsed on first use (only code with a subclass of a library class that
    /// uses private names needs it).
    pub fn get() -> &'static LibraryClasses {
        static TABLE: OnceLock<LibraryClasses> = OnceLock::new();
        TABLE.get_or_init(|| Self::parse(LIBRARY_CLASSES))
    }

    fn parse(text: &'static str) -> Self {
        let mut table = LibraryClasses {
            classes: HashMap::new(),
            public: HashMap::new(),
            any: HashSet::new(),
        };
        for line in text.lines() {
            let mut parts = line.split_ascii_whitespace();
            match (parts.next(), parts.next()) {
                (Some("C"), Some(key)) => {
                    let bases = parts.next().unwrap_or("-");
                    let bases = bases.split(',').filter(|b| *b != "-").collect();
                    let names: HashSet<&str> = parts.collect();
                    table.any.extend(names.iter().copied());
                    table.classes.insert(key, Class { bases, names });
                }
                (Some("P"), Some(path)) => {
                    if let Some(key) = parts.next() {
                        table.public.insert(path, key);
                    }
                }
                _ => {}
            }
        }
        table
    }

    /// Whether the class a script may write as `path` (`matplotlib.axes.Axes`, `dict`), or
    /// any of its bases, carries the private `name`. An unknown path (`None`, or a class the
    /// table does not know) carries every private name some library class has.
    pub fn carries(&self, path: Option<&str>, name: &str) -> bool {
        let Some(key) = path.and_then(|p| self.public.get(p)) else {
            return self.any.contains(name);
        };
        let mut todo = vec![*key];
        let mut seen = HashSet::new();
        while let Some(key) = todo.pop() {
            if !seen.insert(key) {
                continue;
            }
            let Some(class) = self.classes.get(key) else {
                return self.any.contains(name);
            };
            if class.names.contains(name) {
                return true;
            }
            todo.extend(class.bases.iter().copied());
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::LibraryClasses;

    #[test]
    fn the_table_knows_the_evaluator_and_the_axes_hooks() {
        let t = LibraryClasses::get();
        assert!(t.carries(Some("typing.ForwardRef"), "_evaluate"));
        assert!(t.carries(Some("matplotlib.axes.Axes"), "_gen_axes_spines"));
        assert!(t.carries(Some("matplotlib.projections.polar.PolarAxes"), "_init_axis"));
        assert!(!t.carries(Some("matplotlib.axes.Axes"), "_longitude_cap"));
        assert!(!t.carries(Some("dict"), "_x"));
        assert!(t.carries(None, "_evaluate"));
        assert!(t.carries(Some("no.such.Class"), "_evaluate"));
    }
}
