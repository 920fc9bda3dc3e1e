//! The warm processes: a worker started and warmed up before its figure is submitted, so a
//! figure does not pay the interpreter start and `import numpy, matplotlib` after it is
//! submitted. The pool that keeps one per (source folder, figures folder, limits) and picks
//! it for a figure is the pipeline's (`pipeline/pool.rs`); this is the process side.
//!
//! A warm worker is started exactly like a cold one — the same environment, the same
//! confinement plan applied by the worker to itself before Python starts, its own fresh
//! private run directory — and then warms up and blocks reading its code from stdin. The
//! checked code goes down the pipe; the worker runs it once and exits. A process that ran
//! code is never reused. A worker that died while waiting is discarded and the figure runs
//! cold ([`super::Backend::run`]); a figure never waits on a dead one.
//!
//! `OUT` is sent with the code (`{"out": ..., "code": ...}` on stdin), not fixed at spawn,
//! so one warm worker serves every figure format; `SRC` and the limits are fixed at spawn
//! (they are in its confinement plan), so changing them discards the worker.
//!
//! On Linux the warm process is a fork server instead (`running/fork_server`): warmed up
//! once, it forks a fresh, freshly confined child per figure, so every figure is warm —
//! back to back and side by side (up to one figure per core at once) — and the server
//! stays. Elsewhere (no stackable confinement for a forked child) it is one single-use warm
//! worker ([`single_use`]).

#[cfg(target_os = "linux")]
mod fork_server;
#[cfg(not(target_os = "linux"))]
mod single_use;

use super::runner::WorkerExit;
#[cfg(target_os = "linux")]
pub(crate) use fork_server::WarmWorker;
#[cfg(not(target_os = "linux"))]
pub(crate) use single_use::WarmWorker;
use std::path::Path;

/// The file the parent puts in a warm worker's run directory before starting it: tells a
/// warm worker from a cold one from outside (tests, diagnostics); nothing here reads it.
#[cfg_attr(
    target_os = "linux",
    expect(
        dead_code,
        reason = "only the single-use backend (not Linux) puts it there"
    )
)]
pub const WARM_MARKER: &str = ".pdfagent-warm";
/// The file a warm worker creates in its run directory once it has warmed up.
pub const READY_MARKER: &str = ".pdfagent-warm-ready";
/// The marker a warm worker leaves once it has read the code: without it, a worker that
/// died never ran the code (killed or crashed while idle), and the figure is made cold.
pub const TAKEN_MARKER: &str = ".pdfagent-warm-taken";

/// Whether a warm process (the single-use worker, a fork server's child) that ended with
/// `exit` took its figure's code: it leaves [`TAKEN_MARKER`] in `run_dir` once it has read
/// it. A signal can be on its way when the process is taken — the request is accepted, then
/// the process dies before reading it: the code never ran, and the figure must not fail for
/// it (it is made cold). Stopped by its time limit or cancel, the figure has had its turn.
pub(crate) fn took_code(run_dir: &Path, exit: &WorkerExit) -> bool {
    run_dir.join(TAKEN_MARKER).exists()
        || matches!(exit, WorkerExit::TimedOut | WorkerExit::Cancelled)
}
