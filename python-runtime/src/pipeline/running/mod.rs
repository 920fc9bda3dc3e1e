//! Running a worker: everything about starting, watching and ending a process.
//!
//! - [`job`]: one run set up — a fresh private run directory ([`run_dir`]), the worker's
//!   script in it and the confinement plan made from the data folder and the limits.
//! - [`runner`]: the one way to start a worker process ([`runner::worker_command`]), to
//!   watch it to its end (deadline, cancel; [`disk`] adds the run directory's size) and to
//!   kill its process group ([`runner::kill_group`]); [`child_env`] is its environment,
//!   built from scratch.
//! - [`warm`]: the pool long-lived hosts keep a warm worker in — the single-use warm worker,
//!   or on Linux the [`fork_server`] that forks a fresh child per figure; [`protocol`] holds
//!   every message between the host and them.
//!
//! The worker process's own side (confine itself, start the embedded Python) is
//! `crate::worker` and `crate::interpreter`.

pub mod child_env;
pub mod disk;
#[cfg(target_os = "linux")]
pub(crate) mod fork_server;
pub(crate) mod job;
pub mod protocol;
pub(crate) mod run_dir;
pub(crate) mod runner;
pub mod warm;

use super::{CheckedSource, Limits, Stage, validate::ValidInput};

/// Remove, in the background, the run directories that killed hosts left behind in the
/// temporary folder (`run_dir::sweep_orphaned`). Every host calls it as it starts — the
/// window's and the MCP server's pool, the command line's `make-figure` — so what a killed
/// host's orphaned worker wrote before its end (it dies within a fraction of a second of its
/// host, or at its kernel time-out) is removed by the next host. No kernel quota bounds the
/// number of files a worker writes without a mount namespace; `RLIMIT_FSIZE` bounds each one,
/// the wall-clock timer the time they are written in, the host's disk watch the total.
pub fn sweep_left_behind() {
    std::thread::spawn(|| run_dir::sweep_orphaned(&std::env::temp_dir()));
}
use runner::CancelFlag;
use std::time::Instant;

/// One figure's run, as every way of running it (cold, the single-use warm worker, a fork
/// server's child) and the judging after it (`collect`) see it.
pub(crate) struct RunContext<'a> {
    /// The figure's name (its file stem; "canary" for the selftest's).
    pub name: &'a str,
    /// The code, checked by Layer 1 (or a canary's).
    pub source: &'a CheckedSource,
    /// The request after input validation: folders, format, options.
    pub valid: &'a ValidInput,
    pub limits: &'a Limits,
    pub cancel: &'a CancelFlag,
    pub progress: &'a dyn Fn(Stage),
    /// When the figure was submitted: its time limit and its `ms` count from here.
    pub started: Instant,
}
