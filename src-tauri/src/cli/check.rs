//! `pdfagent check --code FILE|- [--json]`: run the Layer-1 check without running the code.
//!
//! Exit status: 0 accepted, 1 rejected, 4 bad arguments or unreadable input. Text mode
//! prints `ok` or the instructional rejection; `--json` prints one object
//! `{"ok", "errors", "hint"}`.

use super::EXIT_BAD_INPUT;
use super::code::{is_stdin, read_code};
use python_runtime::check;
use python_runtime::contract::Violation;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// Exit status when the check rejects the code.
const EXIT_REJECTED: i32 = 1;

#[derive(Debug, clap::Args)]
pub struct CheckArgs {
    /// The Python file to check, or `-` for standard input.
    #[arg(long)]
    code: PathBuf,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct Report<'a> {
    ok: bool,
    errors: &'a [Violation],
    hint: &'a str,
}

pub fn run(args: CheckArgs) -> i32 {
    let code = match read(&args.code) {
        Ok(code) => code,
        Err(err) => {
            eprintln!("error: {err}");
            return EXIT_BAD_INPUT;
        }
    };
    let (status, report, notes) = match check(&code) {
        Ok(accepted) => (0, None, accepted.notes),
        Err(rejection) => (EXIT_REJECTED, Some(rejection), Vec::new()),
    };
    // Code that passes may still come with notes (a star import shadowing builtins, a
    // reviewed private name and its public equivalent): said as the hint.
    let notes = notes
        .iter()
        .map(|n| format!("Note: {n}."))
        .collect::<Vec<_>>()
        .join("\n");
    if args.json {
        let (errors, hint) = report.as_ref().map_or((&[][..], notes.as_str()), |r| {
            (r.errors.as_slice(), r.hint.as_str())
        });
        let json = Report {
            ok: report.is_none(),
            errors,
            hint,
        };
        match serde_json::to_string(&json) {
            Ok(line) => outln!("{line}"),
            Err(err) => {
                eprintln!("error: could not write the JSON report: {err}");
                return EXIT_BAD_INPUT;
            }
        }
    } else {
        match &report {
            None if notes.is_empty() => outln!("ok"),
            None => outln!("ok\n{notes}"),
            Some(r) => outln!("{}", r.instructions()),
        }
    }
    status
}

/// Why the code to check could not be read.
#[derive(Debug, thiserror::Error)]
enum ReadError {
    #[error("could not read the code from standard input: {0}")]
    Stdin(#[source] std::io::Error),
    #[error(
        "could not read the code file `{}`: {source}; pass an existing file or `-` for \
         standard input",
        .path.display()
    )]
    File {
        path: std::path::PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// The code at `path` ([`read_code`]), or why it could not be read.
fn read(path: &Path) -> Result<Vec<u8>, ReadError> {
    read_code(path).map_err(|source| {
        if is_stdin(path) {
            ReadError::Stdin(source)
        } else {
            ReadError::File {
                path: path.to_path_buf(),
                source,
            }
        }
    })
}
