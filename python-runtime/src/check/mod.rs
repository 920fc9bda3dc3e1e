//! Layer 1: the static allowlist check.
//!
//! `check` decodes the bytes exactly as the interpreter will ([`source`]), refuses input
//! that is too large or too deeply nested before parsing, parses with `rustpython-parser`,
//! walks every node ([`walker`]) and lets the rules in [`rules`] report **all** violations,
//! sorted by position. A rejection is instructional ([`hint`]): it is written for a
//! language model to fix its code on the first retry.

pub mod classes;
pub mod hint;
pub mod library;
pub mod rules;
pub mod source;
pub mod star;
pub mod values;
pub mod walker;

use crate::contract::{Violation, ViolationRule};
use crate::policy::Policy;
pub use rules::RuleId;
use serde::Serialize;

/// What to write instead, said after what is wrong.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Advice {
    /// The rule's own `instead`, said once per rule in the hint.
    Rule,
    /// A policy entry's own replacement (`dangerous_api`, `dangerous_keyword`): "instead ...".
    Entry(&'static str),
    /// Advice for this one case only.
    Own(&'static str),
}

/// One violation as the checker found it: the rule, where, what is wrong and which advice
/// goes with it. [`Violation`] is its wire form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub line: usize,
    pub col: usize,
    pub rule: RuleId,
    pub what: String,
    pub advice: Advice,
}

impl Diagnostic {
    /// The advice as written after `what`.
    pub fn instead(&self) -> String {
        match self.advice {
            Advice::Rule => self.rule.rule().instead.to_owned(),
            Advice::Entry(text) => format!("instead {text}"),
            Advice::Own(text) => text.to_owned(),
        }
    }

    /// `what; instead`, the message of the wire form.
    pub fn message(&self) -> String {
        format!("{}; {}", self.what, self.instead())
    }

    pub fn violation(&self) -> Violation {
        Violation {
            line: self.line,
            col: self.col,
            rule: ViolationRule::Check(self.rule),
            message: self.message(),
        }
    }
}

/// The code passed: `source` is the exact text that must be run (decoded and normalised
/// the way the checker read it), so Layer 1 and the interpreter see the same program.
#[derive(Debug, Clone)]
pub struct Accepted {
    pub source: String,
    /// What the author should know although the code passed (a star import that shadows
    /// builtins or `load()`, a reviewed private name and its public equivalent).
    pub notes: Vec<String>,
}

/// The code was rejected: every violation, and the instructional hint for the author.
#[derive(Debug, Clone, Serialize)]
pub struct Rejection {
    pub errors: Vec<Violation>,
    pub hint: String,
    /// The typed form of `errors`, in the same order.
    #[serde(skip)]
    pub diagnostics: Vec<Diagnostic>,
}

impl Rejection {
    fn new(mut diagnostics: Vec<Diagnostic>) -> Self {
        // By position, then by rule name (the order the JSON contract has always had).
        diagnostics.sort_by(|a, b| {
            (a.line, a.col, a.rule.as_str()).cmp(&(b.line, b.col, b.rule.as_str()))
        });
        diagnostics.dedup_by(|a, b| a.violation() == b.violation());
        let hint = hint::render(&diagnostics, Policy::builtin());
        let errors = diagnostics.iter().map(Diagnostic::violation).collect();
        Rejection {
            errors,
            hint,
            diagnostics,
        }
    }

    /// The instructional text: each violation, then what is allowed and provided.
    pub fn instructions(&self) -> &str {
        &self.hint
    }
}

/// Stack for the parse-and-walk thread. The parser's tree and its drop are recursive in
/// the length of operator chains (`-----x`, `a.b.c...`), which the bracket pre-scan does
/// not bound; 256 KiB of input makes at most ~256k levels, which this stack holds. The
/// memory is reserved, not committed, so it costs nothing until used.
const PARSE_STACK_BYTES: usize = 512 * 1024 * 1024;

/// Check raw bytes as they came from a file, stdin, the window or an MCP client.
pub fn check(code: &[u8]) -> Result<Accepted, Rejection> {
    if let Some(too_large) = rules::input_too_large::check(code) {
        return Err(Rejection::new(vec![too_large]));
    }
    let text = source::prepare(code).map_err(|d| Rejection::new(vec![d]))?;
    if let Some(too_deep) = rules::nesting_too_deep::check_brackets(&text) {
        return Err(Rejection::new(vec![too_deep]));
    }
    let walked = parse_and_walk_on_big_stack(text.clone());
    if !walked.diagnostics.is_empty() {
        return Err(Rejection::new(walked.diagnostics));
    }
    if walked.star_rewrites.is_empty() {
        return Ok(Accepted {
            source: text,
            notes: walked.notes,
        });
    }
    // Star imports run as the explicit lists the checker bound (same line, so every line
    // number stays the author's); the text that runs is checked once more as it is.
    let mut source = text;
    let mut rewrites = walked.star_rewrites;
    rewrites.sort_by_key(|(offset, _)| std::cmp::Reverse(*offset));
    for (offset, names) in rewrites {
        source.replace_range(offset..offset + 1, &format!("({names})"));
    }
    let again = parse_and_walk_on_big_stack(source.clone());
    if !again.diagnostics.is_empty() {
        return Err(Rejection::new(again.diagnostics));
    }
    Ok(Accepted {
        source,
        notes: walked.notes,
    })
}

fn parse_and_walk_on_big_stack(text: String) -> walker::Walked {
    let worker = std::thread::Builder::new()
        .name("pdfagent-check".into())
        .stack_size(PARSE_STACK_BYTES)
        .spawn(move || parse_and_walk(&text));
    let outcome = match worker {
        Ok(handle) => handle
            .join()
            .map_err(|_| "the checker failed on this input"),
        Err(_) => Err("the checker could not start its parsing thread"),
    };
    outcome.unwrap_or_else(|what| failed(rules::syntax_error::checker_failed(what)))
}

/// A walk that ended in one violation before it began.
fn failed(diagnostic: Diagnostic) -> walker::Walked {
    walker::Walked {
        diagnostics: vec![diagnostic],
        star_rewrites: Vec::new(),
        notes: Vec::new(),
    }
}

fn parse_and_walk(text: &str) -> walker::Walked {
    let lines = source::LineIndex::new(text);
    match rustpython_parser::parse(text, rustpython_parser::Mode::Module, "<code>") {
        Err(err) => failed(rules::syntax_error::parse_error(&lines, &err)),
        Ok(module) => {
            let body = match &module {
                rustpython_parser::ast::Mod::Module(m) => m.body.as_slice(),
                _ => &[],
            };
            walker::Checker::new(Policy::builtin().index(), &lines).walk(body)
        }
    }
}
