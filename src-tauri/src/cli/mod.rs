//! The command line: a thin shell over the engine. Each subcommand lives in its own file.

use clap::{CommandFactory, Parser, Subcommand};

/// `print!` to stdout through [`out::write_out`]: quiet on a closed pipe.
macro_rules! out {
    ($($arg:tt)*) => { $crate::cli::out::write_out(format_args!($($arg)*)) };
}

/// `println!` to stdout through [`out::write_out`]: quiet on a closed pipe.
macro_rules! outln {
    () => { $crate::cli::out::write_out(format_args!("\n")) };
    ($($arg:tt)*) => {
        $crate::cli::out::write_out(format_args!("{}\n", format_args!($($arg)*)))
    };
}

mod check;
mod code;
mod grant_runtime;
mod internal_collect_run;
mod internal_inspect;
mod internal_prepare_inspect;
mod internal_prepare_run;
mod interrupt;
mod make_figure;
mod mcp;
mod out;
mod progress;
mod provenance;
mod rerun;
mod restore;
mod selftest;
mod versions;

#[derive(Debug, Parser)]
#[command(
    name = "pdfagent",
    version,
    about = "Run model-written plotting code on local data, checked and confined."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Open the window on this data folder (instead of the remembered one).
    #[arg(long, value_name = "DIR")]
    open: Option<std::path::PathBuf>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Check Python code against the Layer-1 policy without running it.
    Check(check::CheckArgs),
    /// Check, run confined and save the figure: FIGURES/NAME.png (NAME-2.png, … when the
    /// code makes several).
    MakeFigure(make_figure::MakeFigureArgs),
    /// Prove the bundled Python works: import every allowlisted module and save a figure,
    /// through the same confined worker path real figures take, and show that the
    /// confinement holds (each canary contained).
    Selftest(selftest::SelftestArgs),
    /// Serve the Model Context Protocol on stdio: tools make_figure, list_figures,
    /// list_data and describe_data over the data folder (rules: resource pdfagent://rules,
    /// prompt figure_rules).
    Mcp(mcp::McpArgs),
    /// Show how a figure was made (its embedded code, data files, versions); with --src,
    /// whether its data changed since.
    Provenance(provenance::ProvenanceArgs),
    /// Make a figure again from the code embedded in it (checked and confined again);
    /// --all DIR re-runs every figure whose data changed.
    Rerun(rerun::RerunArgs),
    /// List the earlier versions of a figure (every run that replaced it kept the old one in
    /// FIGURES/.pdfagent-versions/) and the store's size; --prune removes versions and says
    /// which.
    Versions(versions::VersionsArgs),
    /// Make an earlier version of a figure current again; the current one is kept as a
    /// version first.
    Restore(restore::RestoreArgs),
    /// Windows installer step: give the worker's AppContainer its lasting read access to
    /// this installation now, so no figure's start waits on it.
    #[command(hide = true)]
    GrantRuntime(grant_runtime::GrantRuntimeArgs),
    /// Layer-2 test support: prepare (never run) an unchecked worker run.
    #[command(hide = true)]
    InternalPrepareRun(internal_prepare_run::InternalPrepareRunArgs),
    /// Layer-2 test support: keep the figures a finished worker left in a run directory.
    #[command(hide = true)]
    InternalCollectRun(internal_collect_run::InternalCollectRunArgs),
    /// Test support: inspect a data file as the window's preview does, print it as JSON.
    #[command(hide = true)]
    InternalInspect(internal_inspect::InternalInspectArgs),
    /// Layer-2 test support: prepare (never run) an inspection with its path unresolved.
    #[command(hide = true)]
    InternalPrepareInspect(internal_prepare_inspect::InternalPrepareInspectArgs),
}

impl Command {
    /// The figures folder the command saves figures into, if it makes any.
    fn figures_folder(&self) -> Option<std::path::PathBuf> {
        match self {
            Command::MakeFigure(args) => Some(args.figures.clone()),
            Command::Rerun(args) => args.figures_folder(),
            _ => None,
        }
    }
}

/// The run limits a command takes (`make-figure`, `rerun`).
#[derive(Debug, Clone, Copy, clap::Args)]
pub struct LimitArgs {
    /// Time limit in seconds.
    #[arg(long, value_name = "S", default_value_t = 90)]
    timeout: u64,
    /// Memory limit in megabytes.
    #[arg(long, value_name = "MB", default_value_t = 4096)]
    memory: u64,
}

impl LimitArgs {
    pub fn limits(&self) -> python_runtime::Limits {
        python_runtime::Limits {
            timeout: std::time::Duration::from_secs(self.timeout),
            memory_bytes: self.memory.saturating_mul(1 << 20),
            ..Default::default()
        }
    }
}

/// Exit status for bad arguments or input (the JSON contract's `input` stage).
pub const EXIT_BAD_INPUT: i32 = 4;

pub fn run() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => {
            let _ = err.print();
            return if err.use_stderr() { EXIT_BAD_INPUT } else { 0 };
        }
    };
    // The MCP server and the window start as hosts of their own, once their folders are
    // known (`mcp::run`, `app::run`); the command line here.
    let figures = cli.command.as_ref().and_then(Command::figures_folder);
    python_runtime::host::init(python_runtime::host::Host::CommandLine, figures.as_deref());
    match cli.command {
        Some(Command::Check(args)) => check::run(args),
        Some(Command::MakeFigure(args)) => make_figure::run(args),
        Some(Command::Selftest(args)) => selftest::run(args),
        Some(Command::Mcp(args)) => mcp::run(args),
        Some(Command::Provenance(args)) => provenance::run(args),
        Some(Command::Rerun(args)) => rerun::run(args),
        Some(Command::Versions(args)) => versions::run(args),
        Some(Command::Restore(args)) => restore::run(args),
        Some(Command::GrantRuntime(args)) => grant_runtime::run(args),
        Some(Command::InternalPrepareRun(args)) => internal_prepare_run::run(args),
        Some(Command::InternalCollectRun(args)) => internal_collect_run::run(args),
        Some(Command::InternalInspect(args)) => internal_inspect::run(args),
        Some(Command::InternalPrepareInspect(args)) => internal_prepare_inspect::run(args),
        None if cli.open.is_some() => crate::window::open(cli.open),
        None => {
            let _ = Cli::command().print_help();
            0
        }
    }
}
