//! The worker's answer about a run (`worker/answers.py` writes [`ANSWER_FILE`] into its run
//! directory): a failure as data ([`RunFailure`]: frames, exception, the fix computed where
//! the error was raised) and the notes of paths read from the data folder in place of the
//! path the code named (`/mnt/data/x.csv` → `x.csv`); and what the run-time guard refused
//! while the code ran ([`GuardRefusal`], whether or not the code caught it). Untrusted like every file of the run
//! directory: read with a size cap, every text capped, anything malformed left out.

use super::figures::output;
use crate::contract::{GuardRefusal, RunFailure};
use serde::Deserialize;
use std::path::Path;

/// The file the worker writes its answer to.
pub const ANSWER_FILE: &str = ".pdfagent-answer.json";
/// Largest answer file read.
const ANSWER_MAX_BYTES: u64 = 256 << 10;
const MESSAGE_MAX_CHARS: usize = 4000;
const FIX_MAX_CHARS: usize = 2000;
const FIELD_MAX_CHARS: usize = 300;
const MAX_FRAMES: usize = 40;
const MAX_NOTES: usize = 8;

/// What the worker said about its run.
#[derive(Debug, Default, Deserialize)]
pub struct Answer {
    #[serde(default)]
    pub failure: Option<RunFailure>,
    #[serde(default)]
    pub notes: Vec<String>,
    /// What the guard refused, in order, each checked ([`GuardRefusal::checked`]).
    #[serde(default)]
    pub guard: Vec<GuardRefusal>,
}

impl Answer {
    /// The notes as sentences for the result's hint, or `None`.
    pub fn notes_text(&self) -> Option<String> {
        (!self.notes.is_empty()).then(|| {
            self.notes
                .iter()
                .map(|n| format!("Note: {n}."))
                .collect::<Vec<_>>()
                .join("\n")
        })
    }

    /// The guard's refusals as sentences for the result's hint, or `None`; a refusal the
    /// failure's own message already says (the code did not catch it) is not said twice.
    pub fn guard_text(&self) -> Option<String> {
        let said = self.failure.as_ref().map(|f| f.message.as_str());
        let lines: Vec<String> = self
            .guard
            .iter()
            .filter(|r| said.is_none_or(|m| !(m.contains(&r.what) && m.contains(&r.rule))))
            .map(|r| {
                format!(
                    "Note: the run-time guard refused {}; the code went on without it.",
                    r.line()
                )
            })
            .collect();
        (!lines.is_empty()).then(|| lines.join("\n"))
    }
}

/// The answer in `run_dir`, capped; empty when the worker wrote none or it is malformed.
pub fn read(run_dir: &Path) -> Answer {
    let bytes = match output::read_single_file(&run_dir.join(ANSWER_FILE), ANSWER_MAX_BYTES) {
        Ok(bytes) => bytes,
        // None written (a run that ended well, or a worker that could not), or unreadable.
        Err(_) => return Answer::default(),
    };
    let mut answer: Answer = serde_json::from_slice(&bytes).unwrap_or_default();
    answer.notes.truncate(MAX_NOTES);
    answer.guard = std::mem::take(&mut answer.guard)
        .into_iter()
        .take(GuardRefusal::MAX)
        .filter_map(GuardRefusal::checked)
        .collect();
    for note in &mut answer.notes {
        cap(note, FIELD_MAX_CHARS);
    }
    if let Some(failure) = &mut answer.failure {
        cap(&mut failure.exception, FIELD_MAX_CHARS);
        cap(&mut failure.message, MESSAGE_MAX_CHARS);
        if let Some(fix) = &mut failure.fix {
            cap(fix, FIX_MAX_CHARS);
        }
        // The innermost frames matter most (where it raised); the code's first line too.
        if failure.frames.len() > MAX_FRAMES {
            let cut = failure.frames.len() - MAX_FRAMES;
            failure.frames.drain(1..=cut);
        }
        for frame in &mut failure.frames {
            cap(&mut frame.file, FIELD_MAX_CHARS);
            cap(&mut frame.function, FIELD_MAX_CHARS);
            if let Some(source) = &mut frame.source {
                cap(source, FIELD_MAX_CHARS);
            }
        }
    }
    answer
}

