//! One way to set up a worker run: a fresh private run directory, the worker script in it,
//! the confinement plan made from the data folder and the limits, and the start. A figure
//! (cold), a fixed script of ours (the inspection, the selftest), a warm worker and a fork
//! server are all set up here, so each gets exactly the plan a figure gets for its run
//! directory; nothing else in the crate builds a [`WorkerRequest`].

use super::limits::Limits;
use super::run_dir::{RunDir, RunDirError};
use super::runner::{self, CancelFlag, RunnerError, WorkerOutcome, WorkerRequest};
use crate::confine::ConfinePlan;
#[cfg(target_os = "linux")]
use crate::confine::ProcessRole;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Name of the worker script inside the run directory.
pub const SCRIPT_NAME: &str = "worker.py";

/// Why a worker run could not be set up or started. Each message names the file or folder
/// and what to do.
#[derive(Debug, thiserror::Error)]
pub enum JobError {
    #[error(transparent)]
    RunDir(#[from] RunDirError),
    #[error(
        "could not write `{}`: {source}; check that the temporary folder is writable",
        path.display()
    )]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[cfg(target_os = "linux")]
    #[error(
        "could not create `{}`: {source}; check that the temporary folder is writable",
        path.display()
    )]
    CreateDir {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error(transparent)]
    Plan(#[from] PlanError),
    #[error(transparent)]
    Runner(#[from] RunnerError),
    #[cfg(target_os = "linux")]
    #[error("could not start `{}`: {source}; reinstall PDFAgent", exe.display())]
    Start {
        exe: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// Why the confinement plan of a run could not be made.
#[derive(Debug, thiserror::Error)]
pub enum PlanError {
    #[error(transparent)]
    Install(#[from] crate::locate::FindError),
    #[error(transparent)]
    Updated(#[from] crate::install_identity::Updated),
}

impl JobError {
    /// The installation changed under the host: nothing was started, and the error is not
    /// the run's (see `install_identity`).
    pub(crate) fn updated(&self) -> Option<crate::install_identity::Updated> {
        match self {
            JobError::Plan(PlanError::Updated(updated)) => Some(*updated),
            _ => None,
        }
    }
}

/// A worker run being set up: its run directory (removed when the job, or the [`RunDir`] it
/// hands on, is dropped) and the request the runner starts it with.
pub(crate) struct WorkerJob {
    run: RunDir,
    request: WorkerRequest,
}

impl WorkerJob {
    /// A job in a fresh run directory in the temporary folder, confined to `src` (none for the
    /// selftest, which reads no data) read-only and its run directory read-write, under
    /// `limits`. Its script is written with [`Self::write_script`].
    pub(crate) fn new(src: Option<&Path>, limits: &Limits) -> Result<WorkerJob, JobError> {
        Self::in_run_dir(RunDir::create()?, src, limits)
    }

    /// A job in a run directory of the caller's: a fork server's children get theirs inside
    /// the server's, the security suites name their own (which are then left in place).
    pub(crate) fn in_run_dir(
        run: RunDir,
        src: Option<&Path>,
        limits: &Limits,
    ) -> Result<WorkerJob, JobError> {
        let request = WorkerRequest {
            script: run.path().join(SCRIPT_NAME),
            run_dir: run.path().to_path_buf(),
            confine: plan(src, run.path(), limits)?,
            timeout: limits.timeout,
            output_cap: limits.output_cap,
        };
        Ok(WorkerJob { run, request })
    }

    /// Run as a fork server: the same plan, but its seccomp filter lets it fork.
    #[cfg(target_os = "linux")]
    pub(crate) fn for_fork_server(mut self) -> WorkerJob {
        self.request.confine.role = ProcessRole::ForkServer;
        self
    }

    /// Let the worker also write `dir`: a fork server prepared by the security suites, whose
    /// children run in folders the suites name rather than inside the server's.
    #[cfg(target_os = "linux")]
    pub(crate) fn also_writable(&mut self, dir: PathBuf) {
        self.request.confine.read_write.push(dir);
    }

    /// The run directory (resolved: what the worker's confinement names).
    pub(crate) fn path(&self) -> &Path {
        self.run.path()
    }

    /// Write the worker script.
    pub(crate) fn write_script(&self, text: &str) -> Result<(), JobError> {
        write(&self.request.script, text)
    }

    /// Write a file the worker or the tests read into the run directory (a request, a
    /// marker).
    pub(crate) fn write_file(&self, name: &str, text: &str) -> Result<(), JobError> {
        write(&self.path().join(name), text)
    }

    /// Create a folder in the run directory (a fork server's children's run directories).
    #[cfg(target_os = "linux")]
    pub(crate) fn create_dir(&self, name: &str) -> Result<(), JobError> {
        let path = self.path().join(name);
        std::fs::create_dir(&path).map_err(|source| JobError::CreateDir { path, source })
    }

    /// Run the worker to its end, time-out or `cancel`.
    pub(crate) fn run(&self, cancel: &CancelFlag) -> Result<WorkerOutcome, JobError> {
        Ok(runner::run_worker(&self.request, cancel, None)?.0)
    }

    /// Run the worker, stopping it when its run directory grows past `max_bytes` (or too many
    /// files): the outcome, and whether the disk cap stopped it.
    pub(crate) fn run_watching_disk(
        &self,
        cancel: &CancelFlag,
        max_bytes: u64,
    ) -> (Result<WorkerOutcome, RunnerError>, bool) {
        match runner::run_worker(&self.request, cancel, Some(max_bytes)) {
            Ok((outcome, over_disk_cap)) => (Ok(outcome), over_disk_cap),
            Err(err) => (Err(err), false),
        }
    }

    /// Start the worker with a pipe for its code on stdin (a warm worker), in its own process
    /// group; it waits there until [`runner::SpawnedWorker::send_code`].
    #[cfg(not(target_os = "linux"))]
    pub(crate) fn spawn_waiting(&self) -> Result<runner::SpawnedWorker, JobError> {
        self.prepare()?;
        Ok(runner::SpawnedWorker::spawn(
            &self.request.confine.executable,
            &self.request,
            true,
        )?)
    }

    /// The complete environment to start the worker with, the run directory prepared as the
    /// runner prepares it (for a process started by someone else: the fork server, the
    /// security suites' prepared runs).
    pub(crate) fn env(&self) -> Result<BTreeMap<String, String>, JobError> {
        self.prepare()?;
        Ok(runner::worker_env(&self.request)?)
    }

    /// The script the worker runs.
    pub(crate) fn script(&self) -> &Path {
        &self.request.script
    }

    /// The run directory, to keep (and remove) after the worker is done.
    pub(crate) fn into_run_dir(self) -> RunDir {
        self.run
    }

    fn prepare(&self) -> Result<(), JobError> {
        let runtime = Some(self.request.confine.runtime.as_path());
        Ok(runner::prepare_run_dir(self.path(), runtime)?)
    }

    /// The executable the worker is started from (the plan's: see `locate::InstallPaths`).
    #[cfg(target_os = "linux")]
    pub(crate) fn executable(&self) -> &Path {
        &self.request.confine.executable
    }
}

fn write(path: &Path, text: &str) -> Result<(), JobError> {
    std::fs::write(path, text).map_err(|source| JobError::Write {
        path: path.to_path_buf(),
        source,
    })
}

/// The confinement plan of a run directory: the executable file, the runtime and `src`
/// read-only, the run directory read-write (see `ConfinePlan::for_run`), the limits' memory,
/// CPU time and file size. Both install paths are resolved here, once — after checking that
/// they are still the installation the host started from: every worker (cold, warm, a fork
/// server and each of its children, the selftest's, the inspection's) gets its plan here,
/// so none starts from an updated installation.
pub(crate) fn plan(
    src: Option<&Path>,
    run_dir: &Path,
    limits: &Limits,
) -> Result<ConfinePlan, PlanError> {
    crate::install_identity::check()?;
    let install = crate::locate::InstallPaths::find()?;
    // The plan's paths reach the worker's environment and Python: plain on Windows.
    let src = src.map(crate::plain_path::plain_ref);
    Ok(ConfinePlan::for_run(
        &install.executable,
        &install.runtime,
        src.as_deref(),
        run_dir,
        limits.confine_limits(),
    ))
}
