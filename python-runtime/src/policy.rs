//! The policy file (`allowlist.toml`), compiled into the binary and parsed in this one place.
//!
//! Every list the checker, the runtime build and the selftest use comes from here, so the
//! rejection text, the bundled modules and the rules cannot drift apart.

use serde::Deserialize;
use std::collections::{HashMap, HashSet};

/// The raw text of the policy, as shipped.
pub const POLICY_TOML: &str = include_str!("../allowlist.toml");

#[derive(Debug, Clone, Deserialize)]
pub struct AllowedModule {
    pub name: String,
    /// The pip distribution that provides the module, or `"stdlib"`.
    pub distribution: String,
    pub reason: String,
}

/// A name with the reason it is blocked (blocked names, builtins, attributes).
#[derive(Debug, Clone, Deserialize)]
pub struct NamedReason {
    pub name: String,
    pub reason: String,
}

#[derive(Debug, Clone, Deserialize)]
pub struct BlockedSubmodule {
    pub path: String,
    pub reason: String,
}

/// A private module (`matplotlib._enums`) that the library's own public documentation
/// tells users to import, with the capability review that lets it in.
#[derive(Debug, Clone, Deserialize)]
pub struct PublicPrivateModule {
    pub path: String,
    pub reason: String,
}

/// A keyword argument of a library function that documents a module as its value
/// (`scipy.stats.probplot(x, plot=plt)`): `module-value` lets the listed modules pass there.
#[derive(Debug, Clone, Deserialize)]
pub struct ModuleSlot {
    pub function: String,
    pub keyword: String,
    pub modules: Vec<String>,
    pub reason: String,
}

/// A module refused as a whole of which only the pure `names` may be used, by those names
/// (`os.path.join`, `io.BytesIO`).
#[derive(Debug, Clone, Deserialize)]
pub struct RestrictedModule {
    pub path: String,
    pub names: Vec<String>,
    pub reason: String,
}

/// An attribute allowed on exactly one module (`PIL.Image.open`) although its name is
/// refused elsewhere.
#[derive(Debug, Clone, Deserialize)]
pub struct ModuleAttribute {
    pub path: String,
    pub reason: String,
}

/// The objects whose dangerous settings may be read by a literal key (`plt.rcParams[...]`).
#[derive(Debug, Clone, Deserialize)]
pub struct RcParamReads {
    pub objects: Vec<String>,
}

/// A private method of a library base class that a script's subclass may call through
/// `super()._x(...)` or `Base._x(self, ...)` (matplotlib's projection hooks), reviewed.
#[derive(Debug, Clone, Deserialize)]
pub struct LibraryHook {
    pub name: String,
    pub reason: String,
}

/// An attribute chain of a module that code may assign to (`pandas.options`: settings with
/// validation of their own), reviewed.
#[derive(Debug, Clone, Deserialize)]
pub struct WritableNamespace {
    pub path: String,
    pub reason: String,
}

/// seaborn's example datasets, read from the data folder: the calls that load them and the
/// keywords they may not be given (`cache=`, `data_home=`).
#[derive(Debug, Clone, Deserialize)]
pub struct Datasets {
    pub calls: Vec<String>,
    pub keywords: Vec<String>,
}

/// A private attribute name allowed read-only on any object (`g._legend`), reviewed for every
/// runtime class that has it; `instead` is the public equivalent the checker's note names.
#[derive(Debug, Clone, Deserialize)]
pub struct ReviewedPrivate {
    pub name: String,
    pub instead: String,
    pub reason: String,
}

#[derive(Debug, Clone, Deserialize)]
pub struct BlockedPrefix {
    pub prefix: String,
    pub reason: String,
}

/// A library API (or keyword) with what to write instead.
#[derive(Debug, Clone, Deserialize)]
pub struct DangerousApi {
    pub name: String,
    pub reason: String,
    pub instead: String,
}

