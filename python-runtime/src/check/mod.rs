//! Layer 1: the static allowlist check. (Interface stub — the checker work fills this in.)

use serde::Serialize;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
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

/// Check raw bytes as they came from a file, stdin, the window or an MCP client.
pub fn check(code: &[u8]) -> Result<Accepted, Rejection> {
    match std::str::from_utf8(code) {
        Ok(text) => Ok(Accepted {
            source: text.to_owned(),
        }),
        Err(_) => Err(Rejection {
            errors: vec![Violation {
                line: 1,
                col: 1,
                rule: "encoding".into(),
                message: "the code is not valid UTF-8".into(),
            }],
            hint: String::new(),
        }),
    }
}
