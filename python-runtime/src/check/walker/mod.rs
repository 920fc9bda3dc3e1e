//! The walk over the syntax tree: every node, every place a name can stand. The walker
//! knows the context (bindings, which method's receiver is `self`, depth); the rules in
//! `rules/` decide and word the violations.
//!
//! This file holds the walk's state, the reports and the passes deferred to the end of the
//! file (what needs every binding and class known); the walk itself is in
//! [`statements`], [`expressions`] (with match patterns) and [`scopes`] (frames, receivers
//! and what binds a name).

mod expressions;
mod scopes;
mod statements;

use super::classes::{self, Classes, Owner};
use super::rules::{self, Flow, Rule};
use super::source::LineIndex;
use super::{Advice, Diagnostic};
use crate::policy::PolicyIndex;
use rustpython_parser::ast::{Expr, Stmt};
use scopes::Frame;
use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use unicode_normalization::UnicodeNormalization;

/// Identifiers as the interpreter sees them: CPython NFKC-normalises non-ASCII names, so
/// `ｅｖａｌ` and `𝐨𝐬` are `eval` and `os`.
pub fn norm(name: &str) -> Cow<'_, str> {
    if name.is_ascii() {
        Cow::Borrowed(name)
    } else {
        Cow::Owned(name.nfkc().collect())
    }
}

/// An attribute whose name is refused except on one module (`PIL.Image.open`): judged once
/// every binding of the file is known.
struct PendingAttribute {
    receiver: Vec<String>,
    name: String,
    offset: usize,
    owner: Option<Owner>,
}

/// `self._x`, `super()._x`, `Base._x(self)`: judged once every class of the file is known.
struct PendingPrivate {
    owner: Owner,
    name: String,
    offset: usize,
}

/// `R.attr = ...` / `del R.attr` on a receiver that is not the method's own: refused when
/// `R` may be a module or something reached from one, once every binding is known.
struct PendingStore {
    receiver: Option<Vec<String>>,
    name: String,
    type_call: bool,
    offset: usize,
}

/// `X['text.usetex']` read: harmless when `X` is matplotlib's rcParams.
struct PendingRcRead {
    receiver: Vec<String>,
    key: String,
    offset: usize,
}

pub struct Checker<'a> {
    pub idx: &'static PolicyIndex,
    lines: &'a LineIndex<'a>,
    violations: Vec<Diagnostic>,
    bound: HashSet<String>,
    /// Names bound by an import, with the dotted path each import gave them and where.
    import_bound: HashMap<String, Vec<(String, usize)>>,
    /// Names bound by anything but an import (assignment, parameter, def, target, ...).
    other_bound: HashSet<String>,
    /// Every name read, with its offset (for the restricted modules' rule).
    name_reads: Vec<(String, usize)>,
    /// The longest `a.b.c` chain of names starting at an offset.
    chains: HashMap<usize, Vec<String>>,
    pending_attributes: Vec<PendingAttribute>,
    pending_rc_reads: Vec<PendingRcRead>,
    blocked_reads: Vec<(String, usize)>,
    frames: Vec<Frame>,
    depth: usize,
    too_deep: bool,
    classes: Classes,
    /// How often each name is bound (a class name bound only by its class statement is the
    /// script's class).
    binding_counts: HashMap<String, usize>,
    /// Names assigned a chain of names (`m = sns`, `a = np.linalg`): possible aliases.
    aliases: HashMap<String, Vec<Vec<String>>>,
    /// Offsets of chains that are the whole value of such an alias assignment.
    alias_values: HashSet<usize>,
    /// Inside a comprehension (its names bind in its own scope, not the class body's).
    comprehension: usize,
    pending_privates: Vec<PendingPrivate>,
    pending_stores: Vec<PendingStore>,
    /// `R.use(name)` with a name computed at run time: refused when `R` may be matplotlib.
    pending_uses: Vec<(Vec<String>, usize)>,
    /// `A.m` read on a class (`A` a class name, `cls`, `type(x)`): refused when `m` is an
    /// instance method of the script, which would then run with any object as `self`.
    pending_unbound: Vec<(String, String, usize)>,
    /// Every `a.b.c` attribute chain with the offset of its last name: judged once every
    /// binding is known for the module or object the path really is (`foreign-module`).
    pending_paths: Vec<(Vec<String>, usize)>,
    /// `f(..., kw=value)` where `kw` is a reviewed module slot's keyword: the called chain,
    /// the keyword, the value's chain and its offset (`module-value` lets the slot's modules pass).
    pending_slots: Vec<(Vec<String>, String, Vec<String>, usize)>,
    /// `from M import *` to run as an explicit import list: (offset of `*`, the names).
    star_rewrites: Vec<(usize, String)>,
    /// What the author should know about code that passes (a star import shadowing
    /// builtins, a reviewed private name and its public equivalent).
    notes: Vec<String>,
}