#[derive(Debug, Clone, Deserialize)]
pub struct DangerousRcParam {
    pub key: String,
    pub reason: String,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Future {
    pub features: Vec<String>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct ModuleStrings {
    /// String prefixes that name a module to import (`module://`).
    pub prefixes: Vec<String>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Urls {
    pub schemes: Vec<String>,
    /// Call names (the last dotted component) that read data; `*` at the end is a prefix.
    pub readers: Vec<String>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Dunders {
    /// Bare dunder names that may be read (`__name__`).
    pub bare: Vec<String>,
    /// May be defined in a user class and used on `self`/`cls`/`super()`.
    pub protocol: Vec<String>,
    /// Never allowed on anything.
    pub introspection: Vec<String>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct PreImported {
    pub name: String,
    pub what: String,
}

/// A primitive the worker injects (`SRC`, `srcpath('file')`, ...), listed in every hint.
#[derive(Debug, Clone, Deserialize)]
pub struct Primitive {
    pub usage: String,
    pub what: String,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Policy {
    #[serde(rename = "module")]
    pub modules: Vec<AllowedModule>,
    pub future: Future,
    #[serde(rename = "blocked_name")]
    pub blocked_names: Vec<NamedReason>,
    #[serde(rename = "forbidden_builtin")]
    pub forbidden_builtins: Vec<NamedReason>,
    #[serde(rename = "blocked_submodule")]
    pub blocked_submodules: Vec<BlockedSubmodule>,
    #[serde(rename = "public_private_module", default)]
    pub public_private_modules: Vec<PublicPrivateModule>,
    #[serde(rename = "module_slot", default)]
    pub module_slots: Vec<ModuleSlot>,
    #[serde(rename = "restricted_module", default)]
    pub restricted_modules: Vec<RestrictedModule>,
    #[serde(rename = "module_attribute", default)]
    pub module_attributes: Vec<ModuleAttribute>,
    #[serde(rename = "blocked_attribute")]
    pub blocked_attributes: Vec<NamedReason>,
    #[serde(rename = "library_hook", default)]
    pub library_hooks: Vec<LibraryHook>,
    #[serde(rename = "writable_namespace", default)]
    pub writable_namespaces: Vec<WritableNamespace>,
    #[serde(rename = "blocked_attribute_prefix")]
    pub blocked_attribute_prefixes: Vec<BlockedPrefix>,
    #[serde(rename = "dangerous_api")]
    pub dangerous_apis: Vec<DangerousApi>,
    #[serde(rename = "dangerous_keyword")]
    pub dangerous_keywords: Vec<DangerousApi>,
    #[serde(rename = "dangerous_rcparam")]
    pub dangerous_rcparams: Vec<DangerousRcParam>,
    pub rcparam_reads: RcParamReads,
    pub module_strings: ModuleStrings,
    pub urls: Urls,
    pub datasets: Datasets,
    #[serde(rename = "reviewed_private", default)]
    pub reviewed_privates: Vec<ReviewedPrivate>,
    pub dunders: Dunders,
    #[serde(rename = "preimported")]
    pub preimported: Vec<PreImported>,
    #[serde(rename = "primitive")]
    pub primitives: Vec<Primitive>,
}

impl Policy {
    /// The policy compiled into this binary. The file is ours and tested, so a parse
    /// failure is a build defect, caught by the tests below.
    pub fn builtin() -> &'static Policy {
        use std::sync::OnceLock;
        static POLICY: OnceLock<Policy> = OnceLock::new();
        POLICY.get_or_init(|| {
            toml::from_str(POLICY_TOML).expect("allowlist.toml shipped in the binary must parse")
        })
    }

    pub fn module_names(&self) -> impl Iterator<Item = &str> {
        self.modules.iter().map(|m| m.name.as_str())
    }

    /// The policy indexed for fast lookups by the checker.
    pub fn index(&self) -> &'static PolicyIndex {
        use std::sync::OnceLock;
        static INDEX: OnceLock<PolicyIndex> = OnceLock::new();
        INDEX.get_or_init(|| PolicyIndex::new(Policy::builtin()))
    }
}

/// Lookup tables built once from [`Policy`]; values are the reasons.
#[derive(Debug)]
pub struct PolicyIndex {
    pub policy: &'static Policy,
    pub modules: HashSet<&'static str>,
    pub future: HashSet<&'static str>,
    pub blocked_names: HashMap<&'static str, &'static str>,
    pub builtins: HashMap<&'static str, &'static str>,
    pub submodules: HashMap<&'static str, &'static str>,
    pub attributes: HashMap<&'static str, &'static str>,
    pub apis: HashMap<&'static str, &'static DangerousApi>,
    pub keywords: HashMap<&'static str, &'static DangerousApi>,
    pub rcparams: HashMap<&'static str, &'static str>,
    /// `PIL.Image.open` and the like: full dotted path.
    pub module_attributes: HashSet<&'static str>,
    /// The last component of every [`PolicyIndex::module_attributes`] path (`open`).
    pub module_attribute_names: HashSet<&'static str>,
    pub bare_dunders: HashSet<&'static str>,
    pub protocol_dunders: HashSet<&'static str>,
    pub introspection_dunders: HashSet<&'static str>,
    /// The last component of every blocked submodule (`external` of `seaborn.external`),
    /// refused after any dot like a blocked attribute.
    pub submodule_tails: HashMap<&'static str, &'static str>,
    pub library_hooks: HashSet<&'static str>,
    /// Every module path under the allowed modules ([`LIBRARY_MODULES`]).
    pub library_modules: HashSet<&'static str>,
    /// Private names allowed read-only on any object, with their rows.
    pub reviewed_privates: HashMap<&'static str, &'static ReviewedPrivate>,
}

/// Every module path under the allowed modules (`numpy.linalg`, `matplotlib.pyplot.np`), one a
/// line, generated by `check/library_privates.py` from the bundled runtime.
pub const LIBRARY_MODULES: &str = include_str!("check/library_modules.txt");

/// The names of a generated table: one a line, `#` lines are comments.
fn table_lines(text: &'static str) -> HashSet<&'static str> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect()
}

impl PolicyIndex {
    fn new(p: &'static Policy) -> Self {
        let reasons = |v: &'static [NamedReason]| {
            v.iter()
                .map(|n| (n.name.as_str(), n.reason.as_str()))
                .collect()
        };
        let set = |v: &'static [String]| v.iter().map(String::as_str).collect();
        PolicyIndex {
            policy: p,
            modules: p.module_names().collect(),
            future: set(&p.future.features),
            blocked_names: reasons(&p.blocked_names),
            builtins: reasons(&p.forbidden_builtins),
            submodules: p
                .blocked_submodules
                .iter()
                .map(|s| (s.path.as_str(), s.reason.as_str()))
                .collect(),
            attributes: reasons(&p.blocked_attributes),
            apis: p
                .dangerous_apis
                .iter()
                .map(|a| (a.name.as_str(), a))
                .collect(),
            keywords: p
                .dangerous_keywords
                .iter()
                .map(|a| (a.name.as_str(), a))
                .collect(),
            rcparams: p
                .dangerous_rcparams
                .iter()
                .map(|r| (r.key.as_str(), r.reason.as_str()))
                .collect(),
            module_attributes: p
                .module_attributes
                .iter()
                .map(|m| m.path.as_str())
                .collect(),
            module_attribute_names: p
                .module_attributes
                .iter()
                .filter_map(|m| m.path.rsplit('.').next())
                .collect(),
            bare_dunders: set(&p.dunders.bare),
            protocol_dunders: set(&p.dunders.protocol),
            introspection_dunders: set(&p.dunders.introspection),
            submodule_tails: p
                .blocked_submodules
                .iter()
                .filter_map(|s| Some((s.path.rsplit('.').next()?, s.reason.as_str())))
                .collect(),
            library_hooks: p.library_hooks.iter().map(|h| h.name.as_str()).collect(),
            library_modules: table_lines(LIBRARY_MODULES),
            reviewed_privates: p
                .reviewed_privates
                .iter()
                .map(|r| (r.name.as_str(), r))
                .collect(),
        }
    }

    /// The reason an attribute name is blocked, if it is (exact name, the last part of a
    /// blocked submodule, or prefix).
    pub fn blocked_attribute(&self, name: &str) -> Option<&'static str> {
        let exact = self.attributes.get(name);
        let tail = || self.submodule_tails.get(name);
        exact.or_else(tail).copied().or_else(|| {
            self.policy
                .blocked_attribute_prefixes
                .iter()
                .find(|p| name.starts_with(p.prefix.as_str()))
                .map(|p| p.reason.as_str())
        })
    }

    /// The restricted module whose path is `path` or lies below it (`os` -> `os.path`).
    pub fn restricted_under(&self, path: &str) -> Option<&'static RestrictedModule> {
        self.policy.restricted_modules.iter().find(|r| {
            r.path == path
                || r.path
                    .strip_prefix(path)
                    .is_some_and(|rest| rest.starts_with('.'))
        })
    }

    /// What may be used of the restricted modules at or below `path`, for a message:
    /// `os.path.{join, basename, ...}` (the first few names: the hint stays short).
    pub fn restricted_summary(&self, path: &str) -> String {
        let parts: Vec<String> = self
            .policy
            .restricted_modules
            .iter()
            .filter(|r| {
                r.path == path
                    || r.path
                        .strip_prefix(path)
                        .is_some_and(|rest| rest.starts_with('.'))
                    || path
                        .strip_prefix(&r.path)
                        .is_some_and(|rest| rest.starts_with('.'))
            })
            .map(|r| {
                const SHOWN: usize = 5;
                let mut names = r.names.iter().take(SHOWN).cloned().collect::<Vec<_>>();
                if r.names.len() > SHOWN {
                    names.push("...".into());
                }
                format!("{}.{{{}}}", r.path, names.join(", "))
            })
            .collect();
        parts.join(" and ")
    }

    /// Whether the full dotted `path` may be used: `os.path.join`, `io.BytesIO` (or
    /// something below a listed name, `os.path.sep.join`).
    pub fn restricted_allows(&self, path: &str) -> bool {
        self.policy.restricted_modules.iter().any(|r| {
            r.names.iter().any(|n| {
                let full = format!("{}.{n}", r.path);
                path == full
                    || path
                        .strip_prefix(&full)
                        .is_some_and(|rest| rest.starts_with('.'))
            })
        })
    }

    /// Whether code may assign to an attribute of the module path `path` (the receiver of
    /// the assignment): only inside a reviewed settings namespace (`pandas.options...`).
    pub fn writable_namespace(&self, path: &str) -> bool {
        self.policy.writable_namespaces.iter().any(|w| {
            path == w.path
                || path
                    .strip_prefix(&w.path)
                    .is_some_and(|rest| rest.starts_with('.'))
        })
    }

    /// Whether a call named `name` (last dotted component) reads data (URL rule).
    pub fn is_reader(&self, name: &str) -> bool {
        self.policy
            .urls
            .readers
            .iter()
            .any(|r| match r.strip_suffix('*') {
                Some(prefix) => name.starts_with(prefix),
                None => name == r,
            })
    }

    /// The blocked submodule reason for a dotted path (`numpy.f2py`, `numpy.f2py.x`).
    pub fn blocked_submodule(&self, path: &str) -> Option<(&'static str, &'static str)> {
        self.submodules.iter().find_map(|(blocked, reason)| {
            let hit = path == *blocked
                || path
                    .strip_prefix(*blocked)
                    .is_some_and(|rest| rest.starts_with('.'));
            hit.then_some((*blocked, *reason))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_policy_parses_and_every_module_has_a_reason() {
        let policy = Policy::builtin();
        assert!(!policy.modules.is_empty());
        for m in &policy.modules {
            assert!(!m.reason.trim().is_empty(), "{} has no reason", m.name);
        }
    }

    #[test]
    fn policy_has_the_designed_counts_and_every_entry_a_reason() {
        let p = Policy::builtin();
        assert_eq!(p.modules.len(), 25);
        assert_eq!(p.blocked_names.len(), 36);
        assert_eq!(p.forbidden_builtins.len(), 17);
        for n in p
            .blocked_names
            .iter()
            .chain(&p.forbidden_builtins)
            .chain(&p.blocked_attributes)
        {
            assert!(!n.reason.trim().is_empty(), "{} has no reason", n.name);
        }
        for s in &p.blocked_submodules {
            assert!(!s.reason.trim().is_empty(), "{} has no reason", s.path);
        }
        for m in &p.public_private_modules {
            assert!(!m.reason.trim().is_empty(), "{} has no reason", m.path);
            let top = m.path.split('.').next().unwrap_or_default();
            assert!(
                p.module_names().any(|n| n == top),
                "{} is not inside an allowed module",
                m.path
            );
        }
        for r in &p.restricted_modules {
            assert!(!r.reason.trim().is_empty(), "{} has no reason", r.path);
            assert!(!r.names.is_empty(), "{} allows nothing", r.path);
            let top = r.path.split('.').next().unwrap_or_default();
            assert!(
                !p.module_names().any(|n| n == top),
                "{} is restricted and allowed whole",
                r.path
            );
        }
        for m in &p.module_attributes {
            assert!(!m.reason.trim().is_empty(), "{} has no reason", m.path);
            let top = m.path.split('.').next().unwrap_or_default();
            assert!(
                p.module_names().any(|n| n == top),
                "{} is not inside an allowed module",
                m.path
            );
        }
        for h in &p.library_hooks {
            assert!(!h.reason.trim().is_empty(), "{} has no reason", h.name);
            assert!(h.name.starts_with('_'), "{} is no private name", h.name);
        }
        for w in &p.writable_namespaces {
            assert!(!w.reason.trim().is_empty(), "{} has no reason", w.path);
        }
        for a in p.dangerous_apis.iter().chain(&p.dangerous_keywords) {
            assert!(
                !a.instead.trim().is_empty(),
                "{} says nothing instead",
                a.name
            );
        }
    }

    #[test]
    fn no_allowed_module_is_also_blocked() {
        let idx = Policy::builtin().index();
        for m in &idx.modules {
            assert!(
                !idx.blocked_names.contains_key(m),
                "{m} is allowed and blocked"
            );
        }
    }

    #[test]
    fn generated_tables_hold_what_the_rules_rely_on() {
        let idx = Policy::builtin().index();
        for path in [
            "numpy.linalg",
            "matplotlib.pyplot",
            "seaborn.external",
            "typing",
        ] {
            assert!(idx.library_modules.contains(path), "{path}");
        }
        assert!(idx.blocked_attribute("external").is_some());
        assert!(idx.writable_namespace("pandas.options.display"));
        assert!(!idx.writable_namespace("pandas.optionsx"));
    }

    #[test]
    fn submodule_match_is_by_dotted_component() {
        let idx = Policy::builtin().index();
        assert!(idx.blocked_submodule("numpy.f2py").is_some());
        assert!(idx.blocked_submodule("numpy.f2py.crackfortran").is_some());
        assert!(idx.blocked_submodule("numpy.f2pyx").is_none());
        assert!(idx.blocked_submodule("numpy.fft").is_none());
    }
}
