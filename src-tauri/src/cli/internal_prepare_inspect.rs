//! `pdfagent internal-prepare-inspect --src DIR --run-dir DIR --path REL` (hidden): write the
//! inspection of `DIR/REL` into the run directory — the script and request
//! `pipeline::data::inspect` writes — with REL NOT resolved (links and `..` as given), and print the
//! environment the runner would start the worker with, as JSON. It runs nothing. The
//! black-box security suites start the worker themselves to show that the confinement alone
//! keeps a link out of the folder unread and a pickle unloaded (see
//! `python_runtime::prepared`).

use super::internal_prepare_run::{self, PrepareCommandError};
use python_runtime::inspect;
use python_runtime::prepared;
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct InternalPrepareInspectArgs {
    #[arg(long)]
    src: PathBuf,
    #[arg(long)]
    run_dir: PathBuf,
    /// The file, relative to `--src`, used as given.
    #[arg(long)]
    path: String,
}

pub fn run(args: InternalPrepareInspectArgs) -> i32 {
    let limits = inspect::default_limits();
    let prepared =
        prepared::prepare_unresolved_inspection(&args.src, &args.run_dir, &args.path, &limits)
            .map_err(PrepareCommandError::from)
            .and_then(|run| Ok(serde_json::to_string(&run)?));
    internal_prepare_run::print_prepared(prepared)
}