/// What the walk found: the violations, the star imports to run as explicit lists, notes.
pub struct Walked {
    pub diagnostics: Vec<Diagnostic>,
    pub star_rewrites: Vec<(usize, String)>,
    pub notes: Vec<String>,
}

impl<'a> Checker<'a> {
    pub fn new(idx: &'static PolicyIndex, lines: &'a LineIndex<'a>) -> Self {
        Checker {
            idx,
            lines,
            violations: Vec::new(),
            bound: HashSet::new(),
            import_bound: HashMap::new(),
            other_bound: HashSet::new(),
            name_reads: Vec::new(),
            chains: HashMap::new(),
            pending_attributes: Vec::new(),
            pending_rc_reads: Vec::new(),
            blocked_reads: Vec::new(),
            frames: vec![Frame::Module],
            depth: 0,
            too_deep: false,
            classes: Classes::default(),
            binding_counts: HashMap::new(),
            aliases: HashMap::new(),
            alias_values: HashSet::new(),
            comprehension: 0,
            pending_privates: Vec::new(),
            pending_stores: Vec::new(),
            pending_uses: Vec::new(),
            pending_unbound: Vec::new(),
            pending_paths: Vec::new(),
            pending_slots: Vec::new(),
            star_rewrites: Vec::new(),
            notes: Vec::new(),
        }
    }

    /// Walk a module and return every violation.
    pub fn run(self, body: &[Stmt]) -> Vec<Diagnostic> {
        self.walk(body).diagnostics
    }

    /// Walk a module: every violation, the star imports to rewrite and the notes.
    pub fn walk(mut self, body: &[Stmt]) -> Walked {
        self.stmts(body);
        let reads = std::mem::take(&mut self.blocked_reads);
        rules::blocked_name::finish(&mut self, reads);
        let reads = self.name_reads.clone();
        rules::blocked_name::finish_restricted(&mut self, reads);
        for p in std::mem::take(&mut self.pending_attributes) {
            let module = self.module_path(&p.receiver);
            if !rules::private_attribute::on_its_module(&self, module.as_deref(), &p.name) {
                self.attribute(&p.name, p.offset, p.owner, true);
            }
        }
        self.finish_privates();
        self.finish_unbound();
        self.finish_module_uses();
        for p in std::mem::take(&mut self.pending_rc_reads) {
            let on = self.module_path(&p.receiver);
            rules::dangerous_rcparam::finish_read(&mut self, on.as_deref(), &p.key, p.offset);
        }
        self.notes.dedup();
        Walked {
            diagnostics: self.violations,
            star_rewrites: self.star_rewrites,
            notes: self.notes,
        }
    }

    /// A note for the author of code that passes (said once).
    pub fn note(&mut self, text: String) {
        if !self.notes.contains(&text) {
            self.notes.push(text);
        }
    }

    /// The dotted module path `chain` (`["Image", "open"]`) stands for, when its first name
    /// is bound only by imports that agree (or is a pre-imported name the script never
    /// binds): `PIL.Image.open`. Known only once the whole file is walked.
    pub fn module_path(&self, chain: &[String]) -> Option<String> {
        let (head, rest) = chain.split_first()?;
        if self.other_bound.contains(head) {
            return None;
        }
        let base = match self.import_bound.get(head) {
            Some(sites) => {
                let (first, _) = sites.first()?;
                sites
                    .iter()
                    .all(|(p, _)| p == first)
                    .then(|| first.clone())?
            }
            None => self
                .idx
                .policy
                .preimported
                .iter()
                .find(|p| &p.name == head)
                .map(|p| p.what.clone())?,
        };
        Some(rest.iter().fold(base, |path, c| format!("{path}.{c}")))
    }

