//! `pdfagent internal-prepare-run --src DIR --run-dir DIR --code FILE [--timeout S]
//! [--memory MB]` (hidden): write the worker script for unchecked code and print the exact
//! environment the runner would start the worker with, as JSON. It runs nothing. The
//! black-box security suites use it to test Layer 2 on its own (see
//! `python_runtime::pipeline::prepared`).

use python_runtime::pipeline::{Limits, prepared};
use std::path::PathBuf;
use std::time::Duration;

#[derive(Debug, clap::Args)]
pub struct InternalPrepareRunArgs {
    #[arg(long)]
    src: PathBuf,
    #[arg(long)]
    run_dir: PathBuf,
    #[arg(long)]
    code: PathBuf,
    #[arg(long, default_value_t = 90)]
    timeout: u64,
    #[arg(long, default_value_t = 4096)]
    memory: u64,
}

pub fn run(args: InternalPrepareRunArgs) -> i32 {
    let code = match std::fs::read_to_string(&args.code) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: could not read `{}`: {e}", args.code.display());
            return super::EXIT_BAD_INPUT;
        }
    };
    let limits = Limits {
        timeout: Duration::from_secs(args.timeout),
        memory_bytes: args.memory.saturating_mul(1 << 20),
        ..Limits::default()
    };
    match prepared::prepare_unchecked_run(&args.src, &args.run_dir, &code, &limits) {
        Ok(run) => {
            println!("{}", serde_json::to_string(&run).unwrap_or_default());
            0
        }
        Err(e) => {
            eprintln!("error: {e}");
            super::EXIT_BAD_INPUT
        }
    }
}
