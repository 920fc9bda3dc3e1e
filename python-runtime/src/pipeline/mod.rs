//! The figure pipeline: the ONE function the command line, the window and the MCP server
//! call to turn `{name, code, src, figures, format, limits}` into `figures/NAME.png` (or
//! `.svg`/`.pdf`).
//!
//! input validation → Layer-1 check → fresh private run directory → worker script
//! (preamble + checked source) → confined worker (`job::WorkerJob`) → `OUT` validated →
//! moved atomically into the figures folder → run directory removed (always: `TempDir`
//! drops on every return path, on panic too).
//!
//! The only way to run code is with a [`CheckedSource`], and outside this crate the only
//! way to get one is Layer 1 (`make_figure` does it): the selftest's canaries, inside the
//! crate, are the one caller that builds one from unchecked text, to prove Layer 2 alone.
//!
//! Long-lived hosts (window, MCP server) call [`WarmPool::submit`] instead of
//! [`make_figure`]: the same checks and result, run on a worker started and warmed up
//! before the figure was submitted. Both are the pipeline's pool (`pool.rs`): check the
//! request, run it on a backend of `running/` (cold, or a warm one), judge what it finished
//! with (`finish.rs`). `running/` imports nothing from this layer.

pub mod answer;
pub mod data;
pub mod figures;
mod finish;
pub mod name;
mod pool;
pub mod prepared;
pub mod progress;
pub mod running;
pub mod script;
pub mod validate;

pub use figures::capture::{Captured, SavedFigure};
pub use pool::WarmPool;
pub(crate) use pool::{RunContext, run_checked};
/// The limits of one run (defined where a worker is started under them).
pub use running::limits::Limits;
/// Set to `true` from any thread to stop a run at once (the window's Cancel, Ctrl+C).
pub use running::runner::CancelFlag;

use crate::check;
use crate::contract::{GuardRefusal, InputRule, RunFailure, Violation, ViolationRule};
pub use figures::format::FigureFormat;
pub use figures::output::{KeptFigureError, OutputError, read_kept_figure, tail_chars};
pub use figures::report::FigureReport;
use serde::Serialize;
use std::path::PathBuf;
use std::time::Instant;

/// Largest accepted code, in bytes: far above any plotting script. Input validation
/// refuses more, and a record read back with more is not one PDFAgent wrote.
pub const MAX_CODE_BYTES: usize = 1024 * 1024;

/// Most characters of stderr returned in a result (errors are tokens too).
pub const STDERR_TAIL_CHARS: usize = 1500;

/// One figure to make.
#[derive(Debug, Clone)]
pub struct FigureRequest {
    /// The file stem of the figure: `figures/NAME.png` (`.svg`, `.pdf` by `format`).
    pub name: String,
    /// The Python code, as raw bytes from a file, stdin, the window or an MCP client.
    pub code: Vec<u8>,
    /// The data folder: the code's `SRC`, read-only.
    pub src: PathBuf,
    /// Where the figure goes (created if missing).
    pub figures: PathBuf,
    /// The figure's format: what `OUT` is called and how the file is checked and named.
    pub format: FigureFormat,
    pub limits: Limits,
    /// Whether the worker also makes a small preview of each figure (for MCP clients that
    /// show images inline; [`SavedFigure::preview`]).
    pub preview: bool,
}

/// Where a run is, for a progress display.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ts_rs::TS)]
#[serde(rename_all = "kebab-case")]
pub enum Stage {
    Checking,
    Starting,
    Running,
    Saving,
}

/// How a run ended: the contract's `stage`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ts_rs::TS)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    Done,
    Check,
    Run,
    NoOutput,
    Timeout,
    Input,
    /// PDFAgent was updated while the host ran: nothing was started, the host must be
    /// restarted (`hint` says so; see `install_identity`).
    Updated,
}

impl Outcome {
    /// The command line's exit status for this outcome (the contract's 0/1/2/3/4, and 5
    /// for an installation updated under the host).
    pub fn exit_code(self) -> i32 {
        match self {
            Outcome::Done => 0,
            Outcome::Check => 1,
            Outcome::Run | Outcome::NoOutput => 2,
            Outcome::Timeout => 3,
            Outcome::Input => 4,
            Outcome::Updated => 5,
        }
    }
}

/// The result, serialised as the JSON contract in docs/architecture.md. Every key is always
/// present; `figure`, `bytes`, `hint` and `replaced` are `null` where they do not apply. `figure` and
/// `bytes` are those of the first of `figures`; on success `hint` says how figures the code
/// did not save at `OUT` were captured; `cancelled` says the run was stopped by its caller
/// (the window's Cancel, the command line's Ctrl+C), not by the code or a limit.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct FigureResult {
    pub ok: bool,
    pub stage: Outcome,
    pub figure: Option<PathBuf>,
    pub bytes: Option<u64>,
    /// Every figure of the run, in order (empty unless `ok`).
    pub figures: Vec<SavedFigure>,
    pub ms: u64,
    pub errors: Vec<Violation>,
    pub hint: Option<String>,
    pub stderr_tail: String,
    pub cancelled: bool,
    /// A run that failed in the code: its traceback as data and the fix (`null` otherwise;
    /// `hint` holds the same as text).
    pub failure: Option<RunFailure>,
    /// The version this run kept of the group it replaced (`null` when the name had no
    /// figure, or nothing of it was replaced).
    pub replaced: Option<figures::versions::KeptVersion>,
    /// What the run-time guard refused while the code ran (`worker/guard.py`), in order,
    /// whether or not the code caught it: the rule and what was attempted. Each kept
    /// figure's provenance record carries the same list. Empty when nothing was refused.
    pub guard: Vec<GuardRefusal>,
}

