//! `input-too-large` — the code is larger than the checker reads.
//!
//! ## What it does
//! Rejects input over [`MAX_BYTES`] (256 KiB) before decoding or parsing it.
//!
//! ## Why is this bad?
//! A plotting script is a few kilobytes. Huge input only costs parse time and memory,
//! and a figure never needs it.
//!
//! ## Instead
//! keep the script short and read data from files with srcpath('file') instead of pasting
//! it into the code

use super::{Rule, RuleId};
use crate::check::{Advice, Diagnostic};

pub const RULE: Rule = Rule {
    id: RuleId::InputTooLarge,
    instead: "keep the script short and read data from files with srcpath('file') instead of pasting it into the code",
};

/// The size limit on the raw input.
pub const MAX_BYTES: usize = 256 * 1024;

/// The raw input, before it is decoded: too large?
pub fn check(code: &[u8]) -> Option<Diagnostic> {
    (code.len() > MAX_BYTES).then(|| Diagnostic {
        line: 1,
        col: 1,
        rule: RULE.id,
        what: format!(
            "the code is {} bytes, over the limit of {MAX_BYTES} bytes",
            code.len()
        ),
        advice: Advice::Rule,
    })
}

#[cfg(test)]
mod tests {
    use crate::check::rules::assert_rejects;

    #[test]
    fn cases() {
        let big = "x = 1\n".repeat(super::MAX_BYTES / 6 + 1);
        assert_rejects(&big, &[(1, 1, "input-too-large")]);
    }
}
