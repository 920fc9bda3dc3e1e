//! The script's own classes, as the checker needs them to decide whether `self._x`,
//! `super()._x` or `Base._x(self, ...)` can reach a library's private method: which bases
//! each class has (written, resolved to the script's classes where they are ones), and which
//! names the script itself gives it.
//!
//! Python finds `self._x` in the instance, then along the method resolution order (MRO) of
//! the instance's class, which inside `C`'s method may be any script class derived from `C`;
//! `super()._x` along that MRO after `C`. A library base in that order can answer with its
//! own private method (`typing.ForwardRef._evaluate` ran `eval`). What is provable from the
//! source alone: when no class of that family has a library base, there is no library
//! private to reach; when none of the family's library bases carries `_x` along its own bases
//! (`library_classes.txt`, generated from the runtime) and the script gives `_x` itself, it is
//! the script's; a name defined in `C`'s own body is found there first unless a derived
//! class brings in a library base `C` does not have. An instance attribute library code sets
//! (`self._usetex` in `Text.__init__`) is in no class `__dict__`: a script class that assigns
//! such a name itself replaces a library value, not a method (Layer 2 and the run-time checks
//! of what is drawn stay in place).

use std::collections::{HashMap, HashSet};

/// How a private name is reached on something the script's class owns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Via {
    /// `self._x` / `cls._x`.
    Receiver,
    /// `super()._x` (zero-argument form).
    Super,
    /// `Base._x(self, ...)`, `Base` as written in the class statement.
    Base(String),
}

/// The class whose method is running, and how the attribute is reached from it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Owner {
    pub class: usize,
    pub via: Via,
}

/// A base written as something other than a dotted name (`class F(*bases)`, `make()`): a
/// library class for every purpose.
pub const UNKNOWN_BASE: &str = "?";

/// One class statement of the script.
#[derive(Debug, Default)]
pub struct ClassInfo {
    /// Bases as written (`Axes`, `maxes.Axes`), [`UNKNOWN_BASE`] for any other expression.
    pub bases: Vec<String>,
    /// Names its body defines: methods, class attributes (not comprehension variables).
    pub body: HashSet<String>,
    /// Names its methods assign through the receiver (`self._n = n`).
    pub assigned: HashSet<String>,
    /// Its instance methods (a receiver, no `classmethod`).
    pub methods: HashSet<String>,
}

/// Every class statement of the file, and what resolving a base needs to know.
#[derive(Debug, Default)]
pub struct Classes {
    pub all: Vec<ClassInfo>,
    /// Class name -> its class statements.
    pub by_name: HashMap<String, Vec<usize>>,
}

/// What the checker knows about names, for resolving a base: how often a name is bound
/// (a class name bound otherwise too may be a library class at run time), and whether the
/// script binds `object`.
pub struct Bindings<'a> {
    pub counts: &'a HashMap<String, usize>,
    pub object_bound: bool,
}

/// The library's side: whether the class a base is written as (`maxes.Axes`) carries a
/// private name along its bases, and the reviewed hooks.
pub struct Library<'a> {
    pub carries: &'a dyn Fn(&str, &str) -> bool,
    pub hooks: &'a HashSet<&'static str>,
}

impl Classes {
    /// A new class statement with its bases; returns its id.
    pub fn add(&mut self, name: &str, bases: Vec<String>) -> usize {
        let id = self.all.len();
        self.all.push(ClassInfo {
            bases,
            ..ClassInfo::default()
        });
        self.by_name.entry(name.to_owned()).or_default().push(id);
        id
    }

    /// The script class a base names: a plain name bound once, by one class statement.
    fn script_class(&self, base: &str, b: &Bindings) -> Option<usize> {
        match self.by_name.get(base)?.as_slice() {
            [one] if b.counts.get(base) == Some(&1) => Some(*one),
            _ => None,
        }
    }

    fn harmless_base(base: &str, b: &Bindings) -> bool {
        base == "object" && !b.object_bound
    }

    fn in_body(&self, class: usize, name: &str) -> bool {
        self.all.get(class).is_some_and(|c| c.body.contains(name))
    }

    /// `class` and every script class derived from it: the classes `self` may be an
    /// instance of inside `class`'s methods.
    fn family(&self, class: usize, b: &Bindings) -> Vec<usize> {
        let mut family = vec![class];
        let mut i = 0;
        while let Some(&member) = family.get(i) {
            for (id, info) in self.all.iter().enumerate() {
                let derived = info
                    .bases
                    .iter()
                    .any(|base| self.script_class(base, b) == Some(member));
                if derived && !family.contains(&id) {
                    family.push(id);
                }
            }
            i += 1;
        }
        family
    }

    /// The script classes `from` and their script ancestors, and the library bases (as
    /// written) any of them has.
    fn closure(&self, from: &[usize], b: &Bindings) -> (Vec<usize>, Vec<String>) {
        let mut classes: Vec<usize> = from.to_vec();
        let mut libraries = Vec::new();
        let mut i = 0;
        while let Some(&member) = classes.get(i) {
            for base in self.all.get(member).map_or(&[][..], |c| c.bases.as_slice()) {
                if Self::harmless_base(base, b) {
                    continue;
                }
                match self.script_class(base, b) {
                    Some(id) if !classes.contains(&id) => classes.push(id),
                    Some(_) => {}
                    None if !libraries.contains(base) => libraries.push(base.clone()),
                    None => {}
                }
            }
            i += 1;
        }
        (classes, libraries)
    }

    /// Whether the private `name`, reached as `owner` says, is the script's own for sure.
    ///
    /// Inside a method of `C`, `self` may be an instance of any script class derived from
    /// `C`, whose other bases come into its MRO: the library bases of that whole family
    /// count, not only `C`'s.
    pub fn owns(&self, owner: &Owner, name: &str, b: &Bindings, lib: &Library) -> bool {
        let class = owner.class;
        let carried = |libraries: &[String]| libraries.iter().any(|l| (lib.carries)(l, name));
        let given = |classes: &[usize]| {
            classes.iter().any(|&c| {
                self.all
                    .get(c)
                    .is_some_and(|i| i.body.contains(name) || i.assigned.contains(name))
            })
        };
        match &owner.via {
            Via::Receiver | Via::Super => {
                let family = self.family(class, b);
                let (classes, libraries) = self.closure(&family, b);
                if libraries.is_empty() || !carried(&libraries) && given(&classes) {
                    return true;
                }
                let (_, own_libraries) = self.closure(&[class], b);
                // No derived class brings a library base of its own: `C` precedes every
                // library class in each MRO `self` can have.
                let closed = libraries.iter().all(|l| own_libraries.contains(l));
                if owner.via == Via::Receiver {
                    return closed && self.in_body(class, name);
                }
                // `super()` from `C` goes on with `C`'s first base, when nothing derives
                // from `C`.
                let first = self
                    .all
                    .get(class)
                    .and_then(|c| c.bases.first())
                    .and_then(|base| self.script_class(base, b));
                lib.hooks.contains(name)
                    || !carried(&libraries)
                    || family.len() == 1 && first.is_some_and(|f| self.in_body(f, name))
            }
            // `Base._x` looks in `Base`'s own MRO, whatever `self` is.
            Via::Base(base) => match self.script_class(base, b) {
                Some(id) => {
                    let (classes, libraries) = self.closure(&[id], b);
                    libraries.is_empty()
                        || self.in_body(id, name)
                        || lib.hooks.contains(name)
                        || !carried(&libraries) && given(&classes)
                }
                None => lib.hooks.contains(name) || !(lib.carries)(base, name),
            },
        }
    }
}
