//! Statements: the walk over each statement, function and class definitions, imports
//! (where the import rules run) and the parts of statements that bind names.

use super::scopes::{Frame, decorator_name};
use super::{Checker, dotted_expr, norm};
use crate::check::classes;
use crate::check::rules::{self, dunder_name::Use};
use rustpython_parser::ast::{self, Expr, Stmt};

impl Checker<'_> {
    /// `from module import *` at `offset` (the `*`): bind what the star import may bind and
    /// run it as that explicit list. Returns false when it is refused instead.
    fn star_import(&mut self, module: &str, offset: usize) -> bool {
        let at_module_level = matches!(self.frames.last(), Some(Frame::Module));
        let star_here = self.lines.text().get(offset..offset + 1) == Some("*");
        let names = match crate::check::star::bindable(module) {
            Some(names) if at_module_level && star_here && !names.is_empty() => names,
            _ => return false,
        };
        for name in &names {
            self.bind_import(name, offset, format!("{module}.{name}"));
        }
        if let Some(note) = crate::check::star::shadow_note(module, &names) {
            self.note(note);
        }
        self.star_rewrites.push((offset, names.join(", ")));
        true
    }

    pub(super) fn stmts(&mut self, body: &[Stmt]) {
        for stmt in body {
            self.stmt(stmt);
        }
    }

    fn stmt(&mut self, stmt: &Stmt) {
        let offset = stmt_start(stmt);
        if self.enter(offset).reported() {
            return;
        }
        match stmt {
            Stmt::FunctionDef(f) => self.function(Function::from(f), offset),
            Stmt::AsyncFunctionDef(f) => self.function(Function::from(f), offset),
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
    pub(super) fn name_in(&self, offset: usize, name: &str) -> usize {
        let text = self.lines.text();
        text.get(offset..)
            .and_then(|rest| {
                let line_end = rest.find('\n').unwrap_or(rest.len());
                rest[..line_end].find(name)
            })
            .map_or(offset, |at| offset + at)
    }

    fn function(&mut self, f: Function, offset: usize) {
        let Function {
            name,
            args,
            body,
            decorators,
            returns,
            type_params,
        } = f;
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

    pub(super) fn defaults_and_annotations(&mut self, args: &ast::Arguments) {
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
            let flow = if restricted {
                rules::import_not_allowed::check_restricted(self, &path, offset)
            } else {
                rules::import_not_allowed::check(self, &path, offset)
                    .then(|| rules::blocked_submodule::check(self, &path, offset))
                    .then(|| rules::foreign_module::check_module(self, &path, offset))
            };
            if flow.passed() {
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
        if rules::relative_import::check(self, level, offset).reported() {
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
                if rules::import_not_allowed::check_restricted(self, &path, at).passed() {
                    let bound = alias.asname.as_ref().map_or(name, |a| norm(a).into_owned());
                    self.bind_import(&bound, at, path);
                }
            }
            return;
        }
        if rules::import_not_allowed::check(self, &module, offset)
            .then(|| rules::blocked_submodule::check(self, &module, offset))
            .then(|| rules::foreign_module::check_module(self, &module, offset))
            .reported()
        {
            return;
        }
        for alias in &i.names {
            let at = alias.range.start().to_usize();
            let name = norm(&alias.name).into_owned();
            if name == "*" && self.star_import(&module, at) {
                continue;
            }
            if rules::star_import::check(self, &module, &name, at).reported() {
                continue;
            }
            let path = format!("{module}.{name}");
            let flow = rules::blocked_submodule::check(self, &path, at)
                .then(|| rules::dangerous_api::check(self, &name, at))
                .then(|| rules::foreign_module::check(self, &path, &path, at));
            if flow.passed() {
                let bound = alias.asname.as_ref().map_or(name, |a| norm(a).into_owned());
                self.bind_import(&bound, at, path);
            }
        }
    }
}

/// A dotted module path with each component normalised.
fn dotted(path: &str) -> String {
    path.split('.')
        .map(|c| norm(c.trim()).into_owned())
        .collect::<Vec<_>>()
        .join(".")
}

fn stmt_start(stmt: &Stmt) -> usize {
    use rustpython_parser::ast::Ranged;
    stmt.start().to_usize()
}

/// A `def` or `async def`: the parts the walk reads, the same for both.
#[derive(Clone, Copy)]
struct Function<'s> {
    name: &'s str,
    args: &'s ast::Arguments,
    body: &'s [Stmt],
    decorators: &'s [Expr],
    returns: Option<&'s Expr>,
    type_params: &'s [ast::TypeParam],
}

/// The two definitions carry the same fields under two types.
macro_rules! function_from {
    ($def:ty) => {
        impl<'s> From<&'s $def> for Function<'s> {
            fn from(f: &'s $def) -> Self {
                Function {
                    name: &f.name,
                    args: &f.args,
                    body: &f.body,
                    decorators: &f.decorator_list,
                    returns: f.returns.as_deref(),
                    type_params: &f.type_params,
                }
            }
        }
    };
}

function_from!(ast::StmtFunctionDef);
function_from!(ast::StmtAsyncFunctionDef);
