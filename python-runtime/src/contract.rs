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

/// One attempt the run-time guard refused while the code ran (`worker/guard.py`, issue
/// #40): the rule (`guard-exec`, `guard-import`, `guard-open`, …) and what was attempted
/// (`opening '/etc/hostname'`, `import of 'telnetlib'`). Said whether or not the code caught
/// the refusal, in the result (`FigureResult.guard`) and in each kept figure's provenance
/// record. Read from the worker's answer file and checked by [`GuardRefusal::checked`]: the
/// worker is untrusted, so this is what it reported, not a verdict.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize, ts_rs::TS)]
pub struct GuardRefusal {
    pub rule: String,
    pub what: String,
}

impl GuardRefusal {
    /// Most refusals kept per run (the guard lists at most this many too).
    pub const MAX: usize = 32;
    /// Longest `what` kept (the guard cuts it there).
    pub const WHAT_MAX_CHARS: usize = 200;

    /// The refusal if its rule is one of the guard's (`guard-` and lower-case words) and
    /// its text fits, `None` otherwise.
    pub fn checked(self) -> Option<GuardRefusal> {
        let rule_ok = self.rule.len() <= 40
            && self.rule.strip_prefix("guard-").is_some_and(|rest| {
                !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_lowercase() || b == b'-')
            });
        let what_ok = self.what.chars().count() <= Self::WHAT_MAX_CHARS
            && !self.what.chars().any(char::is_control);
        (rule_ok && what_ok).then_some(self)
    }

    /// One line: "opening '/etc/hostname' [guard-open]".
    pub fn line(&self) -> String {
        format!("{} [{}]", self.what, self.rule)
    }
}

/// A failed run as data (issue #41): what the code's traceback says, computed in the worker
/// where the error was raised (`worker/answers.py`), so every front end can render it (the
/// window's error box, MCP text, the command line) without parsing stderr. Read from the
/// worker's `.pdfagent-answer.json` by `pipeline/answer.rs`, every text capped there: the
/// worker is untrusted, so this is what it said, not a verdict.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize, ts_rs::TS)]
pub struct RunFailure {
    /// The exception's type: `KeyError`, `FileNotFoundError`, `pandas.ParserError`, …
    pub exception: String,
    /// The exception's own message, whole (host paths replaced: the data folder's files by
    /// their relative names, the runtime's as `<runtime>`).
    pub message: String,
    /// The frames, outermost first: the code's own whole, the rest one per call.
    pub frames: Vec<TraceFrame>,
    /// What to change, when the worker knows it: the available columns or keys closest
    /// first, the data folder's nearest file names, the shapes by argument, the current name
    /// of a removed API.
    pub fix: Option<String>,
    /// Whether the failure is about reading data or saving figures (where a reminder of
    /// how to do both is due).
    #[serde(default)]
    pub about_files: bool,
}

/// One frame of a [`RunFailure`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize, ts_rs::TS)]
pub struct TraceFrame {
    pub kind: FrameKind,
    /// `<code>` for the code, the library's name (`pandas`, `matplotlib`) for a library,
    /// `<pdfagent>` for the worker's own, `<runtime>` for the rest of the runtime.
    pub file: String,
    /// The line in that file (the code's own numbering for `<code>`).
    pub line: u32,
    /// The function's qualified name (`DataFrame.__getitem__`; `<module>` at the top).
    pub function: String,
    /// The source line, for the code's frames only.
    pub source: Option<String>,
}

/// Whose a frame is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize, ts_rs::TS)]
#[serde(rename_all = "lowercase")]
pub enum FrameKind {
    /// The code's own.
    User,
    /// numpy, pandas, matplotlib, … or the Python standard library.
    Library,
    /// The worker's own (the provided names `load`, `srcpath`, the capture).
    Pdfagent,
}

impl RunFailure {
    /// The failure as a model reads it in one pass: the code's frames whole, each library
    /// call on one line, the exception's message last, then the fix.
    pub fn to_text(&self) -> String {
        let mut out =
            String::from("Traceback (your code first; line numbers are your code's own):\n");
        let mut i = 0;
        while i < self.frames.len() {
            let f = &self.frames[i];
            if f.kind == FrameKind::User {
                let place = if f.function == "<module>" {
                    String::new()
                } else {
                    format!(", in {}", f.function)
                };
                let source = f.source.as_deref().unwrap_or_default();
                out.push_str(format!("  line {}{place}: {source}", f.line).trim_end());
                out.push('\n');
                i += 1;
                continue;
            }
            // Consecutive frames of one library: one line, the entry and where it raised.
            let mut j = i;
            while j + 1 < self.frames.len()
                && self.frames[j + 1].kind == f.kind
                && self.frames[j + 1].file == f.file
            {
                j += 1;
            }
            out.push_str(&format!("    in {} {}", f.file, f.function));
            if j > i {
                out.push_str(&format!(
                    " … {} ({} frames)",
                    self.frames[j].function,
                    j - i + 1
                ));
            }
            out.push('\n');
            i = j + 1;
        }
        out.push_str(&format!("{}: {}", self.exception, self.message));
        if let Some(fix) = &self.fix {
            out.push_str(&format!("\nFix: {fix}"));
        }
        out
    }

    /// Whether the code's own line is the first frame shown (it is, unless the failure
    /// happened outside the code, e.g. in the capture after it ended).
    pub fn user_line_first(&self) -> bool {
        self.frames
            .first()
            .is_some_and(|f| f.kind == FrameKind::User)
    }
}
