//! `pdfagent internal-inspect --src DIR --path REL` (hidden): inspect one data file exactly as
//! the window's `preview_file` does (`pipeline::data::inspect` with the structured preview) and
//! print the result as the window receives it, as JSON; exit 0, or 2 with the error's sentence
//! on stderr. The black-box suites compare its text with MCP's `describe_data`, which makes
//! the same call, so the two front ends are shown to say the same. `--memory-mib` lowers the
//! worker's memory limit (its address space on Linux): the suites show that a big file is
//! described within a small one.

use python_runtime::CancelFlag;
use python_runtime::inspect::{self, Detail};
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct InternalInspectArgs {
    #[arg(long)]
    src: PathBuf,
    /// The file, relative to `--src`.
    #[arg(long)]
    path: String,
    /// The worker's memory limit in MiB, instead of the inspection's default.
    #[arg(long)]
    memory_mib: Option<u64>,
}

pub fn run(args: InternalInspectArgs) -> i32 {
    let cancel = CancelFlag::default();
    let mut limits = inspect::default_limits();
    if let Some(mib) = args.memory_mib {
        limits.memory_bytes = mib.saturating_mul(1 << 20);
    }
    match inspect::inspect(&args.src, &args.path, Detail::Preview, &limits, &cancel) {
        Ok(inspection) => match serde_json::to_string(&inspection) {
            Ok(json) => {
                outln!("{json}");
                0
            }
            Err(e) => {
                eprintln!("error: the inspection could not be written as JSON: {e}");
                2
            }
        },
        Err(e) => {
            eprintln!("error: {e}");
            2
        }
    }
}
