//! `pdfagent internal-prepare-run --src DIR --run-dir DIR --code FILE [--timeout S]
//! [--memory MB] [--fork-server DIR]` (hidden): write the worker script for unchecked code
//! and print the exact environment the runner would start the worker with, as JSON. It runs
//! nothing. The black-box security suites use it to test Layer 2 on its own (see
//! `python_runtime::prepared`).
//!
//! With `--fork-server DIR` (Linux) it prepares a fork server in DIR instead, with one
//! request per `--run-dir`/`--code` pair (both may be repeated, in the same order).

use python_runtime::{Limits, prepared};
use std::path::PathBuf;
use std::time::Duration;

/// Why a hidden `internal-prepare-*` command printed nothing.
#[derive(Debug, thiserror::Error)]
pub(super) enum PrepareCommandError {
    #[error(transparent)]
    Prepare(#[from] prepared::PrepareError),
    #[error(transparent)]
    Json(#[from] serde_json::Error),
    #[error("one --run-dir and --code without --fork-server")]
    OneRunOnly,
    #[cfg(not(target_os = "linux"))]
    #[error("the fork server exists on Linux only")]
    NoForkServer,
}

#[derive(Debug, clap::Args)]
pub struct InternalPrepareRunArgs {
    #[arg(long)]
    src: PathBuf,
    #[arg(long, required = true)]
    run_dir: Vec<PathBuf>,
    #[arg(long, required = true)]
    code: Vec<PathBuf>,
    #[arg(long, default_value_t = 90)]
    timeout: u64,
    #[arg(long, default_value_t = 4096)]
    memory: u64,
    /// Prepare a fork server in this folder, with one request per run directory and code.
    #[arg(long, value_name = "DIR")]
    fork_server: Option<PathBuf>,
}

pub fn run(args: InternalPrepareRunArgs) -> i32 {
    if args.run_dir.len() != args.code.len() {
        eprintln!("error: give one --code per --run-dir");
        return super::EXIT_BAD_INPUT;
    }
    let mut codes = Vec::new();
    for path in &args.code {
        match std::fs::read_to_string(path) {
            Ok(code) => codes.push(code),
            Err(e) => {
                eprintln!("error: could not read `{}`: {e}", path.display());
                return super::EXIT_BAD_INPUT;
            }
        }
    }
    let limits = Limits {
        timeout: Duration::from_secs(args.timeout),
        memory_bytes: args.memory.saturating_mul(1 << 20),
        ..Limits::default()
    };
    let prepared = match &args.fork_server {
        Some(server_dir) => prepare_fork_server(server_dir, &args, codes, &limits),
        None if args.run_dir.len() == 1 => {
            prepared::prepare_unchecked_run(&args.src, &args.run_dir[0], &codes[0], &limits, true)
                .map_err(PrepareCommandError::from)
                .and_then(|run| Ok(serde_json::to_string(&run)?))
        }
        None => Err(PrepareCommandError::OneRunOnly),
    };
    print_prepared(prepared)
}

/// What a hidden `internal-prepare-*` command prepared, printed as JSON (exit 0), or the
/// sentence why not on stderr (exit 4).
pub(super) fn print_prepared(prepared: Result<String, PrepareCommandError>) -> i32 {
    match prepared {
        Ok(json) => {
            outln!("{json}");
            0
        }
        Err(e) => {
            eprintln!("error: {e}");
            super::EXIT_BAD_INPUT
        }
    }
}

#[cfg(target_os = "linux")]
fn prepare_fork_server(
    server_dir: &std::path::Path,
    args: &InternalPrepareRunArgs,
    codes: Vec<String>,
    limits: &Limits,
) -> Result<String, PrepareCommandError> {
    let runs: Vec<(PathBuf, String)> = args.run_dir.iter().cloned().zip(codes).collect();
    let server = prepared::prepare_unchecked_fork_server(&args.src, server_dir, &runs, limits)?;
    Ok(serde_json::to_string(&server)?)
}

#[cfg(not(target_os = "linux"))]
fn prepare_fork_server(
    _server_dir: &std::path::Path,
    _args: &InternalPrepareRunArgs,
    _codes: Vec<String>,
    _limits: &Limits,
) -> Result<String, PrepareCommandError> {
    Err(PrepareCommandError::NoForkServer)
}
