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
//! before the figure was submitted (see [`warm`]).

pub mod answer;
pub mod data;
pub mod figures;
pub mod name;
pub mod prepared;
pub mod progress;
pub mod running;
pub mod script;
pub mod validate;

pub use figures::capture::{Captured, SavedFigure};
/// Set to `true` from any thread to stop a run at once (the window's Cancel, Ctrl+C).
pub use running::runner::CancelFlag;
pub use running::warm::WarmPool;

use running::run_dir::RunDir;
use running::{RunContext, disk, job};

use crate::check;
use crate::contract::{GuardRefusal, InputRule, RunFailure, Violation, ViolationRule};
pub use figures::format::FigureFormat;
pub use figures::output::{KeptFigureError, OutputError, read_kept_figure, tail_chars};
pub use figures::report::FigureReport;
use job::WorkerJob;
use running::runner::{WorkerExit, WorkerOutcome};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

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

/// The limits of one run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Wall-clock time from spawn; the whole worker tree is killed after it.
    pub timeout: Duration,
    /// Address space of the worker.
    pub memory_bytes: u64,
    /// Largest file the worker may write (its run directory is the only place it can).
    pub file_size_bytes: u64,
    /// Largest figure accepted.
    pub figure_max_bytes: u64,
    /// Bytes kept of each of stdout and stderr (the tail).
    pub output_cap: usize,
    /// Most disk space the run directory may take (all files together).
    pub run_dir_max_bytes: u64,
}

impl Limits {
    pub const MIN_MEMORY_MIB: u64 = 512;
    pub const MAX_MEMORY_MIB: u64 = 64 * 1024;

    /// CPU seconds for the worker: a backstop behind the wall clock, set so the wall clock
    /// normally fires first even when BLAS threads burn CPU time faster than it runs.
    pub fn cpu_seconds(&self) -> u64 {
        self.timeout.as_secs().saturating_mul(2).saturating_add(10)
    }

    /// What the operating system enforces of these limits (the worker's rlimits, the
    /// Windows job's memory and CPU time).
    pub fn confine_limits(&self) -> crate::confine::Limits {
        crate::confine::Limits {
            memory_bytes: self.memory_bytes,
            cpu_seconds: self.cpu_seconds(),
            file_size_bytes: self.file_size_bytes,
            wall_clock_ms: self.kernel_timeout_ms(),
        }
    }

    /// The kernel's wall-clock limit (Linux: a SIGKILL timer the code cannot disarm), in
    /// milliseconds: the time-out plus a grace, so the host's own time-out — which says
    /// what happened in a sentence — normally ends the run first; the timer ends a worker
    /// whose host is gone (or stuck) on time anyway.
    pub fn kernel_timeout_ms(&self) -> u64 {
        let ms = u64::try_from(self.timeout.as_millis()).unwrap_or(u64::MAX);
        ms.saturating_add(KERNEL_TIMER_GRACE_MS)
    }
}

/// See [`Limits::kernel_timeout_ms`].
const KERNEL_TIMER_GRACE_MS: u64 = 2_000;

