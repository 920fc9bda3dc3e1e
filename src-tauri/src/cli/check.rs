//! `pdfagent check --code FILE|- [--json]` (stub; the checker work fills this in).

use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct CheckArgs {
    /// The Python file to check, or `-` for standard input.
    #[arg(long)]
    code: PathBuf,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(args: CheckArgs) -> i32 {
    let _ = args;
    0
}
