//! Spawn the app's own executable as a confined Python worker (`PDFAGENT_PYRUN`), with an
//! environment built from scratch, a time limit, a killed-as-a-tree process group and
//! capped output. (Interface stub — the embedded-runtime work fills this in.)

use crate::confine::ConfinePlan;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// One worker run.
#[derive(Debug, Clone)]
pub struct WorkerRequest {
    /// The Python script to run (inside `run_dir`).
    pub script: PathBuf,
    /// The fresh private run directory: the worker's cwd, HOME and TMPDIR.
    pub run_dir: PathBuf,
    /// What the worker may touch once it has confined itself.
    pub confine: ConfinePlan,
    /// Wall-clock limit, from spawn.
    pub timeout: Duration,
    /// Most bytes kept of each of stdout and stderr (the tail is kept).
    pub output_cap: usize,
}

/// Set to `true` from any thread to kill the worker tree at once.
pub type CancelFlag = Arc<AtomicBool>;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WorkerExit {
    /// The worker exited with this status.
    Exited(i32),
    /// Killed by a signal the worker did not ask for (e.g. SIGKILL from the kernel).
    Signaled(i32),
    TimedOut,
    Cancelled,
}

#[derive(Debug, Clone)]
pub struct WorkerOutcome {
    pub exit: WorkerExit,
    /// The last `output_cap` bytes of stdout, lossily decoded.
    pub stdout_tail: String,
    /// The last `output_cap` bytes of stderr, lossily decoded.
    pub stderr_tail: String,
    pub elapsed: Duration,
}

#[derive(Debug, thiserror::Error)]
pub enum RunnerError {
    #[error("could not start the worker: {0}")]
    Spawn(String),
}

/// Run one worker to completion, time-out or cancellation.
pub fn run_worker(
    request: &WorkerRequest,
    cancel: &CancelFlag,
) -> Result<WorkerOutcome, RunnerError> {
    let _ = (request, cancel);
    Err(RunnerError::Spawn("not implemented yet".into()))
}
