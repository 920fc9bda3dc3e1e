//! `pdfagent mcp --src DIR [--figures DIR] [--timeout S] [--memory MB] [--print-config]`:
//! validate the folders, then serve MCP on stdio (see `crate::mcp`), or print the client
//! configuration that starts exactly this server.

use crate::mcp::{self, Settings};
use python_runtime::default_folder;
use python_runtime::{Limits, validate};
use std::path::{Path, PathBuf};
use std::time::Duration;

#[derive(Debug, clap::Args)]
pub struct McpArgs {
    /// The data folder agents may read (their code's `SRC`; read-only to the code).
    #[arg(long, value_name = "DIR")]
    src: PathBuf,
    /// Where figures are saved (created if missing; must not be inside SRC).
    /// Default: Documents/PDFAgent figures, or ~/PDFAgent figures without a Documents
    /// folder or when SRC holds Documents (the window's default too).
    #[arg(long, value_name = "DIR")]
    figures: Option<PathBuf>,
    /// Time limit of one run, in seconds.
    #[arg(long, value_name = "S", default_value_t = 90)]
    timeout: u64,
    /// Memory limit of one run, in megabytes.
    #[arg(long, value_name = "MB", default_value_t = 4096)]
    memory: u64,
    /// Print the JSON snippet an MCP client needs to start this server, and exit.
    #[arg(long)]
    print_config: bool,
}

#[derive(Debug, thiserror::Error)]
enum SetupError {
    #[error("the data folder `{}` does not exist or is not a folder: pass --src with the folder that holds the data", .0.display())]
    Src(PathBuf),
    #[error("the folder path `{}` is not valid UTF-8: use a folder with a plain name", .0.display())]
    NotUtf8(PathBuf),
    #[error(transparent)]
    NoDefaultFigures(#[from] default_folder::NoDefault),
    #[error("the figures folder `{}` could not be created: {source}; pass --figures with a writable folder", .path.display())]
    Figures {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("the figures folder `{}` is inside the data folder `{}`: pass --figures with a folder outside it (the data folder stays read-only)", .figures.display(), .src.display())]
    FiguresInsideSrc { figures: PathBuf, src: PathBuf },
    #[error(transparent)]
    Limit(#[from] validate::InputError),
    #[error("could not tell where this executable is: {0}")]
    Exe(#[source] std::io::Error),
}

pub fn run(args: McpArgs) -> i32 {
    match setup(&args) {
        Ok((settings, default)) => {
            if let Some(default) = default {
                eprintln!("pdfagent mcp: {}", default.describe());
            }
            if args.print_config {
                return print_config(&settings);
            }
            // Before the first worker: an update under the running server is then told
            // apart from a broken installation.
            python_runtime::host::init(
                python_runtime::host::Host::McpServer,
                Some(&settings.figures),
            );
            mcp::serve(settings)
        }
        Err(e) => {
            eprintln!("error: {e}");
            super::EXIT_BAD_INPUT
        }
    }
}

/// The snippet names the figures folder always, the default too: what a person pastes
/// says where the figures will be.
fn print_config(settings: &Settings) -> i32 {
    match mcp::config::client_config_for_this_exe(&settings.src, &settings.figures) {
        Ok(value) => {
            outln!(
                "{}",
                serde_json::to_string_pretty(&value).unwrap_or_default()
            );
            0
        }
        Err(e) => {
            eprintln!("error: {}", SetupError::Exe(e));
            1
        }
    }
}

/// The server's settings, and the default figures folder when no `--figures` was given.
fn setup(args: &McpArgs) -> Result<(Settings, Option<default_folder::DefaultFolder>), SetupError> {
    let limits = Limits {
        timeout: Duration::from_secs(args.timeout),
        memory_bytes: args.memory.saturating_mul(1 << 20),
        ..Limits::default()
    };
    validate::check_limits(&limits)?;
    let src = match args.src.canonicalize() {
        Ok(real) if real.is_dir() => utf8(real)?,
        _ => return Err(SetupError::Src(args.src.clone())),
    };
    let (figures, default) = match &args.figures {
        Some(dir) => (dir.clone(), None),
        None => {
            let default = default_folder::here(Some(&src))?;
            (default.path.clone(), Some(default))
        }
    };
    let figures = prepare_figures(&figures)?;
    if figures.starts_with(&src) {
        return Err(SetupError::FiguresInsideSrc { figures, src });
    }
    let settings = Settings {
        src,
        figures,
        limits,
    };
    Ok((settings, default))
}

fn prepare_figures(dir: &Path) -> Result<PathBuf, SetupError> {
    let wrap = |source| SetupError::Figures {
        path: dir.to_path_buf(),
        source,
    };
    std::fs::create_dir_all(dir).map_err(wrap)?;
    utf8(dir.canonicalize().map_err(wrap)?)
}

fn utf8(path: PathBuf) -> Result<PathBuf, SetupError> {
    if path.to_str().is_some() {
        Ok(path)
    } else {
        Err(SetupError::NotUtf8(path))
    }
}