    /// The module paths the imports of this file bound `name` to, with the import's offset.
    pub fn import_sites(&self, name: &str) -> &[(String, usize)] {
        self.import_bound.get(name).map_or(&[], Vec::as_slice)
    }

    /// The longest `name.attr...` chain that starts at `offset` (at least the name).
    pub fn chain_at(&self, offset: usize) -> Option<&[String]> {
        self.chains.get(&offset).map(Vec::as_slice)
    }

    /// Report a violation: `what` is wrong, then the rule's advice.
    pub fn report(&mut self, rule: &Rule, offset: usize, what: String) {
        self.report_with(rule, offset, what, Advice::Rule);
    }

    /// Report with advice of its own (a policy entry's replacement).
    pub fn report_with(&mut self, rule: &Rule, offset: usize, what: String, advice: Advice) {
        let (line, col) = self.lines.locate(offset);
        self.violations.push(Diagnostic {
            line,
            col,
            rule: rule.id,
            what,
            advice,
        });
    }

    /// `(line, col)` of a byte offset.
    pub fn locate(&self, offset: usize) -> (usize, usize) {
        self.lines.locate(offset)
    }

    pub fn is_bound(&self, name: &str) -> bool {
        self.bound.contains(name)
    }

    /// Every dotted path `chain` may stand for through imports, the pre-imported names and
    /// aliases (`m = np; m.load` -> `numpy.load`), whatever else binds its first name.
    pub fn may_paths(&self, chain: &[String]) -> Vec<String> {
        let mut out = Vec::new();
        self.collect_paths(chain, &mut out, &mut Vec::new());
        out
    }

    fn collect_paths(&self, chain: &[String], out: &mut Vec<String>, seen: &mut Vec<String>) {
        let Some((head, rest)) = chain.split_first() else {
            return;
        };
        if seen.contains(head) || seen.len() > 16 {
            return;
        }
        let join = |base: &str| rest.iter().fold(base.to_owned(), |p, c| format!("{p}.{c}"));
        for (path, _) in self.import_sites(head) {
            out.push(join(path));
        }
        if let Some(p) = self.idx.policy.preimported.iter().find(|p| &p.name == head) {
            out.push(join(&p.what));
        }
        if let Some(chains) = self.aliases.get(head) {
            seen.push(head.clone());
            for target in chains {
                let mut whole = target.clone();
                whole.extend(rest.iter().cloned());
                self.collect_paths(&whole, out, seen);
            }
            seen.pop();
        }
    }

    /// Whether the library class a base is written as (`maxes.Axes`, `dict`) carries the
    /// private `name`; a base the checker cannot resolve carries every library private.
    fn library_class_carries(&self, base: &str, name: &str) -> bool {
        let chain: Vec<String> = base.split('.').map(str::to_owned).collect();
        let path = self
            .module_path(&chain)
            .or_else(|| (chain.len() == 1 && !self.is_bound(base)).then(|| base.to_owned()));
        super::library::LibraryClasses::get().carries(path.as_deref(), name)
    }

    fn finish_unbound(&mut self) {
        let methods: HashSet<String> = self
            .classes
            .all
            .iter()
            .flat_map(|c| c.methods.iter().cloned())
            .collect();
        for (class, name, offset) in std::mem::take(&mut self.pending_unbound) {
            let is_class =
                class == "type(x)" || class == "cls" || self.classes.by_name.contains_key(&class);
            if is_class && methods.contains(&name) {
                rules::private_attribute::unbound_method(self, &class, &name, offset);
            }
        }
    }

    fn finish_privates(&mut self) {
        let pending = std::mem::take(&mut self.pending_privates);
        let refused: Vec<PendingPrivate> = {
            let bindings = classes::Bindings {
                counts: &self.binding_counts,
                object_bound: self.is_bound("object"),
            };
            let carries = |base: &str, name: &str| self.library_class_carries(base, name);
            let library = classes::Library {
                carries: &carries,
                hooks: &self.idx.library_hooks,
            };
            pending
                .into_iter()
                .filter(|p| !self.classes.owns(&p.owner, &p.name, &bindings, &library))
                .collect()
        };
        for p in refused {
            rules::private_attribute::not_owned(self, &p.name, &p.owner.via, p.offset);
        }
    }