fn cap(text: &mut String, max_chars: usize) {
    if let Some((at, _)) = text.char_indices().nth(max_chars) {
        text.truncate(at);
        text.push('…');
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::FrameKind;

    #[test]
    fn a_failure_is_read_and_capped() {
        let dir = tempfile::tempdir().unwrap();
        let long = "x".repeat(10_000);
        let frames: Vec<String> = (0..60)
            .map(|i| {
                format!(
                    r#"{{"kind":"{}","file":"pandas","line":{i},"function":"f{i}","source":null}}"#,
                    if i == 0 { "user" } else { "library" }
                )
            })
            .collect();
        let json = format!(
            r#"{{"failure":{{"exception":"KeyError","message":"{long}","frames":[{}],"fix":"no 'bnad2': the DataFrame's columns (closest first): 'band2'","about_files":false}},"notes":[]}}"#,
            frames.join(",")
        );
        std::fs::write(dir.path().join(ANSWER_FILE), json).unwrap();
        let answer = read(dir.path());
        let failure = answer.failure.expect("the failure is read");
        assert_eq!(failure.message.chars().count(), MESSAGE_MAX_CHARS + 1);
        assert_eq!(failure.frames.len(), MAX_FRAMES);
        assert_eq!(failure.frames[0].kind, FrameKind::User);
        assert_eq!(failure.frames[MAX_FRAMES - 1].function, "f59");
        assert!(failure.user_line_first());
        let text = failure.to_text();
        assert!(text.contains("in pandas f21 … f59 (39 frames)"), "{text}");
        assert!(
            text.ends_with("Fix: no 'bnad2': the DataFrame's columns (closest first): 'band2'")
        );
    }

    #[test]
    fn malformed_or_missing_answers_are_empty() {
        let dir = tempfile::tempdir().unwrap();
        assert!(read(dir.path()).failure.is_none());
        std::fs::write(dir.path().join(ANSWER_FILE), "{not json").unwrap();
        let answer = read(dir.path());
        assert!(answer.failure.is_none() && answer.notes.is_empty());
    }

    #[test]
    fn guard_refusals_are_read_checked_and_said_once() {
        let dir = tempfile::tempdir().unwrap();
        let mut entries = vec![
            r#"{"rule":"guard-open","what":"opening '/etc/hostname'"}"#.to_owned(),
            r#"{"rule":"guard-import","what":"import of 'telnetlib'"}"#.to_owned(),
            // Not the guard's: a rule of another shape, a control character, too long.
            r#"{"rule":"check-exec","what":"x"}"#.to_owned(),
            r#"{"rule":"guard-open","what":"a\nb"}"#.to_owned(),
            format!(r#"{{"rule":"guard-open","what":"{}"}}"#, "y".repeat(201)),
        ];
        entries.extend((0..40).map(|i| format!(r#"{{"rule":"guard-exec","what":"n{i}"}}"#)));
        let json = format!(
            r#"{{"failure":{{"exception":"ModuleNotFoundError","message":"PDFAgent refused import of 'telnetlib': … [guard-import]","frames":[],"fix":null}},"notes":[],"guard":[{}]}}"#,
            entries.join(",")
        );
        std::fs::write(dir.path().join(ANSWER_FILE), json).unwrap();
        let answer = read(dir.path());
        assert_eq!(answer.guard.len(), GuardRefusal::MAX - 3);
        assert_eq!(
            answer.guard[0].line(),
            "opening '/etc/hostname' [guard-open]"
        );
        let text = answer.guard_text().expect("refusals are said");
        assert!(text.starts_with(
            "Note: the run-time guard refused opening '/etc/hostname' [guard-open]; the code \
             went on without it."
        ));
        // The uncaught one is the failure's own message: not said again.
        assert!(!text.contains("telnetlib"), "{text}");
        assert!(text.contains("n0 [guard-exec]") && !text.contains("check-exec"));
    }
}
