//! Scopes and bindings: the frame the walk is in (module, class body, function with its
//! receiver), what binds a name (assignment, parameter, import, alias) and what reads one;
//! the name rules run as each name is bound or read.

use super::{Checker, PendingStore, dotted_expr, expr_start, name_chain, norm};
use crate::check::classes::{Owner, Via};
use crate::check::rules::{self, Flow, dunder_name::Use};
use rustpython_parser::ast::{self, Expr};

#[derive(Debug, Clone)]
pub(super) enum Frame {
    Module,
    /// A class body; `bases` are its base classes as written (`Axes`, `maxes.Axes`), `id`
    /// the class in [`Classes`](crate::check::classes::Classes).
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

impl Checker<'_> {
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
    pub(super) fn current_class(&self) -> Option<usize> {
        match self.frames.last() {
            Some(Frame::Class { id, .. }) => Some(*id),
            Some(Frame::Function { class, .. }) => *class,
            _ => None,
        }
    }

    /// A function scope about to start: its receiver and the bases that go with it.
    pub(super) fn function_frame(
        &self,
        args: &ast::Arguments,
        decorators: Option<&[Expr]>,
    ) -> Frame {
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
    pub(super) fn explicit_base_call<'e>(
        &self,
        call: &'e ast::ExprCall,
    ) -> Option<&'e ast::ExprAttribute> {
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
    pub(super) fn owner(&self, expr: &Expr) -> Option<Owner> {
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

    /// A name that the code binds (assignment target, parameter, alias, def, class, ...).
    pub(super) fn bind(&mut self, raw: &str, offset: usize, usage: Use) {
        self.bind_as(raw, offset, usage, None);
    }

    /// A name bound by an import to the dotted `path`.
    pub(super) fn bind_import(&mut self, name: &str, offset: usize, path: String) {
        self.bind_as(name, offset, Use::Other, Some(path));
    }

    fn bind_as(&mut self, raw: &str, offset: usize, usage: Use, import: Option<String>) {
        let name = norm(raw).into_owned();
        if self.name_rules(&name, offset, true, usage).reported() {
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

    /// The rules every name meets, bound (`binding`) or read: a forbidden builtin, then a
    /// dunder name.
    fn name_rules(&mut self, name: &str, offset: usize, binding: bool, usage: Use) -> Flow {
        rules::forbidden_builtin::check(self, name, offset, binding)
            .then(|| rules::dunder_name::check(self, name, offset, usage))
    }

    /// A name mentioned without binding or reading (`global x`, a keyword argument).
    pub(super) fn mention(&mut self, raw: &str, offset: usize) {
        let name = norm(raw);
        self.name_rules(&name, offset, true, Use::Other);
    }

    pub(super) fn read(&mut self, raw: &str, offset: usize) {
        let name = norm(raw).into_owned();
        if self.name_rules(&name, offset, false, Use::Read).reported() {
            return;
        }
        if self.idx.blocked_names.contains_key(name.as_str()) {
            self.blocked_reads.push((name.clone(), offset));
        }
        self.name_reads.push((name, offset));
    }

    /// `target = value` where `value` is a chain of names (`m = sns`, `a, b = np, sns`): the
    /// target may be an alias of whatever the chain is, and the chain is no module value.
    pub(super) fn alias(&mut self, target: &Expr, value: &Expr) {
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

    /// `R.name = ...` / `del R.name` (`owner`: `R` is the method's own receiver or super()).
    pub(super) fn store(
        &mut self,
        receiver: &Expr,
        owner: Option<&Owner>,
        name: &str,
        offset: usize,
    ) {
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

    /// `A`, `cls` (a receiver so named) or `type(x)` as written: what may be a class, for
    /// the unbound-method check (`A` is judged at the end, when classes are known).
    pub(super) fn class_expr(&self, expr: &Expr) -> Option<String> {
        match expr {
            Expr::Name(n) => Some(norm(n.id.as_str()).into_owned()),
            e if rules::class_construction::is_type_call(e) => Some("type(x)".to_owned()),
            _ => None,
        }
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

    pub(super) fn params(&mut self, args: &ast::Arguments) {
        for a in all_params(args) {
            let name = norm(a.arg.as_str()).into_owned();
            let offset = a.range.start().to_usize();
            self.name_rules(&name, offset, true, Use::Other);
            *self.binding_counts.entry(name.clone()).or_default() += 1;
            self.other_bound.insert(name.clone());
            self.bound.insert(name);
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

/// `classmethod` for `@classmethod`, `cached_property` for `@functools.cached_property`.
pub(super) fn decorator_name(d: &Expr) -> Option<&str> {
    match d {
        Expr::Name(n) => Some(n.id.as_str()),
        Expr::Attribute(a) if matches!(&*a.value, Expr::Name(n) if n.id.as_str() == "functools") => {
            Some(a.attr.as_str())
        }
        _ => None,
    }
}
