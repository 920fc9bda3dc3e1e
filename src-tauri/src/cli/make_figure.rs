//! `pdfagent make-figure --src DIR --name NAME --code FILE|- --figures DIR [--timeout S]
//! [--memory MB] [--format png|svg|pdf] [--json]`: a thin shell over `python_runtime::make_figure`.
//! Exit status: 0 done, 1 check, 2 run or no-output, 3 timeout, 4 input. Without `--json`,
//! a run longer than 2 s shows its stage on stderr (`progress.rs`).

use super::code::read_code;
use python_runtime::CancelFlag;
use python_runtime::contract::InputRule;
use python_runtime::progress::RunClock;
use python_runtime::{FigureFormat, FigureRequest, FigureResult, Outcome};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

#[derive(Debug, clap::Args)]
pub struct MakeFigureArgs {
    /// The data folder the code reads (its `SRC`; read-only to the code).
    #[arg(long, value_name = "DIR")]
    src: PathBuf,
    /// The figure's file stem: the figure is saved as `FIGURES/NAME.png` (or `.svg`, `.pdf`).
    #[arg(long)]
    name: String,
    /// The Python file to run, or `-` for standard input.
    #[arg(long, value_name = "FILE|-")]
    code: PathBuf,
    /// Where the figure is saved (created if missing).
    #[arg(long, value_name = "DIR")]
    pub(super) figures: PathBuf,
    #[command(flatten)]
    limits: super::LimitArgs,
    /// The figure's format: `OUT` gets this extension and the file is checked for it.
    #[arg(long, value_name = "png|svg|pdf", default_value = "png")]
    format: FigureFormat,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(args: MakeFigureArgs) -> i32 {
    // What a killed host's run left behind goes now (in the background; issue #40).
    python_runtime::sweep_left_behind();
    let code = match read_code(&args.code) {
        Ok(code) => code,
        Err(e) => {
            let message = format!(
                "could not read the code from `{}`: {e}; pass a readable Python file or `-` \
                 for stdin",
                args.code.display()
            );
            return report_input_error(InputRule::CodeUnreadable, &message, args.json);
        }
    };
    let request = FigureRequest {
        name: args.name,
        code,
        src: args.src,
        figures: args.figures,
        format: args.format,
        limits: args.limits.limits(),
        preview: false,
    };
    let cancel: CancelFlag = Arc::new(AtomicBool::new(false));
    crate::cli::interrupt::cancel_on_interrupt(&cancel);
    let result = if args.json {
        python_runtime::make_figure(&request, &cancel, &|_| {})
    } else {
        let clock = RunClock::start();
        super::progress::while_running(&clock, || {
            python_runtime::make_figure(&request, &cancel, &|stage| clock.observe(stage))
        })
    };
    if args.json {
        outln!("{}", result.to_json());
    } else {
        print_text(&result);
    }
    result.stage.exit_code()
}

/// A bad input found before the pipeline ran, as the pipeline's own `input` result.
pub(super) fn report_input_error(rule: InputRule, message: &str, json: bool) -> i32 {
    if json {
        outln!("{}", FigureResult::input_error(rule, message).to_json());
    } else {
        eprintln!("error: {message}");
    }
    Outcome::Input.exit_code()
}

fn print_text(result: &FigureResult) {
    match result.stage {
        Outcome::Done => {
            for figure in &result.figures {
                outln!(
                    "figure saved: {} ({} bytes)",
                    figure.path.display(),
                    figure.bytes
                );
                if let Some(report) = &figure.report_text {
                    for line in report.lines() {
                        outln!("  {line}");
                    }
                }
            }
            outln!("{} ms", result.ms);
        }
        Outcome::Check => {
            outln!("the code was rejected by the check:");
            for e in &result.errors {
                outln!("  line {}:{} [{}] {}", e.line, e.col, e.rule, e.message);
            }
        }
        Outcome::Input => {
            for e in &result.errors {
                outln!("bad input: {}", e.message);
            }
        }
        // The hint, printed below, says to run it again.
        Outcome::Updated => {}
        Outcome::Run | Outcome::NoOutput | Outcome::Timeout => {
            let what = match result.stage {
                Outcome::Timeout => "the code was stopped (time limit)",
                Outcome::NoOutput => "the code ran but left no usable figure",
                _ => "the code failed",
            };
            outln!("{what} after {} ms", result.ms);
            if !result.stderr_tail.is_empty() {
                outln!("--- stderr (tail) ---\n{}", result.stderr_tail.trim_end());
            }
        }
    }
    if let Some(hint) = result.hint.as_deref().filter(|h| !h.is_empty())
        && result.stage != Outcome::Input
    {
        outln!("hint: {hint}");
    }
}
