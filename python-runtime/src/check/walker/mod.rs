//! The walk over the syntax tree: every node, every place a name can stand. The walker
//! knows the context (bindings, which method's receiver is `self`, depth); the rules in
//! `rules/` decide and word the violations.

use super::classes::{self, Classes, Owner, Via};
use super::rules::{self, Rule, dunder_name::Use};
use super::source::LineIndex;
use super::{Advice, Diagnostic};
use crate::policy::PolicyIndex;
use rustpython_parser::ast::{self, Expr, ExprContext, Pattern, Stmt};
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

#[derive(Debug, Clone)]
enum Frame {
    Module,
    /// A class body; `bases` are its base classes as written (`Axes`, `maxes.Axes`), `id`
    /// the class in [`Classes`].
    Class {
        bases: Vec<String>,
        id: usize,
    },
    /// A function or lambda; `receiver` is the name (`self`/`cls`) that refers to an
    /// instance or class defined in this script, if any, `bases` that class's bases and
    /// `class` the class.
    Function {
        receiver: Option<String>,
        bases: Vec<String>,
        class: Option<usize>,
    },
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

    /// `from module import *` at `offset` (the `*`): bind what the star import may bind and
    /// run it as that explicit list. Returns false when it is refused instead.
    fn star_import(&mut self, module: &str, offset: usize) -> bool {
        let at_module_level = matches!(self.frames.last(), Some(Frame::Module));
        let star_here = self.lines.text().get(offset..offset + 1) == Some("*");
        let names = match super::star::bindable(module) {
            Some(names) if at_module_level && star_here && !names.is_empty() => names,
            _ => return false,
        };
        for name in &names {
            self.bind_import(name, offset, format!("{module}.{name}"));
        }
        if let Some(note) = super::star::shadow_note(module, &names) {
            self.note(note);
        }
        self.star_rewrites.push((offset, names.join(", ")));
        true
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

    fn receiver(&self) -> Option<&str> {
        match self.frames.last() {
            Some(Frame::Function { receiver, .. }) => receiver.as_deref(),
            _ => None,
        }
    }

    pub fn in_class_body(&self) -> bool {
        matches!(self.frames.last(), Some(Frame::Class { .. }))
    }

    /// The bases of the class whose method this is (through nested functions that keep
    /// its receiver).
    fn class_bases(&self) -> &[String] {
        match self.frames.last() {
            Some(Frame::Class { bases, .. } | Frame::Function { bases, .. }) => bases,
            _ => &[],
        }
    }

    /// The class whose body or method (with its receiver) this is.
    fn current_class(&self) -> Option<usize> {
        match self.frames.last() {
            Some(Frame::Class { id, .. }) => Some(*id),
            Some(Frame::Function { class, .. }) => *class,
            _ => None,
        }
    }

    /// A function scope about to start: its receiver and the bases that go with it.
    fn function_frame(&self, args: &ast::Arguments, decorators: Option<&[Expr]>) -> Frame {
        let receiver = self.receiver_for(args, decorators);
        let (bases, class) = if receiver.is_some() {
            (self.class_bases().to_vec(), self.current_class())
        } else {
            (Vec::new(), None)
        };
        Frame::Function {
            receiver,
            bases,
            class,
        }
    }

    /// `Base.__init__(self, ...)` / `Base._setup(self, ...)` inside a method of a class
    /// derived from `Base`: the explicit spelling of `super().__init__(...)`, so the
    /// attribute is judged as on `super()`. `Base` must be written as in the class
    /// statement, and the first argument must be the method's own receiver.
    fn explicit_base_call<'e>(&self, call: &'e ast::ExprCall) -> Option<&'e ast::ExprAttribute> {
        let Expr::Attribute(attr) = &*call.func else {
            return None;
        };
        let base = dotted_expr(&attr.value)?;
        let receiver = self.receiver()?;
        let first_is_receiver = matches!(
            call.args.first(),
            Some(Expr::Name(n)) if norm(n.id.as_str()) == receiver
        );
        (first_is_receiver && self.class_bases().contains(&base)).then_some(attr)
    }

    /// Whether `expr` is the current method's own receiver or `super()` inside a method:
    /// the class it belongs to and which of the two.
    fn owner(&self, expr: &Expr) -> Option<Owner> {
        let receiver = self.receiver()?;
        let class = self.current_class()?;
        let via = match expr {
            Expr::Name(n) if norm(n.id.as_str()) == receiver => Via::Receiver,
            // Only the zero-argument form: `super(T, obj)` can name any object.
            Expr::Call(c)
                if c.args.is_empty()
                    && c.keywords.is_empty()
                    && matches!(&*c.func, Expr::Name(n) if norm(n.id.as_str()) == "super") =>
            {
                Via::Super
            }
            _ => return None,
        };
        Some(Owner { class, via })
    }

    /// Start offset of the identifier that ends at `end` (an attribute name).
    fn ident_start(&self, end: usize) -> usize {
        let text = self.lines.text();
        let end = end.min(text.len());
        let head = text.get(..end).unwrap_or("");
        let len: usize = head
            .chars()
            .rev()
            .take_while(|c| c.is_alphanumeric() || *c == '_' || !c.is_ascii() && !c.is_whitespace())
            .map(char::len_utf8)
            .sum();
        end - len
    }

    // ----- names ------------------------------------------------------------------------

    /// A name that the code binds (assignment target, parameter, alias, def, class, ...).
    fn bind(&mut self, raw: &str, offset: usize, usage: Use) {
        self.bind_as(raw, offset, usage, None);
    }

    /// A name bound by an import to the dotted `path`.
    fn bind_import(&mut self, name: &str, offset: usize, path: String) {
        self.bind_as(name, offset, Use::Other, Some(path));
    }

    fn bind_as(&mut self, raw: &str, offset: usize, usage: Use, import: Option<String>) {
        let name = norm(raw).into_owned();
        if !rules::forbidden_builtin::check(self, &name, offset, true)
            || !rules::dunder_name::check(self, &name, offset, usage)
        {
            return;
        }
        if let Some(receiver) = self.receiver()
            && receiver == name
        {
            rules::private_attribute::rebound_receiver(self, &name, offset);
        }
        *self.binding_counts.entry(name.clone()).or_default() += 1;
        if self.comprehension == 0
            && self.in_class_body()
            && let Some(id) = self.current_class()
            && let Some(class) = self.classes.all.get_mut(id)
        {
            class.body.insert(name.clone());
        }
        match import {
            Some(path) => self
                .import_bound
                .entry(name.clone())
                .or_default()
                .push((path, offset)),
            None => {
                self.other_bound.insert(name.clone());
            }
        }
        self.bound.insert(name);
    }

    /// A name mentioned without binding or reading (`global x`, a keyword argument).
    fn mention(&mut self, raw: &str, offset: usize) {
        let name = norm(raw);
        if rules::forbidden_builtin::check(self, &name, offset, true) {
            rules::dunder_name::check(self, &name, offset, Use::Other);
        }
    }

    fn read(&mut self, raw: &str, offset: usize) {
        let name = norm(raw).into_owned();
        if !rules::forbidden_builtin::check(self, &name, offset, false)
            || !rules::dunder_name::check(self, &name, offset, Use::Read)
        {
            return;
        }
        if self.idx.blocked_names.contains_key(name.as_str()) {
            self.blocked_reads.push((name.clone(), offset));
        }
        self.name_reads.push((name, offset));
    }

    /// An attribute name read or written on a receiver (or a match class keyword).
    /// `load`: the attribute is only read (`type(x).__name__` may be, a string). A private
    /// name on the method's own receiver, `super()` or its explicit base waits for the end
    /// of the file, when the classes are known.
    fn attribute(&mut self, raw: &str, offset: usize, owner: Option<Owner>, load: bool) {
        let name = norm(raw);
        if load && rules::private_attribute::reviewed(self, &name) {
            return;
        }
        if let Some(owner) = owner.clone()
            && rules::private_attribute::is_private_name(&name)
        {
            self.pending_privates.push(PendingPrivate {
                owner,
                name: name.clone().into_owned(),
                offset,
            });
            let _ = rules::blocked_attribute::check(self, &name, offset)
                && rules::dangerous_api::check(self, &name, offset);
            return;
        }
        let owned = owner.is_some();
        let _ = rules::private_attribute::check_access(self, &name, offset, owned, load)
            && rules::blocked_attribute::check(self, &name, offset)
            && rules::dangerous_api::check(self, &name, offset);
    }

    // ----- modules as values, aliases, assignments ------------------------------------

    /// `target = value` where `value` is a chain of names (`m = sns`, `a, b = np, sns`): the
    /// target may be an alias of whatever the chain is, and the chain is no module value.
    fn alias(&mut self, target: &Expr, value: &Expr) {
        match (target, value) {
            (Expr::Name(n), _) => {
                if let Some(chain) = name_chain(value) {
                    self.alias_values.insert(expr_start(value));
                    self.aliases
                        .entry(norm(n.id.as_str()).into_owned())
                        .or_default()
                        .push(chain);
                }
            }
            (Expr::Tuple(t), Expr::Tuple(v)) if t.elts.len() == v.elts.len() => {
                for (t, v) in t.elts.iter().zip(&v.elts) {
                    self.alias(t, v);
                }
            }
            _ => {}
        }
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

    /// `R.name = ...` / `del R.name` (`owner`: `R` is the method's own receiver or super()).
    fn store(&mut self, receiver: &Expr, owner: Option<&Owner>, name: &str, offset: usize) {
        match owner {
            Some(Owner {
                class,
                via: Via::Receiver,
            }) => {
                if let Some(c) = self.classes.all.get_mut(*class) {
                    c.assigned.insert(name.to_owned());
                }
            }
            Some(_) => {}
            None => self.pending_stores.push(PendingStore {
                receiver: name_chain(receiver),
                name: name.to_owned(),
                type_call: rules::class_construction::is_type_call(receiver),
                offset,
            }),
        }
    }

    /// `R.use(x)` with `x` not a string literal: matplotlib.use with a backend name built at
    /// run time, when `R` turns out to be matplotlib.
    fn computed_use(&mut self, c: &ast::ExprCall) {
        let Expr::Attribute(func) = &*c.func else {
            return;
        };
        if norm(func.attr.as_str()) != "use" {
            return;
        }
        let literal = |e: &Expr| {
            matches!(
                e,
                Expr::Constant(ast::ExprConstant {
                    value: ast::Constant::Str(_),
                    ..
                })
            )
        };
        let computed =
            c.args.iter().any(|a| !literal(a)) || c.keywords.iter().any(|k| !literal(&k.value));
        if let Some(receiver) = name_chain(&func.value).filter(|_| computed) {
            let at = self.ident_start(func.range.end().to_usize());
            self.pending_uses.push((receiver, at));
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

    /// `A`, `cls` (a receiver so named) or `type(x)` as written: what may be a class, for
    /// the unbound-method check (`A` is judged at the end, when classes are known).
    fn class_expr(&self, expr: &Expr) -> Option<String> {
        match expr {
            Expr::Name(n) => Some(norm(n.id.as_str()).into_owned()),
            e if rules::class_construction::is_type_call(e) => Some("type(x)".to_owned()),
            _ => None,
        }
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
        let reads: Vec<(String, usize)> = self.name_reads.clone();
        for (name, offset) in reads {
            if self.alias_values.contains(&offset) {
                continue;
            }
            let chain = match self.chain_at(offset) {
                Some(c) => c.to_vec(),
                None => vec![name],
            };
            let paths = self.may_paths(&chain);
            rules::module_value::check(self, &chain, &paths, offset);
        }
        for (receiver, offset) in std::mem::take(&mut self.pending_uses) {
            if self.may_paths(&receiver).iter().any(|p| p == "matplotlib") {
                rules::dangerous_api::computed_backend(self, offset);
            }
        }
    }

    // ----- statements -------------------------------------------------------------------

    fn stmts(&mut self, body: &[Stmt]) {
        for stmt in body {
            self.stmt(stmt);
        }
    }

    fn enter(&mut self, offset: usize) -> bool {
        self.depth += 1;
        let mut reported = self.too_deep;
        let ok = rules::nesting_too_deep::check_depth(self, self.depth, offset, &mut reported);
        self.too_deep = reported;
        if !ok {
            self.depth -= 1;
        }
        ok
    }

    fn stmt(&mut self, stmt: &Stmt) {
        let offset = stmt_start(stmt);
        if !self.enter(offset) {
            return;
        }
        match stmt {
            Stmt::FunctionDef(f) => self.function(
                &f.name,
                &f.args,
                &f.body,
                &f.decorator_list,
                f.returns.as_deref(),
                &f.type_params,
                offset,
            ),
            Stmt::AsyncFunctionDef(f) => self.function(
                &f.name,
                &f.args,
                &f.body,
                &f.decorator_list,
                f.returns.as_deref(),
                &f.type_params,
                offset,
            ),
            Stmt::ClassDef(c) => {
                self.exprs(&c.decorator_list);
                self.type_params(&c.type_params);
                self.exprs(&c.bases);
                self.keywords(&c.keywords);
                rules::class_construction::check_class_keywords(self, &c.keywords);
                let usage = if self.in_class_body() {
                    Use::ClassMember
                } else {
                    Use::Other
                };
                self.bind(&c.name, offset, usage);
                let bases: Vec<String> = c
                    .bases
                    .iter()
                    .map(|b| dotted_expr(b).unwrap_or_else(|| classes::UNKNOWN_BASE.to_owned()))
                    .collect();
                let id = self.classes.add(&norm(&c.name), bases.clone());
                self.frames.push(Frame::Class { bases, id });
                self.stmts(&c.body);
                self.frames.pop();
            }
            Stmt::Return(r) => self.opt_expr(r.value.as_deref()),
            Stmt::Delete(d) => self.exprs(&d.targets),
            Stmt::Assign(a) => {
                for target in &a.targets {
                    self.alias(target, &a.value);
                }
                self.expr(&a.value);
                self.exprs(&a.targets);
            }
            Stmt::TypeAlias(t) => {
                self.type_params(&t.type_params);
                self.expr(&t.name);
                self.expr(&t.value);
            }
            Stmt::AugAssign(a) => {
                self.expr(&a.value);
                self.expr(&a.target);
            }
            Stmt::AnnAssign(a) => {
                if let Some(value) = &a.value {
                    self.alias(&a.target, value);
                }
                self.expr(&a.annotation);
                self.opt_expr(a.value.as_deref());
                self.expr(&a.target);
            }
            Stmt::For(f) => {
                self.expr(&f.iter);
                self.expr(&f.target);
                self.stmts(&f.body);
                self.stmts(&f.orelse);
            }
            Stmt::AsyncFor(f) => {
                self.expr(&f.iter);
                self.expr(&f.target);
                self.stmts(&f.body);
                self.stmts(&f.orelse);
            }
            Stmt::While(w) => {
                self.expr(&w.test);
                self.stmts(&w.body);
                self.stmts(&w.orelse);
            }
            Stmt::If(i) => {
                self.expr(&i.test);
                self.stmts(&i.body);
                self.stmts(&i.orelse);
            }
            Stmt::With(w) => {
                self.with_items(&w.items);
                self.stmts(&w.body);
            }
            Stmt::AsyncWith(w) => {
                self.with_items(&w.items);
                self.stmts(&w.body);
            }
            Stmt::Match(m) => {
                self.expr(&m.subject);
                for case in &m.cases {
                    self.pattern(&case.pattern);
                    self.opt_expr(case.guard.as_deref());
                    self.stmts(&case.body);
                }
            }
            Stmt::Raise(r) => {
                self.opt_expr(r.exc.as_deref());
                self.opt_expr(r.cause.as_deref());
            }
            Stmt::Try(t) => {
                self.stmts(&t.body);
                self.handlers(&t.handlers);
                self.stmts(&t.orelse);
                self.stmts(&t.finalbody);
            }
            Stmt::TryStar(t) => {
                self.stmts(&t.body);
                self.handlers(&t.handlers);
                self.stmts(&t.orelse);
                self.stmts(&t.finalbody);
            }
            Stmt::Assert(a) => {
                self.expr(&a.test);
                self.opt_expr(a.msg.as_deref());
            }
            Stmt::Import(i) => self.import(i),
            Stmt::ImportFrom(i) => self.import_from(i, offset),
            Stmt::Global(g) => {
                for name in &g.names {
                    let at = self.name_in(offset, name);
                    self.mention(name, at);
                }
            }
            Stmt::Nonlocal(g) => {
                for name in &g.names {
                    let at = self.name_in(offset, name);
                    self.mention(name, at);
                }
            }
            Stmt::Expr(e) => self.expr(&e.value),
            Stmt::Pass(_) | Stmt::Break(_) | Stmt::Continue(_) => {}
        }
        self.depth -= 1;
    }

    /// Offset of `name` within the statement starting at `offset` (for `global` names).
    fn name_in(&self, offset: usize, name: &str) -> usize {
        let text = self.lines.text();
        text.get(offset..)
            .and_then(|rest| {
                let line_end = rest.find('\n').unwrap_or(rest.len());
                rest[..line_end].find(name)
            })
            .map_or(offset, |at| offset + at)
    }

    #[allow(clippy::too_many_arguments)]
    fn function(
        &mut self,
        name: &str,
        args: &ast::Arguments,
        body: &[Stmt],
        decorators: &[Expr],
        returns: Option<&Expr>,
        type_params: &[ast::TypeParam],
        offset: usize,
    ) {
        self.exprs(decorators);
        self.type_params(type_params);
        self.defaults_and_annotations(args);
        self.opt_expr(returns);
        let usage = if self.in_class_body() {
            Use::ClassMember
        } else {
            Use::Other
        };
        let def_at = self.name_in(offset, name);
        self.bind(name, def_at, usage);
        let frame = self.function_frame(args, Some(decorators));
        let instance_method = matches!(
            &frame,
            Frame::Function {
                receiver: Some(_),
                ..
            }
        ) && !decorators
            .iter()
            .any(|d| decorator_name(d) == Some("classmethod"));
        if instance_method
            && self.in_class_body()
            && let Some(class) = self
                .current_class()
                .and_then(|id| self.classes.all.get_mut(id))
        {
            class.methods.insert(norm(name).into_owned());
        }
        self.frames.push(frame);
        self.params(args);
        self.stmts(body);
        self.frames.pop();
    }

    /// The receiver a new function scope sees: a method's first parameter when it is
    /// `self`/`cls`; in a nested function or lambda, the enclosing one unless shadowed.
    /// A method with a decorator that may call it with any first argument
    /// (`@staticmethod`, `@(lambda f: f(obj))`), or a lambda in a class body, has none:
    /// only `classmethod`, `property` and a property's `setter`/`getter`/`deleter` bind
    /// the receiver to the instance or class.
    fn receiver_for(&self, args: &ast::Arguments, decorators: Option<&[Expr]>) -> Option<String> {
        let params: Vec<String> = all_params(args)
            .map(|a| norm(a.arg.as_str()).into_owned())
            .collect();
        if self.in_class_body() {
            let binding = decorators?.iter().all(|d| {
                matches!(
                    decorator_name(d),
                    Some("classmethod" | "property" | "cached_property")
                ) || matches!(d, Expr::Attribute(a)
                    if matches!(a.attr.as_str(), "setter" | "getter" | "deleter")
                        && matches!(&*a.value, Expr::Name(_)))
            });
            if !binding {
                return None;
            }
            let first = args.posonlyargs.first().or(args.args.first())?;
            let first = norm(first.def.arg.as_str());
            return matches!(&*first, "self" | "cls").then(|| first.into_owned());
        }
        let inherited = self.receiver()?;
        (!params.iter().any(|p| p == inherited)).then(|| inherited.to_owned())
    }

    fn defaults_and_annotations(&mut self, args: &ast::Arguments) {
        for a in args
            .posonlyargs
            .iter()
            .chain(&args.args)
            .chain(&args.kwonlyargs)
        {
            self.opt_expr(a.default.as_deref());
            self.opt_expr(a.def.annotation.as_deref());
        }
        for a in args.vararg.iter().chain(args.kwarg.iter()) {
            self.opt_expr(a.annotation.as_deref());
        }
    }

    fn params(&mut self, args: &ast::Arguments) {
        for a in all_params(args) {
            let name = norm(a.arg.as_str()).into_owned();
            let offset = a.range.start().to_usize();
            if rules::forbidden_builtin::check(self, &name, offset, true) {
                rules::dunder_name::check(self, &name, offset, Use::Other);
            }
            *self.binding_counts.entry(name.clone()).or_default() += 1;
            self.other_bound.insert(name.clone());
            self.bound.insert(name);
        }
    }

    fn type_params(&mut self, params: &[ast::TypeParam]) {
        for p in params {
            match p {
                ast::TypeParam::TypeVar(t) => {
                    self.bind(&t.name, t.range.start().to_usize(), Use::Other);
                    self.opt_expr(t.bound.as_deref());
                }
                ast::TypeParam::ParamSpec(t) => {
                    self.bind(&t.name, t.range.start().to_usize(), Use::Other)
                }
                ast::TypeParam::TypeVarTuple(t) => {
                    self.bind(&t.name, t.range.start().to_usize(), Use::Other)
                }
            }
        }
    }

    fn with_items(&mut self, items: &[ast::WithItem]) {
        for item in items {
            self.expr(&item.context_expr);
            self.opt_expr(item.optional_vars.as_deref());
        }
    }

    fn handlers(&mut self, handlers: &[ast::ExceptHandler]) {
        for h in handlers {
            let ast::ExceptHandler::ExceptHandler(h) = h;
            self.opt_expr(h.type_.as_deref());
            if let Some(name) = &h.name {
                let offset = h.range.start().to_usize();
                let at = self.name_in(offset, name);
                self.bind(name, at, Use::Other);
            }
            self.stmts(&h.body);
        }
    }

    fn import(&mut self, i: &ast::StmtImport) {
        for alias in &i.names {
            let offset = alias.range.start().to_usize();
            let path = dotted(&alias.name);
            let restricted = self.idx.restricted_under(&path).is_some();
            let ok = if restricted {
                rules::import_not_allowed::check_restricted(self, &path, offset)
            } else {
                rules::import_not_allowed::check(self, &path, offset)
                    && rules::blocked_submodule::check(self, &path, offset)
            };
            if ok {
                let top = path.split('.').next().unwrap_or(&path).to_owned();
                let (bound, to) = match &alias.asname {
                    Some(asname) => (norm(asname).into_owned(), path),
                    None => (top.clone(), top),
                };
                self.bind_import(&bound, offset, to);
            }
        }
    }

    fn import_from(&mut self, i: &ast::StmtImportFrom, offset: usize) {
        let level = i.level.map_or(0, |l| l.to_u32());
        if !rules::relative_import::check(self, level, offset) {
            return;
        }
        let module = i.module.as_ref().map(|m| dotted(m)).unwrap_or_default();
        if module == "__future__" {
            for alias in &i.names {
                let at = alias.range.start().to_usize();
                rules::import_not_allowed::check_future(self, &norm(&alias.name), at);
            }
            return;
        }
        // `from os import *` is refused as the whole module (below).
        let star = i.names.iter().any(|a| a.name.as_str() == "*");
        if !star && self.idx.restricted_under(&module).is_some() {
            for alias in &i.names {
                let at = alias.range.start().to_usize();
                let name = norm(&alias.name).into_owned();
                let path = format!("{module}.{name}");
                if rules::import_not_allowed::check_restricted(self, &path, at) {
                    let bound = alias.asname.as_ref().map_or(name, |a| norm(a).into_owned());
                    self.bind_import(&bound, at, path);
                }
            }
            return;
        }
        if !rules::import_not_allowed::check(self, &module, offset)
            || !rules::blocked_submodule::check(self, &module, offset)
        {
            return;
        }
        for alias in &i.names {
            let at = alias.range.start().to_usize();
            let name = norm(&alias.name).into_owned();
            if name == "*" && self.star_import(&module, at) {
                continue;
            }
            if !rules::star_import::check(self, &module, &name, at) {
                continue;
            }
            let path = format!("{module}.{name}");
            let ok = rules::blocked_submodule::check(self, &path, at)
                && rules::dangerous_api::check(self, &name, at);
            if ok {
                let bound = alias.asname.as_ref().map_or(name, |a| norm(a).into_owned());
                self.bind_import(&bound, at, path);
            }
        }
    }

    // ----- expressions ------------------------------------------------------------------

    fn exprs(&mut self, exprs: &[Expr]) {
        for e in exprs {
            self.expr(e);
        }
    }

    fn opt_expr(&mut self, e: Option<&Expr>) {
        if let Some(e) = e {
            self.expr(e);
        }
    }

    fn keywords(&mut self, keywords: &[ast::Keyword]) {
        for kw in keywords {
            if let Some(arg) = &kw.arg {
                let name = norm(arg);
                let offset = kw.range.start().to_usize();
                if rules::dunder_name::is_dunder(&name) {
                    rules::dunder_name::check(self, &name, offset, Use::Other);
                }
                rules::dangerous_keyword::check(self, &name, &kw.value, offset);
            }
            self.expr(&kw.value);
        }
    }

    fn comprehensions(&mut self, generators: &[ast::Comprehension]) {
        for g in generators {
            self.expr(&g.iter);
            self.comprehension += 1;
            self.expr(&g.target);
            self.comprehension -= 1;
            self.exprs(&g.ifs);
        }
    }

    fn expr(&mut self, expr: &Expr) {
        let offset = expr_start(expr);
        if !self.enter(offset) {
            return;
        }
        match expr {
            Expr::BoolOp(b) => self.exprs(&b.values),
            Expr::NamedExpr(n) => {
                self.alias(&n.target, &n.value);
                self.expr(&n.value);
                self.expr(&n.target);
            }
            Expr::BinOp(b) => {
                self.expr(&b.left);
                self.expr(&b.right);
            }
            Expr::UnaryOp(u) => self.expr(&u.operand),
            Expr::Lambda(l) => {
                self.defaults_and_annotations(&l.args);
                let frame = self.function_frame(&l.args, None);
                self.frames.push(frame);
                self.params(&l.args);
                self.expr(&l.body);
                self.frames.pop();
            }
            Expr::IfExp(i) => {
                self.expr(&i.test);
                self.expr(&i.body);
                self.expr(&i.orelse);
            }
            Expr::Dict(d) => {
                for k in d.keys.iter().flatten() {
                    if let Expr::Constant(ast::ExprConstant {
                        value: ast::Constant::Str(s),
                        range,
                        ..
                    }) = k
                    {
                        rules::dangerous_keyword::check_literal(self, s, range.start().to_usize());
                    }
                    self.expr(k);
                }
                self.exprs(&d.values);
            }
            Expr::Set(s) => self.exprs(&s.elts),
            Expr::ListComp(ast::ExprListComp {
                elt, generators, ..
            })
            | Expr::SetComp(ast::ExprSetComp {
                elt, generators, ..
            })
            | Expr::GeneratorExp(ast::ExprGeneratorExp {
                elt, generators, ..
            }) => {
                self.comprehensions(generators);
                self.expr(elt);
            }
            Expr::DictComp(c) => {
                self.comprehensions(&c.generators);
                self.expr(&c.key);
                self.expr(&c.value);
            }
            Expr::Await(a) => self.expr(&a.value),
            Expr::Yield(y) => self.opt_expr(y.value.as_deref()),
            Expr::YieldFrom(y) => self.expr(&y.value),
            Expr::Compare(c) => {
                self.expr(&c.left);
                self.exprs(&c.comparators);
            }
            Expr::Call(c) => {
                match self.explicit_base_call(c) {
                    Some(attr) => {
                        self.expr(&attr.value);
                        let at = self.ident_start(attr.range.end().to_usize());
                        let owner = self.current_class().zip(dotted_expr(&attr.value));
                        let owner = owner.map(|(class, base)| Owner {
                            class,
                            via: Via::Base(base),
                        });
                        self.attribute(&attr.attr, at, owner, true);
                    }
                    None => self.expr(&c.func),
                }
                rules::class_construction::check_type_call(self, c, offset);
                self.computed_use(c);
                self.exprs(&c.args);
                self.keywords(&c.keywords);
                if let Some(name) = call_name(&c.func) {
                    let name = norm(name);
                    rules::url_reader::check_call(self, c, &name);
                    rules::dataset_name::check_call(self, c, &name);
                    rules::dangerous_rcparam::check_rc_call(self, c, &name);
                    rules::dangerous_rcparam::check_style_call(self, c);
                }
            }
            Expr::FormattedValue(f) => {
                self.expr(&f.value);
                self.opt_expr(f.format_spec.as_deref());
            }
            Expr::JoinedStr(j) => self.exprs(&j.values),
            Expr::Constant(c) => self.constant(&c.value, offset),
            Expr::Attribute(a) => {
                if let Some(chain) = name_chain(expr) {
                    self.chains.entry(offset).or_insert(chain);
                }
                self.expr(&a.value);
                let owner = self.owner(&a.value);
                let at = self.ident_start(a.range.end().to_usize());
                let load = matches!(a.ctx, ExprContext::Load);
                let name = norm(a.attr.as_str());
                if !load {
                    self.store(&a.value, owner.as_ref(), &name, at);
                } else if let Some(class) = self.class_expr(&a.value) {
                    self.pending_unbound
                        .push((class, name.clone().into_owned(), at));
                }
                let receiver = name_chain(&a.value)
                    .filter(|_| load && self.idx.module_attribute_names.contains(&*name));
                match receiver {
                    Some(receiver) => self.pending_attributes.push(PendingAttribute {
                        receiver,
                        name: name.into_owned(),
                        offset: at,
                        owner,
                    }),
                    None => self.attribute(&a.attr, at, owner, load),
                }
            }
            Expr::Subscript(s) => {
                self.expr(&s.value);
                match self.rc_read(s) {
                    Some((receiver, key, at)) => self.pending_rc_reads.push(PendingRcRead {
                        receiver,
                        key,
                        offset: at,
                    }),
                    None => self.expr(&s.slice),
                }
            }
            Expr::Starred(s) => self.expr(&s.value),
            Expr::Name(n) => match n.ctx {
                ExprContext::Load => self.read(&n.id, offset),
                ExprContext::Store | ExprContext::Del => {
                    let usage = if self.in_class_body() {
                        Use::ClassMember
                    } else {
                        Use::Other
                    };
                    self.bind(&n.id, offset, usage);
                }
            },
            Expr::List(l) => self.exprs(&l.elts),
            Expr::Tuple(t) => self.exprs(&t.elts),
            Expr::Slice(s) => {
                self.opt_expr(s.lower.as_deref());
                self.opt_expr(s.upper.as_deref());
                self.opt_expr(s.step.as_deref());
            }
        }
        self.depth -= 1;
    }

    /// `X['text.usetex']` as a read, `X` a chain of names: left for [`Checker::run`] to judge
    /// once it knows what `X` is bound to.
    fn rc_read(&self, s: &ast::ExprSubscript) -> Option<(Vec<String>, String, usize)> {
        if !matches!(s.ctx, ExprContext::Load) {
            return None;
        }
        let Expr::Constant(ast::ExprConstant {
            value: ast::Constant::Str(key),
            range,
            ..
        }) = &*s.slice
        else {
            return None;
        };
        let key = key.trim();
        if !self.idx.rcparams.contains_key(key) {
            return None;
        }
        Some((
            name_chain(&s.value)?,
            key.to_owned(),
            range.start().to_usize(),
        ))
    }

    fn constant(&mut self, value: &ast::Constant, offset: usize) {
        match value {
            ast::Constant::Str(s) => {
                rules::format_string::check(self, s, offset);
                rules::dangerous_rcparam::check_literal(self, s, offset);
                rules::private_attribute::check_literal(self, s, offset);
            }
            ast::Constant::Tuple(items) => {
                for item in items {
                    self.constant(item, offset);
                }
            }
            _ => {}
        }
    }

    fn pattern(&mut self, pattern: &Pattern) {
        let offset = pattern_start(pattern);
        if !self.enter(offset) {
            return;
        }
        match pattern {
            Pattern::MatchValue(v) => self.expr(&v.value),
            Pattern::MatchSingleton(_) => {}
            Pattern::MatchSequence(s) => self.patterns(&s.patterns),
            Pattern::MatchMapping(m) => {
                self.exprs(&m.keys);
                self.patterns(&m.patterns);
                if let Some(rest) = &m.rest {
                    self.bind(rest, offset, Use::Other);
                }
            }
            Pattern::MatchClass(c) => {
                self.expr(&c.cls);
                self.patterns(&c.patterns);
                for attr in &c.kwd_attrs {
                    let at = self.name_in(offset, attr);
                    self.attribute(attr, at, None, false);
                }
                self.patterns(&c.kwd_patterns);
            }
            Pattern::MatchStar(s) => {
                if let Some(name) = &s.name {
                    self.bind(name, offset, Use::Other);
                }
            }
            Pattern::MatchAs(a) => {
                if let Some(p) = &a.pattern {
                    self.pattern(p);
                }
                if let Some(name) = &a.name {
                    self.bind(name, offset, Use::Other);
                }
            }
            Pattern::MatchOr(o) => self.patterns(&o.patterns),
        }
        self.depth -= 1;
    }

    fn patterns(&mut self, patterns: &[Pattern]) {
        for p in patterns {
            self.pattern(p);
        }
    }
}

fn all_params(args: &ast::Arguments) -> impl Iterator<Item = &ast::Arg> {
    args.posonlyargs
        .iter()
        .chain(&args.args)
        .map(|a| &a.def)
        .chain(args.vararg.as_deref())
        .chain(args.kwonlyargs.iter().map(|a| &a.def))
        .chain(args.kwarg.as_deref())
}

/// A dotted module path with each component normalised.
fn dotted(path: &str) -> String {
    path.split('.')
        .map(|c| norm(c.trim()).into_owned())
        .collect::<Vec<_>>()
        .join(".")
}

/// `a.b.c` for a name or a chain of attributes on a name (normalised), else `None`.
fn dotted_expr(expr: &Expr) -> Option<String> {
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
fn name_chain(expr: &Expr) -> Option<Vec<String>> {
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

/// `classmethod` for `@classmethod`, `cached_property` for `@functools.cached_property`.
fn decorator_name(d: &Expr) -> Option<&str> {
    match d {
        Expr::Name(n) => Some(n.id.as_str()),
        Expr::Attribute(a) if matches!(&*a.value, Expr::Name(n) if n.id.as_str() == "functools") => {
            Some(a.attr.as_str())
        }
        _ => None,
    }
}

/// The called name: `f` for `f(...)`, `read_csv` for `pd.read_csv(...)`.
fn call_name(func: &Expr) -> Option<&str> {
    match func {
        Expr::Name(n) => Some(n.id.as_str()),
        Expr::Attribute(a) => Some(a.attr.as_str()),
        _ => None,
    }
}

fn stmt_start(stmt: &Stmt) -> usize {
    use rustpython_parser::ast::Ranged;
    stmt.start().to_usize()
}

fn expr_start(expr: &Expr) -> usize {
    use rustpython_parser::ast::Ranged;
    expr.start().to_usize()
}

fn pattern_start(pattern: &Pattern) -> usize {
    use rustpython_parser::ast::Ranged;
    pattern.start().to_usize()
}
