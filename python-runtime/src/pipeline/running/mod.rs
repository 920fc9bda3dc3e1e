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
