//! The wire types the checker and the pipeline share: one violation as every front end
//! receives it (`check --json`, `make-figure --json`, MCP, the window's editor) and what it
//! broke — a rule of the checker ([`RuleId`]) or an input rule ([`InputRule`]). Both
//! `check/` and `pipeline/` use these; neither depends on the other for them.

use crate::check::RuleId;
use serde::Serialize;

/// One violation: the rule by its name and the full message. Input errors (`bad-name`,
/// `code-empty`, ...) travel in the same shape, at line 0, column 0.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct Violation {
    pub line: usize,
    pub col: usize,
    pub rule: ViolationRule,
    pub message: String,
}

/// What a violation broke: a rule of the checker, or an input rule. On the wire, its
/// kebab-case name either way (`import-not-allowed`, `bad-name`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ts_rs::TS)]
#[serde(untagged)]
pub enum ViolationRule {
    Check(RuleId),
    Input(InputRule),
}

impl ViolationRule {
    pub const fn as_str(self) -> &'static str {
        match self {
            ViolationRule::Check(rule) => rule.as_str(),
            ViolationRule::Input(rule) => rule.as_str(),
        }
    }
}

impl std::fmt::Display for ViolationRule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The rule a bad input broke, as the result's `errors` name it (kebab-case on the wire,
/// the same as [`InputRule::as_str`]): the pipeline's input validation, and what a front
/// end finds before it can build a request (the code cannot be read, a figure carries no
/// record to re-run).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ts_rs::TS)]
#[serde(rename_all = "kebab-case")]
pub enum InputRule {
    BadName,
    NameTaken,
    SrcNotAFolder,
    PathNotUtf8,
    FiguresFolder,
    CodeTooLarge,
    CodeEmpty,
    BadLimit,
    /// The code file (or standard input) could not be read.
    CodeUnreadable,
    /// The figure to re-run carries no usable provenance record.
    NoProvenance,
}

impl InputRule {
    pub const fn as_str(self) -> &'static str {
        match self {
            InputRule::BadName => "bad-name",
            InputRule::NameTaken => "name-taken",
            InputRule::SrcNotAFolder => "src-not-a-folder",
            InputRule::PathNotUtf8 => "path-not-utf8",
            InputRule::FiguresFolder => "figures-folder",
            InputRule::CodeTooLarge => "code-too-large",
            InputRule::CodeEmpty => "code-empty",
            InputRule::BadLimit => "bad-limit",
            InputRule::CodeUnreadable => "code-unreadable",
            InputRule::NoProvenance => "no-provenance",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_input_rule_is_named_the_same_on_the_wire() {
        for rule in [
            InputRule::BadName,
            InputRule::NameTaken,
            InputRule::SrcNotAFolder,
            InputRule::PathNotUtf8,
            InputRule::FiguresFolder,
            InputRule::CodeTooLarge,
            InputRule::CodeEmpty,
            InputRule::BadLimit,
            InputRule::CodeUnreadable,
            InputRule::NoProvenance,
        ] {
            assert_eq!(
                serde_json::to_string(&rule).ok(),
                Some(format!("\"{}\"", rule.as_str()))
            );
        }
    }
}
