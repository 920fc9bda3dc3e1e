//! Running a worker: everything about starting, watching and ending a process. This layer
//! knows processes, run directories and limits; it does not know figures' names, results or
//! the checks before a run (the pipeline above it: `pool.rs` picks a [`Backend`], runs the
//! figure on it and judges the [`FinishedRun`] in `finish.rs`).
//!
//! - [`Backend`]: the one way a figure runs — cold ([`cold`]), on the single-use warm worker
//!   or in a fork server's child ([`warm`]) — each ending in one [`FinishedRun`].
//! - [`job`]: one run set up — a fresh private run directory ([`run_dir`]), the worker's
//!   script in it and the confinement plan made from the data folder and the [`limits`].
//! - [`runner`]: the one way to start a worker process ([`runner::worker_command`]), to
//!   watch it to its end (deadline, cancel; [`disk`] adds the run directory's size) and to
//!   kill its process group ([`runner::kill_group`]); [`child_env`] is its environment,
//!   built from scratch.
//! - [`warm`]: the warm processes a pool keeps — the single-use warm worker, or on Linux the
//!   [`fork_server`] that forks a fresh child per figure; [`protocol`] holds every message
//!   between the host and them.
//!
//! The worker process's own side (confine itself, start the embedded Python) is
//! `crate::worker` and `crate::interpreter`.

pub mod child_env;
mod cold;
pub mod disk;
#[cfg(target_os = "linux")]
pub(crate) mod fork_server;
pub(crate) mod job;
pub mod limits;
pub mod protocol;
pub(crate) mod run_dir;
pub(crate) mod runner;
pub mod warm;

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
#[cfg(target_os = "linux")]
use fork_server::ForkServer;
use job::JobError;
use limits::Limits;
use run_dir::RunDir;
use runner::{CancelFlag, RunnerError, WorkerOutcome};
use std::path::{Path, PathBuf};
#[cfg(target_os = "linux")]
use std::sync::Arc;
use std::time::Instant;

/// What the worker is handed for one figure, written by the layer above (`script.rs` owns
/// the worker's scripts): this layer only puts it where the process reads it, once it knows
/// the run directory `OUT` is in.
pub(crate) trait FigureText {
    /// A cold worker's whole script, saving the figure at `out`.
    fn script(&self, out: &Path) -> String;
    /// What a warm process reads instead ([`protocol::figure_request`]), saving at `out`.
    fn request(&self, out: &Path) -> String;
}

/// Where a run is, as a backend reports it (the pipeline's `Stage` has these two among its
/// own).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Step {
    /// Setting the process up (or taking a warm one).
    Starting,
    /// The code has gone to the process.
    Running,
}

/// One figure's run, as every backend sees it.
pub(crate) struct FigureRun<'a> {
    /// The data folder (validated): the worker's `SRC`, read-only.
    pub src: &'a Path,
    /// What `OUT` is called in the run directory (`out.png`, `out.svg`, …).
    pub out_name: &'static str,
    pub text: &'a dyn FigureText,
    pub limits: &'a Limits,
    pub cancel: &'a CancelFlag,
    pub progress: &'a dyn Fn(Step),
    /// When the figure was submitted: its time limit counts from here.
    pub started: Instant,
}

/// A run that has ended, on whichever backend: what the pipeline judges and keeps the
/// figures of. Its run directory is removed when it is dropped.
pub(crate) struct FinishedRun {
    /// How the process ended (or why it could not be watched).
    pub outcome: Result<WorkerOutcome, RunnerError>,
    /// Whether the run directory's disk cap stopped it.
    pub over_cap: bool,
    /// Where the code was told to save (`OUT`), inside `run`.
    pub out: PathBuf,
    pub run: RunDir,
}

/// Where a figure runs.
pub(crate) enum Backend {
    /// A fresh worker started for this figure.
    Cold,
    /// The single-use warm worker, taken out of its pool (outside Linux). Boxed: it holds
    /// the process and its run directory, and the enum is moved by value.
    #[cfg(not(target_os = "linux"))]
    SingleUse(Box<warm::WarmWorker>),
    /// A fresh child of a pool's fork server, which stays in the pool (Linux).
    #[cfg(target_os = "linux")]
    ForkServer(Arc<ForkServer>),
}

impl Backend {
    /// Run `figure` to its end. A warm backend the code never reached (it died while idle,
    /// could not fork, was gone before it took the code) runs the figure cold instead: a
    /// figure never fails for a warm process it did not run in. An error is a cold run that
    /// could not be set up.
    pub(crate) fn run(self, figure: &FigureRun<'_>) -> Result<FinishedRun, JobError> {
        let warm = match self {
            Backend::Cold => None,
            #[cfg(not(target_os = "linux"))]
            Backend::SingleUse(worker) => (*worker).run(figure),
            #[cfg(target_os = "linux")]
            Backend::ForkServer(server) => server.run(figure),
        };
        match warm {
            Some(finished) => Ok(finished),
            None => cold::run(figure),
        }
    }
}
