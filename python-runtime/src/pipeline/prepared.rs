//! Layer-2 test support: a worker run prepared exactly as [`super::make_figure`] prepares
//! it — the same worker script (preamble + code), the same confinement plan, the same
//! environment — but neither checked nor started.
//!
//! The black-box security suites use it (through the hidden `pdfagent internal-prepare-run`)
//! to start the real executable in worker mode themselves, so Layer 2 is tested on its own
//! without any switch that turns Layer 1 off: preparing runs nothing, and starting a worker
//! takes a shell that can set `PDFAGENT_PYRUN` — from which any program could be run anyway.
//! No window, MCP or `make-figure` path reaches this module. The same goes for an inspection
//! with its path left unresolved ([`prepare_unresolved_inspection`]).
//!
//! Linux also prepares a fork server ([`prepare_unchecked_fork_server`]): the suites start it
//! themselves and write the prepared requests to its stdin, so the same attacks run as
//! children of the server, each confined by its own plan on top of the server's.

use super::running::job::{JobError, WorkerJob};
use super::running::run_dir::RunDir;
use super::{Limits, script};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Why a run, an inspection or a fork server could not be prepared.
#[derive(Debug, thiserror::Error)]
pub enum PrepareError {
    #[error("`{}` is not an existing folder: {source}", path.display())]
    NoFolder {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error(transparent)]
    Job(#[from] JobError),
    #[error(transparent)]
    Inspection(#[from] super::data::inspect::WriteRunError),
    #[cfg(target_os = "linux")]
    #[error(transparent)]
    Plan(#[from] super::running::job::PlanError),
    #[cfg(target_os = "linux")]
    #[error("could not create the output files in `{}`: {source}", run_dir.display())]
    OutputFiles {
        run_dir: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[cfg(target_os = "linux")]
    #[error("could not write the request file in `{}`: {source}", run_dir.display())]
    RequestFile {
        run_dir: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[cfg(target_os = "linux")]
    #[error("could not write the fork request as JSON: {0}")]
    ForkLine(#[source] serde_json::Error),
    #[cfg(target_os = "linux")]
    #[error(transparent)]
    GoLine(serde_json::Error),
}

/// A worker ready to start: run `env -i <env> <current_exe>` in the run directory.
#[derive(Debug, Clone, serde::Serialize)]
pub struct PreparedRun {
    pub run_dir: PathBuf,
    pub script: PathBuf,
    /// The code's `OUT`.
    pub out: PathBuf,
    /// The worker's complete environment, `PDFAGENT_PYRUN` and `PDFAGENT_CONFINE` included.
    pub env: BTreeMap<String, String>,
}

/// Prepare `code` (unchecked) to run with `src` as `SRC` in the existing folder `run_dir`;
/// `guard`: whether the run-time guard is armed before it (the selftest's canaries prove
/// Layer 2 on its own and run without it).
pub fn prepare_unchecked_run(
    src: &Path,
    run_dir: &Path,
    code: &str,
    limits: &Limits,
    guard: bool,
) -> Result<PreparedRun, PrepareError> {
    let src = canonical(src)?;
    let run_dir = canonical(run_dir)?;
    let out = run_dir.join(script::OUT_NAME);
    let job = WorkerJob::in_run_dir(RunDir::existing(run_dir.clone()), Some(&src), limits)?;
    let options = script::RunOptions {
        guard,
        ..script::RunOptions::new(super::FigureFormat::Png)
    };
    job.write_script(&script::render(&src, &out, code, options))?;
    Ok(PreparedRun {
        script: job.script().to_path_buf(),
        env: job.env()?,
        run_dir,
        out,
    })
}

/// An inspection ready to start, like [`PreparedRun`] (it has no `OUT`).
#[derive(Debug, Clone, serde::Serialize)]
pub struct PreparedInspection {
    pub run_dir: PathBuf,
    pub script: PathBuf,
    pub env: BTreeMap<String, String>,
}

/// Prepare the inspection of `SRC/rel` in the existing folder `run_dir` exactly as
/// [`super::data::inspect::inspect`] does, except that `rel` is NOT resolved: the request names
/// `src` joined with `rel` as given, links and `..` included, so the suites can show that
/// the worker's confinement alone keeps a link out of the folder unread.
pub fn prepare_unresolved_inspection(
    src: &Path,
    run_dir: &Path,
    rel: &str,
    limits: &Limits,
) -> Result<PreparedInspection, PrepareError> {
    let (src, run_dir) = (canonical(src)?, canonical(run_dir)?);
    let job = WorkerJob::in_run_dir(RunDir::existing(run_dir.clone()), Some(&src), limits)?;
    let detail = super::data::inspect::Detail::Preview;
    super::data::inspect::write_run(&job, &src.join(rel), rel, detail)?;
    Ok(PreparedInspection {
        script: job.script().to_path_buf(),
        env: job.env()?,
        run_dir,
    })
}

/// `path` resolved, or the sentence that it is no existing folder.
fn canonical(path: &Path) -> Result<PathBuf, PrepareError> {
    path.canonicalize()
        .map_err(|source| PrepareError::NoFolder {
            path: path.to_path_buf(),
            source,
        })
}

/// A fork server ready to start (`env -i <env> <current_exe>` in `server_dir`, stdin and
/// stdout piped), and the request lines to write to its stdin.
#[cfg(target_os = "linux")]
#[derive(Debug, Clone, serde::Serialize)]
pub struct PreparedForkServer {
    pub server_dir: PathBuf,
    pub script: PathBuf,
    pub env: BTreeMap<String, String>,
    pub requests: Vec<PreparedRequest>,
}

/// One figure for a prepared fork server: its child writes `stdout`/`stderr` (created
/// here, empty) and saves `OUT` in `run_dir`.
#[cfg(target_os = "linux")]
#[derive(Debug, Clone, serde::Serialize)]
pub struct PreparedRequest {
    pub id: u64,
    pub run_dir: PathBuf,
    pub out: PathBuf,
    pub stdout: PathBuf,
    pub stderr: PathBuf,
    /// The line that has the server fork the child ahead of its figure (newline included).
    pub fork: String,
    /// The line that starts its figure (the request file is written already).
    pub go: String,
}

/// Prepare a fork server for `src` in the existing folder `server_dir`, and one request per
/// `(run_dir, code)` (unchecked). The children's plans are exactly the pool's; only where
/// their run directories are differs: the pool makes them inside the server's, here they
/// are the folders the suites name, so the server's own plan also lists them as writable.
#[cfg(target_os = "linux")]
pub fn prepare_unchecked_fork_server(
    src: &Path,
    server_dir: &Path,
    runs: &[(PathBuf, String)],
    limits: &Limits,
) -> Result<PreparedForkServer, PrepareError> {
    use super::running::fork_server::{self, STDERR_FILE, STDOUT_FILE};
    use super::running::protocol::{self, ForkRequest, HostMessage};
    let src = canonical(src)?;
    let server_dir = canonical(server_dir)?;
    let mut server =
        WorkerJob::in_run_dir(RunDir::existing(server_dir.clone()), Some(&src), limits)?
            .for_fork_server();
    server.write_script(&script::render_fork_server(&src))?;
    let mut requests = Vec::new();
    for (id, (run_dir, code)) in (1u64..).zip(runs) {
        let run_dir = canonical(run_dir)?;
        server.also_writable(run_dir.clone());
        // A suite may run several attacks in one run directory: each gets fresh output and
        // request files.
        let request_file = protocol::request_file(&run_dir, id);
        for name in [
            run_dir.join(STDOUT_FILE),
            run_dir.join(STDERR_FILE),
            request_file.clone(),
        ] {
            let _ = std::fs::remove_file(name);
        }
        fork_server::ChildOutput::create(&run_dir).map_err(|source| PrepareError::OutputFiles {
            run_dir: run_dir.clone(),
            source,
        })?;
        let out = run_dir.join(script::OUT_NAME);
        let child = fork_server::child_plan(&src, &run_dir, &server_dir, limits)?;
        let options = script::RunOptions::new(super::FigureFormat::Png);
        let request = protocol::figure_request(&out, code, options);
        fork_server::write_request(&request_file, &request).map_err(|source| {
            PrepareError::RequestFile {
                run_dir: run_dir.clone(),
                source,
            }
        })?;
        let fork = HostMessage::Fork(ForkRequest::new(id, &run_dir, &child, false))
            .to_line()
            .map_err(PrepareError::ForkLine)?;
        let go = HostMessage::Go { go: id }
            .to_line()
            .map_err(PrepareError::GoLine)?;
        requests.push(PreparedRequest {
            id,
            fork,
            go,
            stdout: run_dir.join(STDOUT_FILE),
            stderr: run_dir.join(STDERR_FILE),
            run_dir,
            out,
        });
    }
    let env = server.env()?;
    Ok(PreparedForkServer {
        server_dir,
        script: server.script().to_path_buf(),
        env,
        requests,
    })
}
