//! `pdfagent restore NAME VERSION --figures DIR [--json]`: make an earlier version of a
//! figure current again (`python_runtime::versions::restore`). The
//! current group is kept as a new version first, and the restored one stays in the store:
//! nothing is lost either way. Exit status: 0 restored, 4 bad input (or no such version),
//! 2 the files could not be put back.

use python_runtime::validate;
use python_runtime::versions::{self, VersionsError};
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
#[command(
    after_help = "Example:\n  pdfagent restore bands 2 --figures figures\n\n\
    List the versions with `pdfagent versions NAME --figures DIR`."
)]
pub struct RestoreArgs {
    /// The figure's name (its file stem: `bands` for `bands.png`).
    #[arg(value_name = "NAME")]
    name: String,
    /// The version to restore, as `pdfagent versions` lists it (`3` or `v3`).
    #[arg(value_name = "VERSION")]
    version: String,
    /// The figures folder the figure is in.
    #[arg(long, value_name = "DIR")]
    figures: PathBuf,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

const EXIT_NOT_RESTORED: i32 = 2;

pub fn run(args: RestoreArgs) -> i32 {
    let name = match validate::figure_name(&args.name) {
        Ok(name) => name,
        Err(e) => return fail(args.json, &e.to_string()),
    };
    let Some(version) = versions::parse_version(&args.version) else {
        return fail(
            args.json,
            &format!(
                "`{}` is not a version number: pass one that `pdfagent versions {name}` lists",
                args.version
            ),
        );
    };
    match versions::restore(&args.figures, &name, version) {
        Ok(restored) => {
            if args.json {
                outln!(
                    "{}",
                    serde_json::json!({"ok": true, "name": name, "restored": restored})
                );
            } else {
                outln!("Restored version {version} of `{name}`:");
                for file in &restored.files {
                    outln!("  {}", file.display());
                }
                if let Some(kept) = &restored.replaced {
                    outln!(
                        "The figure it replaced is kept as version {} ({}).",
                        kept.version,
                        kept.path.display()
                    );
                }
            }
            0
        }
        Err(e @ VersionsError::NoSuchVersion { .. }) => fail(args.json, &e.to_string()),
        Err(e) => {
            if args.json {
                outln!(
                    "{}",
                    serde_json::json!({"ok": false, "stage": "restore", "hint": e.to_string()})
                );
            } else {
                eprintln!("error: {e}");
            }
            EXIT_NOT_RESTORED
        }
    }
}

/// Bad input to `versions` or `restore`: said as JSON or on stderr, exit status 4.
pub(super) fn fail(json: bool, message: &str) -> i32 {
    if json {
        outln!(
            "{}",
            serde_json::json!({"ok": false, "stage": "input", "hint": message})
        );
    } else {
        eprintln!("error: {message}");
    }
    super::EXIT_BAD_INPUT
}
