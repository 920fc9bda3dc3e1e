//! Running a worker: everything about starting, watching and ending a process.
//!
//! - [`job`]: one run set up — a fresh private run directory ([`run_dir`]), the worker's
//!   script in it and the confinement plan made from the data folder and the limits.
//! - [`runner`]: the one way to start a worker process ([`runner::worker_command`]), to
//!   watch it to its end (deadline, cancel; [`disk`] adds the run directory's size) and to
//!   kill its process group ([`runner::kill_group`]); [`child_env`] is its environment,
//!   built from scratch.
//! - [`warm`]: the pool long-lived hosts keep a warm worker in — the single-use warm worker,
//!   or on Linux the [`fork_server`] that forks a fresh child per figure (its messages in
//!   `fork_server::protocol`).
//!
//! The worker process's own side (confine itself, start the embedded Python) is
//! `crate::worker` and `crate::interpreter`.

pub mod child_env;
pub mod disk;
#[cfg(target_os = "linux")]
pub(crate) mod fork_server;
pub(crate) mod job;
pub(crate) mod run_dir;
pub(crate) mod runner;
pub mod warm;
