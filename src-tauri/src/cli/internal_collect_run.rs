//! `pdfagent internal-collect-run --run-dir DIR --figures DIR --name NAME [--format F]`
//! (hidden): keep the figures a finished worker left in its run directory, exactly as a
//! figure run does after the worker exits (`python_runtime::capture`), and print
//! the outcome as JSON. It runs nothing. With `internal-prepare-run`, the black-box
//! security suites put the parent's reading of the run directory under attack with Layer 1
//! bypassed: planted links, FIFOs, forged lists of figures. With `--code FILE --src DIR`
//! the figures carry the provenance record a figure run writes (the code, the data files
//! read, what the run-time guard refused, from the worker's answer): the guard suite reads
//! it back. Records are untrusted input anyway (a rerun meets Layer 1 again).

use python_runtime::{FigureFormat, Limits, answer, validate};
use python_runtime::{capture, provenance};
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
    /// The code the worker ran: write provenance records (with `--src`).
    #[arg(long, requires = "src")]
    code: Option<PathBuf>,
    /// The data folder the worker ran in (with `--code`).
    #[arg(long, requires = "code")]
    src: Option<PathBuf>,
}

pub fn run(args: InternalCollectRunArgs) -> i32 {
    if let Err(e) = validate::check_name(&args.name) {
        eprintln!("error: {e}");
        return super::EXIT_BAD_INPUT;
    }
    let out = args.run_dir.join(args.format.out_name());
    let guard = answer::read(&args.run_dir).guard;
    let origin = match (&args.code, &args.src) {
        (Some(code), Some(src)) => match std::fs::read_to_string(code) {
            Ok(code) => Some(provenance::Origin {
                name: args.name.clone(),
                code,
                src: src.clone(),
                limits: Limits::default(),
                guard: guard.clone(),
            }),
            Err(e) => {
                eprintln!(
                    "error: could not read the code file {}: {e}",
                    code.display()
                );
                return super::EXIT_BAD_INPUT;
            }
        },
        _ => None,
    };
    let kept = capture::keep_figures(
        &args.run_dir,
        &out,
        args.format,
        &args.figures,
        &args.name,
        Limits::default().figure_max_bytes,
        // Without --code: no record (the Layer 2 suites' code was never checked).
        origin.as_ref(),
        std::time::SystemTime::now(),
    );
    let json = match kept {
        Ok(kept) => serde_json::json!({
            "ok": true,
            "figures": kept.figures,
            "hint": kept.note,
            "replaced": kept.replaced,
            "guard": guard,
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
