//! Layer 1: the static allowlist check.
//!
//! `check` decodes the bytes exactly as the interpreter will ([`source`]), refuses input
//! that is too large or too deeply nested before parsing, parses with `rustpython-parser`,
//! walks every node ([`walker`]) and lets the rules in [`rules`] report **all** violations,
//! sorted by position. A rejection is instructional ([`hint`]): it is written for a
//! language model to fix its code on the first retry.

pub mod hint;
pub mod rules;
pub mod source;
pub mod walker;

use crate::policy::Policy;
use serde::Serialize;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct Violation {
    pub line: usize,
    pub col: usize,
    pub rule: String,
    pub message: String,
}

/// The code passed: `source` is the exact text that must be run (decoded and normalised
/// the way the checker read it), so Layer 1 and the interpreter see the same program.
#[derive(Debug, Clone)]
pub struct Accepted {
    pub source: String,
}

/// The code was rejected: every violation, and the instructional hint for the author.
#[derive(Debug, Clone, Serialize)]
pub struct Rejection {
    pub errors: Vec<Violation>,
    pub hint: String,
}

impl Rejection {
    fn new(mut errors: Vec<Violation>) -> Self {
        errors.sort_by(|a, b| (a.line, a.col, &a.rule).cmp(&(b.line, b.col, &b.rule)));
        errors.dedup();
        let hint = hint::render(&errors, Policy::builtin());
        Rejection { errors, hint }
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
    if code.len() > rules::input_too_large::MAX_BYTES {
        return Err(Rejection::new(vec![Violation {
            line: 1,
            col: 1,
            rule: rules::input_too_large::RULE.id.into(),
            message: format!(
                "the code is {} bytes, over the limit of {} bytes; {}",
                code.len(),
                rules::input_too_large::MAX_BYTES,
                rules::input_too_large::RULE.instead
            ),
        }]));
    }
    let text = source::prepare(code).map_err(|v| Rejection::new(vec![v]))?;
    if let Some(offset) = rules::nesting_too_deep::prescan(&text) {
        let (line, col) = source::LineIndex::new(&text).locate(offset);
        return Err(Rejection::new(vec![Violation {
            line,
            col,
            rule: rules::nesting_too_deep::RULE.id.into(),
            message: format!(
                "more than {} brackets are open here; {}",
                rules::nesting_too_deep::MAX_BRACKETS,
                rules::nesting_too_deep::RULE.instead
            ),
        }]));
    }
    let violations = parse_and_walk_on_big_stack(text.clone());
    if violations.is_empty() {
        Ok(Accepted { source: text })
    } else {
        Err(Rejection::new(violations))
    }
}

fn parse_and_walk_on_big_stack(text: String) -> Vec<Violation> {
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
    outcome.unwrap_or_else(|what| {
        vec![Violation {
            line: 1,
            col: 1,
            rule: rules::syntax_error::RULE.id.into(),
            message: format!("{what}; simplify the code and retry"),
        }]
    })
}

fn parse_and_walk(text: &str) -> Vec<Violation> {
    let lines = source::LineIndex::new(text);
    match rustpython_parser::parse(text, rustpython_parser::Mode::Module, "<code>") {
        Err(err) => {
            let (line, col) = lines.locate(err.offset.to_usize());
            vec![Violation {
                line,
                col,
                rule: rules::syntax_error::RULE.id.into(),
                message: format!("{}; {}", err.error, rules::syntax_error::RULE.instead),
            }]
        }
        Ok(module) => {
            let body = match &module {
                rustpython_parser::ast::Mod::Module(m) => m.body.as_slice(),
                _ => &[],
            };
            walker::Checker::new(Policy::builtin().index(), &lines).run(body)
        }
    }
}
