//! `pdfagent internal-collect-run --run-dir DIR --figures DIR --name NAME [--format F]`
//! (hidden): keep the figures a finished worker left in its run directory, exactly as a
//! figure run does after the worker exits (`python_runtime::pipeline::figures::capture`), and print
//! the outcome as JSON. It runs nothing. With `internal-prepare-run`, the black-box
//! security suites put the parent's reading of the run directory under attack with Layer 1
//! bypassed: planted links, FIFOs, forged lists of figures.

use python_runtime::pipeline::figures::capture;
use python_runtime::pipeline::{FigureFormat, Limits, validate};
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct InternalCollectRunArgs {
    #[arg(long)]
    run_dir: PathBuf,
    #[arg(long)]
    figures: PathBuf,
    #[arg(long)]
    name: String,
    #[arg(long, default_value = "png")]
    format: FigureFormat,
}

pub fn run(args: InternalCollectRunArgs) -> i32 {
    if let Err(e) = validate::check_name(&args.name) {
        eprintln!("error: {e}");
        return super::EXIT_BAD_INPUT;
    }
    let out = args.run_dir.join(args.format.out_name());
    let kept = capture::keep_figures(
        &args.run_dir,
        &out,
        args.format,
        &args.figures,
        &args.name,
        Limits::default().figure_max_bytes,
        // Layer-2 test support runs unchecked code: no provenance record claims it was checked.
        None,
        std::time::SystemTime::now(),
    );
    let json = match kept {
        Ok(kept) => serde_json::json!({
            "ok": true,
            "figures": kept.figures,
            "hint": kept.note,
            "replaced": kept.replaced,
        }),
        Err(failure) => serde_json::json!({
            "ok": false,
            "no_output": failure.no_output,
            "hint": failure.message,
        }),
    };
    outln!("{json}");
    0
}
