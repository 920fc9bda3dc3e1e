//! Expressions and match patterns: the walk over each expression, attribute names (judged
//! at once or left for the end of the file), calls (where the call rules run) and literals.

use super::{
    Checker, PendingAttribute, PendingPrivate, PendingRcRead, dotted_expr, expr_start, name_chain,
    norm,
};
use crate::check::classes::{Owner, Via};
use crate::check::rules::{self, Flow, dunder_name::Use};
use rustpython_parser::ast::{self, Expr, ExprContext, Pattern};

impl Checker<'_> {
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

    /// An attribute name read or written on a receiver (or a match class keyword).
    /// `load`: the attribute is only read (`type(x).__name__` may be, a string). A private
    /// name on the method's own receiver, `super()` or its explicit base waits for the end
    /// of the file, when the classes are known.
    pub(super) fn attribute(&mut self, raw: &str, offset: usize, owner: Option<Owner>, load: bool) {
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
            self.attribute_rules(&name, offset);
            return;
        }
        let owned = owner.is_some();
        rules::private_attribute::check_access(self, &name, offset, owned, load)
            .then(|| self.attribute_rules(&name, offset));
    }

    /// The rules every attribute name meets, whatever it is read on: a blocked attribute,
    /// then a dangerous API.
    fn attribute_rules(&mut self, name: &str, offset: usize) -> Flow {
        rules::blocked_attribute::check(self, name, offset)
            .then(|| rules::dangerous_api::check(self, name, offset))
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

    pub(super) fn exprs(&mut self, exprs: &[Expr]) {
        for e in exprs {
            self.expr(e);
        }
    }

    pub(super) fn opt_expr(&mut self, e: Option<&Expr>) {
        if let Some(e) = e {
            self.expr(e);
        }
    }

    pub(super) fn keywords(&mut self, keywords: &[ast::Keyword]) {
        for kw in keywords {
            if let Some(arg) = &kw.arg {
                let name = norm(arg);
                let offset = kw.range.start().to_usize();
                if rules::dunder_name::is_dunder(&name) {
                    rules::dunder_name::check(self, &name, offset, Use::Other);
                }
                rules::dangerous_keyword::check(self, &name, &kw.value, offset);
                rules::blocked_attribute::check_keyword(self, &name, offset);
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

    pub(super) fn expr(&mut self, expr: &Expr) {
        let offset = expr_start(expr);
        if self.enter(offset).reported() {
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
                if let Some(func) = name_chain(&c.func) {
                    for kw in &c.keywords {
                        let name = kw.arg.as_deref().map(norm);
                        let slot = name.filter(|n| {
                            self.idx
                                .policy
                                .module_slots
                                .iter()
                                .any(|s| s.keyword == **n)
                        });
                        if let Some((name, value)) = slot.zip(name_chain(&kw.value)) {
                            let at = expr_start(&kw.value);
                            self.pending_slots
                                .push((func.clone(), name.into_owned(), value, at));
                        }
                    }
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
                let at = self.ident_start(a.range.end().to_usize());
                if let Some(chain) = name_chain(expr) {
                    self.chains.entry(offset).or_insert(chain.clone());
                    self.pending_paths.push((chain, at));
                }
                self.expr(&a.value);
                let owner = self.owner(&a.value);
                let load = matches!(a.ctx, ExprContext::Load);
                let name = norm(a.attr.as_str());
                if !load {
                    self.store(&a.value, owner.as_ref(), &name, at);
                } else if let Some(class) = self.class_expr(&a.value) {
                    self.pending_unbound
                        .push((class, name.clone().into_owned(), at));
                }
                if let Expr::Name(n) = &*a.value
                    && norm(n.id.as_str()) == "dict"
                    && rules::dangerous_api::check_dict_write(self, &name, at).reported()
                {
                    self.depth -= 1;
                    return;
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

    pub(super) fn pattern(&mut self, pattern: &Pattern) {
        let offset = pattern_start(pattern);
        if self.enter(offset).reported() {
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

/// The called name: `f` for `f(...)`, `read_csv` for `pd.read_csv(...)`.
fn call_name(func: &Expr) -> Option<&str> {
    match func {
        Expr::Name(n) => Some(n.id.as_str()),
        Expr::Attribute(a) => Some(a.attr.as_str()),
        _ => None,
    }
}

fn pattern_start(pattern: &Pattern) -> usize {
    use rustpython_parser::ast::Ranged;
    pattern.start().to_usize()
}