impl FigureResult {
    fn failed(stage: Outcome, started: Instant) -> FigureResult {
        FigureResult {
            ok: false,
            stage,
            figure: None,
            bytes: None,
            figures: Vec::new(),
            ms: elapsed_ms(started),
            errors: Vec::new(),
            hint: None,
            stderr_tail: String::new(),
            cancelled: false,
            failure: None,
            replaced: None,
            guard: Vec::new(),
        }
    }

    /// Nothing ran: the input broke `rule` (`message` says how and what to send instead).
    /// For front ends too, for what they find before they can build a request (an
    /// unreadable code file, a figure with no record to re-run): `ms` is 0 there.
    pub fn input_error(rule: InputRule, message: impl Into<String>) -> FigureResult {
        let message = message.into();
        FigureResult {
            ms: 0,
            errors: vec![Violation {
                line: 0,
                col: 0,
                rule: ViolationRule::Input(rule),
                message: message.clone(),
            }],
            ..FigureResult::failed(Outcome::Input, Instant::now())
        }
        .with_hint(message)
    }

    /// Nothing ran: the installation was updated under the host, which must be restarted.
    fn updated(updated: crate::install_identity::Updated, started: Instant) -> FigureResult {
        FigureResult::failed(Outcome::Updated, started).with_hint(updated.to_string())
    }

    fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    pub fn to_json(&self) -> String {
        // Strings, numbers and paths only: serialisation cannot fail.
        serde_json::to_string(self).unwrap_or_default()
    }
}

fn elapsed_ms(started: Instant) -> u64 {
    u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX)
}

/// Code that is allowed to run. Outside this crate it can only come from Layer 1.
#[derive(Debug, Clone)]
pub struct CheckedSource(String, Vec<String>, Guard);

/// Whether the run-time guard is armed for a source: only the canaries run without it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Guard {
    Armed,
    CanaryWithoutGuard,
}

impl CheckedSource {
    /// The checker's notes on code that passed (a star import shadowing builtins, a
    /// reviewed private name), said in the result's hint after the run.
    fn with_notes(&self, hint: Option<String>) -> Option<String> {
        if self.1.is_empty() {
            return hint;
        }
        let notes = self
            .1
            .iter()
            .map(|n| format!("Note: {n}."))
            .collect::<Vec<_>>();
        let notes = notes.join("\n");
        Some(match hint {
            Some(hint) => format!("{hint}\n{notes}"),
            None => notes,
        })
    }

    /// Unchecked code, for the selftest's canaries only (they prove Layer 2 on its own).
    /// Crate-private on purpose: no command-line flag, MCP argument or window setting can
    /// reach it, so Layer 1 cannot be switched off from outside.
    pub(crate) fn unchecked_for_canary(source: String) -> CheckedSource {
        CheckedSource(source, Vec::new(), Guard::CanaryWithoutGuard)
    }
}

/// Make one figure: check, run confined, save — the pool with no warm backend (see
/// [`pool`]). Never panics on bad input; every failure is a result with the stage it
/// happened in and what to do about it.
pub fn make_figure(
    request: &FigureRequest,
    cancel: &CancelFlag,
    progress: &dyn Fn(Stage),
) -> FigureResult {
    pool::make(request, cancel, progress, None)
}

/// Input validation and Layer 1: what every path (cold or warm) does before any worker
/// sees the code. A failure is the finished result. First of all, the installation must be
/// the one the host started from: a warm worker or a fork server's child started before an
/// update would run against the updated runtime.
fn check_request(
    request: &FigureRequest,
    progress: &dyn Fn(Stage),
    started: Instant,
) -> Result<(validate::ValidInput, CheckedSource), Box<FigureResult>> {
    if let Err(updated) = crate::install_identity::check() {
        return Err(Box::new(FigureResult::updated(updated, started)));
    }
    let valid = match validate::validate_settings(request).and_then(|valid| {
        // Free in the figures folder: the output stage's to say.
        figures::names::check_name_free(&valid.figures, &valid.name)?;
        Ok(valid)
    }) {
        Ok(valid) => valid,
        Err(err) => return Err(Box::new(input_failure(&err, started))),
    };
    progress(Stage::Checking);
    match check::check(&request.code) {
        Ok(accepted) => Ok((
            valid,
            CheckedSource(accepted.source, accepted.notes, Guard::Armed),
        )),
        Err(rejection) => {
            let mut result = FigureResult::failed(Outcome::Check, started);
            result.errors = rejection.errors;
            result.hint = Some(rejection.hint);
            Err(Box::new(result))
        }
    }
}

fn input_failure(err: &validate::InputError, started: Instant) -> FigureResult {
    let mut result = FigureResult::input_error(err.rule(), err.to_string());
    result.ms = elapsed_ms(started);
    result
}

#[cfg(test)]
mod tests;