impl Default for Limits {
    fn default() -> Self {
        Limits {
            timeout: Duration::from_secs(90),
            memory_bytes: 4 << 30,
            file_size_bytes: 256 << 20,
            figure_max_bytes: 50 << 20,
            output_cap: 64 << 10,
            run_dir_max_bytes: 1 << 30,
        }
    }
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

/// Make one figure: check, run confined, save. Never panics on bad input; every failure is
/// a result with the stage it happened in and what to do about it.
pub fn make_figure(
    request: &FigureRequest,
    cancel: &CancelFlag,
    progress: &dyn Fn(Stage),
) -> FigureResult {
    let started = Instant::now();
    let (valid, source) = match check_request(request, progress, started) {
        Ok(checked) => checked,
        Err(failed) => return *failed,
    };
    run_checked(&RunContext {
        name: &valid.name,
        source: &source,
        valid: &valid,
        limits: &request.limits,
        cancel,
        progress,
        started,
    })
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
    let valid = match validate::validate(request) {
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

/// Run code that has passed Layer 1 (or a canary) and save its figure. `name` and the
/// folders in `valid` must have passed input validation.
pub(crate) fn run_checked(run: &RunContext<'_>) -> FigureResult {
    let RunContext {
        source,
        valid,
        limits,
        cancel,
        progress,
        started,
        ..
    } = *run;
    progress(Stage::Starting);
    let job = match WorkerJob::new(Some(&valid.src), limits) {
        Ok(job) => job,
        Err(err) => {
            if let Some(updated) = err.updated() {
                return FigureResult::updated(updated, started);
            }
            return FigureResult::failed(Outcome::Run, started).with_hint(err.to_string());
        }
    };
    let out = job.path().join(valid.format.out_name());
    let options = script::RunOptions {
        guard: source.2 == Guard::Armed,
        ..valid.run_options()
    };
    let script_text = script::render(&valid.src, &out, &source.0, options);
    if let Err(err) = job.write_script(&script_text) {
        return FigureResult::failed(Outcome::Run, started).with_hint(err.to_string());
    }
    progress(Stage::Running);
    let watched = job.run_watching_disk(cancel, limits.run_dir_max_bytes);
    collect(run, &out, watched, job.into_run_dir())
}

/// Judge a finished worker run and save its figure: shared by the cold and the warm path.
/// `watched` is the worker's outcome and whether the disk cap stopped it; `run` (the run
/// directory holding `out`) is removed before this returns.
fn collect(
    ctx: &RunContext<'_>,
    out: &Path,
    watched: (Result<WorkerOutcome, running::runner::RunnerError>, bool),
    run: RunDir,
) -> FigureResult {
    let RunContext {
        name,
        source,
        valid,
        limits,
        progress,
        started,
        ..
    } = *ctx;
    let (outcome, over_disk_cap) = watched;
    let outcome = match outcome {
        Ok(outcome) => outcome,
        Err(err) => {
            return FigureResult::failed(Outcome::Run, started)
                .with_hint(format!("{err}; the figure was not made"));
        }
    };
    if over_disk_cap {
        let mut result = FigureResult::failed(Outcome::Run, started).with_hint(format!(
            "the code wrote more than {} MB (or {} files) into its run directory and was \
             stopped; write only the figures, with plt.savefig(OUT)",
            limits.run_dir_max_bytes >> 20,
            disk::MAX_ENTRIES
        ));
        result.stderr_tail =
            figures::output::tail_chars(&outcome.stderr_tail, STDERR_TAIL_CHARS).to_owned();
        return result;
    }
    let result = judge(&outcome, limits, started);
    let answer = answer::read(run.path());
    let notes = join_notes(answer.notes_text(), answer.guard_text());
    if let Some(mut failed) = result {
        failed.guard = answer.guard;
        if let Some(failure) = answer.failure.filter(|_| failed.stage == Outcome::Run) {
            failed.hint = Some(failure.to_text());
            failed.failure = Some(failure);
        }
        failed.hint = source.with_notes(join_notes(failed.hint.take(), notes));
        return failed;
    }
    progress(Stage::Saving);
    let origin = figures::provenance::Origin {
        name: name.to_owned(),
        code: source.0.clone(),
        src: valid.src.clone(),
        limits: *limits,
        guard: answer.guard.clone(),
    };
    let saved = figures::capture::keep_figures(
        run.path(),
        out,
        valid.format,
        &valid.figures,
        name,
        limits.figure_max_bytes,
        Some(&origin),
        std::time::SystemTime::now()
            .checked_sub(started.elapsed())
            .unwrap_or_else(std::time::SystemTime::now),
    );
    let stderr_tail =
        figures::output::tail_chars(&outcome.stderr_tail, STDERR_TAIL_CHARS).to_owned();
    drop(run);
    match saved {
        Ok(figures::capture::Kept {
            figures,
            note,
            replaced,
        }) => FigureResult {
            ok: true,
            stage: Outcome::Done,
            figure: figures.first().map(|f| f.path.clone()),
            bytes: figures.first().map(|f| f.bytes),
            figures,
            ms: elapsed_ms(started),
            errors: Vec::new(),
            hint: source.with_notes(join_notes(note, notes)),
            stderr_tail,
            cancelled: false,
            failure: None,
            replaced,
            guard: answer.guard,
        },
        Err(failure) => {
            let stage = if failure.no_output {
                Outcome::NoOutput
            } else {
                Outcome::Run
            };
            let mut result = FigureResult::failed(stage, started)
                .with_hint(join_notes(Some(failure.message), notes).unwrap_or_default());
            result.stderr_tail = stderr_tail;
            result.guard = answer.guard;
            result
        }
    }
}

/// Two optional texts of a hint, one after the other.
fn join_notes(hint: Option<String>, notes: Option<String>) -> Option<String> {
    match (hint, notes) {
        (Some(hint), Some(notes)) => Some(format!("{hint}\n{notes}")),
        (hint, notes) => hint.or(notes),
    }
}

/// A failed run as a result, or `None` when the worker exited cleanly.
fn judge(outcome: &WorkerOutcome, limits: &Limits, started: Instant) -> Option<FigureResult> {
    let (stage, hint) = match outcome.exit {
        WorkerExit::Exited(0) => return None,
        WorkerExit::Exited(crate::worker::EXIT_WORKER_FAILED) => (
            Outcome::Run,
            "the confined worker could not start (a problem of the installation, not of the \
             code): see stderr_tail, and run `pdfagent selftest`"
                .to_owned(),
        ),
        WorkerExit::Exited(code) => (
            Outcome::Run,
            format!(
                "the code failed (exit status {code}); read stderr_tail, fix the code and retry"
            ),
        ),
        WorkerExit::TimedOut => (
            Outcome::Timeout,
            format!(
                "the code ran longer than {} s and was stopped: make it faster (fewer points, \
                 no endless loops) or raise the time limit",
                limits.timeout.as_secs()
            ),
        ),
        WorkerExit::Signaled(sig) if is_cpu_limit_signal(sig) => (
            Outcome::Timeout,
            format!(
                "the code used more than {} CPU seconds and was stopped",
                limits.cpu_seconds()
            ),
        ),
        WorkerExit::Signaled(sig) => (
            Outcome::Run,
            format!(
                "the code was killed by signal {sig} (often: more memory than the {} MB limit, \
                 or a file larger than {} MB); use less data at once",
                limits.memory_bytes >> 20,
                limits.file_size_bytes >> 20
            ),
        ),
        WorkerExit::Cancelled => (Outcome::Run, "the run was cancelled".to_owned()),
    };
    let mut result = FigureResult::failed(stage, started).with_hint(hint);
    result.stderr_tail =
        figures::output::tail_chars(&outcome.stderr_tail, STDERR_TAIL_CHARS).to_owned();
    result.cancelled = outcome.exit == WorkerExit::Cancelled;
    Some(result)
}

fn is_cpu_limit_signal(sig: i32) -> bool {
    #[cfg(unix)]
    return sig == libc::SIGXCPU;
    #[cfg(not(unix))]
    return {
        let _ = sig;
        false
    };
}

fn input_failure(err: &validate::InputError, started: Instant) -> FigureResult {
    let mut result = FigureResult::input_error(err.rule(), err.to_string());
    result.ms = elapsed_ms(started);
    result
}

#[cfg(test)]
mod tests;