    /// Stores on modules, modules used as values, and `matplotlib.use` with a computed name.
    fn finish_module_uses(&mut self) {
        for store in std::mem::take(&mut self.pending_stores) {
            let paths = store.receiver.as_deref().map(|r| self.may_paths(r));
            rules::module_assignment::check_store(
                self,
                paths.unwrap_or_default(),
                &store.name,
                store.type_call,
                store.offset,
            );
        }
        let slotted = self.module_slot_values();
        let reads: Vec<(String, usize)> = self.name_reads.clone();
        for (name, offset) in reads {
            if self.alias_values.contains(&offset) || slotted.contains(&offset) {
                continue;
            }
            let chain = match self.chain_at(offset) {
                Some(c) => c.to_vec(),
                None => vec![name],
            };
            let paths = self.may_paths(&chain);
            rules::module_value::check(self, &chain, &paths, offset);
        }
        for (chain, offset) in std::mem::take(&mut self.pending_paths) {
            // A name already refused at this place (`Image.os`: blocked-attribute) is
            // said once.
            let at = self.locate(offset);
            if self.violations.iter().any(|d| (d.line, d.col) == at) {
                continue;
            }
            let written = chain.join(".");
            for path in self.may_paths(&chain) {
                if rules::foreign_module::check(self, &written, &path, offset).reported() {
                    break;
                }
            }
        }
        for (receiver, offset) in std::mem::take(&mut self.pending_uses) {
            if self.may_paths(&receiver).iter().any(|p| p == "matplotlib") {
                rules::dangerous_api::computed_backend(self, offset);
            }
        }
    }

    /// Offsets of keyword values that are a module in a reviewed slot of the function called
    /// (`stats.probplot(x, plot=plt)`): every path the call and the value may stand for
    /// must be the slot's.
    fn module_slot_values(&mut self) -> HashSet<usize> {
        let mut out = HashSet::new();
        for (func, keyword, value, offset) in std::mem::take(&mut self.pending_slots) {
            let funcs = self.may_paths(&func);
            let values = self.may_paths(&value);
            let fits = !funcs.is_empty()
                && !values.is_empty()
                && funcs.iter().all(|f| {
                    self.idx.policy.module_slots.iter().any(|s| {
                        &s.function == f
                            && s.keyword == keyword
                            && values.iter().all(|v| s.modules.contains(v))
                    })
                });
            if fits {
                out.insert(offset);
            }
        }
        out
    }

    /// One level deeper, at `offset`: reported when too deep, and then the walk does not
    /// descend (nor count the level).
    pub(super) fn enter(&mut self, offset: usize) -> Flow {
        self.depth += 1;
        let mut reported = self.too_deep;
        let flow = rules::nesting_too_deep::check_depth(self, self.depth, offset, &mut reported);
        self.too_deep = reported;
        if flow.reported() {
            self.depth -= 1;
        }
        flow
    }
}

/// `a.b.c` for a name or a chain of attributes on a name (normalised), else `None`.
pub(super) fn dotted_expr(expr: &Expr) -> Option<String> {
    match expr {
        Expr::Name(n) => Some(norm(n.id.as_str()).into_owned()),
        Expr::Attribute(a) => Some(format!(
            "{}.{}",
            dotted_expr(&a.value)?,
            norm(a.attr.as_str())
        )),
        _ => None,
    }
}

/// `["a", "b", "c"]` for `a.b.c` (a name or a chain of attributes on one, normalised).
pub(super) fn name_chain(expr: &Expr) -> Option<Vec<String>> {
    match expr {
        Expr::Name(n) => Some(vec![norm(n.id.as_str()).into_owned()]),
        Expr::Attribute(a) => {
            let mut chain = name_chain(&a.value)?;
            chain.push(norm(a.attr.as_str()).into_owned());
            Some(chain)
        }
        _ => None,
    }
}

pub(super) fn expr_start(expr: &Expr) -> usize {
    use rustpython_parser::ast::Ranged;
    expr.start().to_usize()
}
