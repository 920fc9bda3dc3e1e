//! Judging a finished run and keeping its figures: what every backend's [`FinishedRun`]
//! goes through, once, whichever process ran the code.

use super::running::FinishedRun;
use super::running::disk;
use super::running::job::JobError;
use super::running::runner::{WorkerExit, WorkerOutcome};
use super::{
    FigureResult, Limits, Outcome, RunContext, STDERR_TAIL_CHARS, Stage, answer, elapsed_ms,
    figures,
};
use std::time::Instant;

/// Judge a finished run and save its figure: the one place every backend's run ends.
/// `finished` is the run (or why a cold run could not be set up); its run directory is
/// removed before this returns.
pub(super) fn collect(
    ctx: &RunContext<'_>,
    finished: Result<FinishedRun, JobError>,
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
    let FinishedRun {
        outcome,
        over_cap: over_disk_cap,
        out,
        run,
    } = match finished {
        Ok(finished) => finished,
        Err(err) => {
            if let Some(updated) = err.updated() {
                return FigureResult::updated(updated, started);
            }
            return FigureResult::failed(Outcome::Run, started).with_hint(err.to_string());
        }
    };
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
        &out,
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
        WorkerExit::Exited(crate::wire::EXIT_WORKER_FAILED) => (
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn worker_failures_map_to_stages() {
        let limits = Limits::default();
        let outcome = |exit| WorkerOutcome {
            exit,
            stdout_tail: String::new(),
            stderr_tail: format!("{}Traceback", "x".repeat(5000)),
            elapsed: Duration::from_millis(5),
        };
        let t = Instant::now();
        assert!(judge(&outcome(WorkerExit::Exited(0)), &limits, t).is_none());
        let r = judge(&outcome(WorkerExit::Exited(1)), &limits, t).unwrap();
        assert_eq!(r.stage, Outcome::Run);
        assert_eq!(r.stderr_tail.chars().count(), STDERR_TAIL_CHARS);
        assert!(r.stderr_tail.ends_with("Traceback"));
        let r = judge(&outcome(WorkerExit::TimedOut), &limits, t).unwrap();
        assert_eq!(r.stage, Outcome::Timeout);
        assert_eq!(r.stage.exit_code(), 3);
        #[cfg(unix)]
        {
            let r = judge(&outcome(WorkerExit::Signaled(libc::SIGXCPU)), &limits, t).unwrap();
            assert_eq!(r.stage, Outcome::Timeout);
            let r = judge(&outcome(WorkerExit::Signaled(libc::SIGKILL)), &limits, t).unwrap();
            assert_eq!(r.stage, Outcome::Run);
        }
        let r = judge(&outcome(WorkerExit::Exited(125)), &limits, t).unwrap();
        assert!(r.hint.unwrap().contains("selftest"));
        assert!(!r.cancelled);
        let r = judge(&outcome(WorkerExit::Cancelled), &limits, t).unwrap();
        assert_eq!(r.stage, Outcome::Run);
        assert!(r.cancelled, "a cancelled run says so in its own field");
    }
}
