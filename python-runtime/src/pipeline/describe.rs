//! `describe_data`: what a data file holds (columns and types, variables and shapes, keys),
//! told by a FIXED script of ours (`describe.py`) run in the same confined worker as figure
//! code — the file is untrusted data, and the readers (pandas, scipy.io, numpy) are large
//! parsers. No agent-given text reaches the script as code: the resolved path is written
//! as JSON into the run directory, which the script reads.

use super::listing::{self, DataPathError};
use super::{Limits, RunDir, confine_plan, output, script};
use crate::runner::{self, CancelFlag, WorkerExit, WorkerRequest};
use std::path::Path;
use std::time::Duration;

/// The script, shipped inside the binary.
pub const DESCRIBE_SCRIPT: &str = include_str!("describe.py");
/// Name of the request file the script reads, next to it in the run directory.
pub const REQUEST_NAME: &str = "request.json";
/// Most characters of a description returned (the script caps itself a little lower).
pub const MAX_DESCRIPTION_CHARS: usize = 8000;

/// The limits a description runs under: shorter than a figure's (reading a header is quick).
pub fn default_limits() -> Limits {
    Limits {
        timeout: Duration::from_secs(60),
        output_cap: 16 << 10,
        ..Limits::default()
    }
}

#[derive(Debug, thiserror::Error)]
pub enum DescribeError {
    #[error(transparent)]
    Path(#[from] DataPathError),
    #[error("could not prepare the run: {0}")]
    Prepare(String),
    #[error("describing `{rel}` failed ({why}); stderr tail:\n{stderr_tail}")]
    Failed {
        rel: String,
        why: String,
        stderr_tail: String,
    },
    #[error("describing `{0}` was cancelled")]
    Cancelled(String),
}

/// Describe the file `rel` (relative to `src`) in a confined worker.
pub fn describe(
    src: &Path,
    rel: &str,
    limits: &Limits,
    cancel: &CancelFlag,
) -> Result<String, DescribeError> {
    let file = listing::resolve_file(src, rel)?;
    let src_real = src
        .canonicalize()
        .map_err(|e| DescribeError::Prepare(format!("`{}`: {e}", src.display())))?;
    let run = RunDir::create().map_err(|e| DescribeError::Prepare(e.to_string()))?;
    let script_path = run.path().join(script::SCRIPT_NAME);
    let request = serde_json::json!({
        "path": file.to_string_lossy(),
        "rel": rel,
    });
    let write = |path: &Path, text: &str| {
        std::fs::write(path, text)
            .map_err(|e| DescribeError::Prepare(format!("`{}`: {e}", path.display())))
    };
    write(&script_path, DESCRIBE_SCRIPT)?;
    write(&run.path().join(REQUEST_NAME), &request.to_string())?;
    let worker = WorkerRequest {
        script: script_path,
        run_dir: run.path().to_path_buf(),
        confine: confine_plan(&src_real, run.path(), limits).map_err(DescribeError::Prepare)?,
        timeout: limits.timeout,
        output_cap: limits.output_cap,
    };
    let outcome =
        runner::run_worker(&worker, cancel).map_err(|e| DescribeError::Prepare(e.to_string()))?;
    let stderr_tail = output::tail_chars(&outcome.stderr_tail, super::STDERR_TAIL_CHARS).to_owned();
    let why = match outcome.exit {
        WorkerExit::Exited(0) => {
            let text = outcome.stdout_tail.trim_end();
            return Ok(cap_chars(text, MAX_DESCRIPTION_CHARS));
        }
        WorkerExit::Cancelled => return Err(DescribeError::Cancelled(rel.to_owned())),
        WorkerExit::Exited(code) => format!("exit status {code}"),
        WorkerExit::Signaled(sig) => format!("killed by signal {sig}"),
        WorkerExit::TimedOut => format!("took longer than {} s", limits.timeout.as_secs()),
    };
    Err(DescribeError::Failed {
        rel: rel.to_owned(),
        why,
        stderr_tail,
    })
}

fn cap_chars(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((cut, _)) => format!("{}\n... (truncated)", &text[..cut]),
        None => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn script_never_formats_the_request_into_code() {
        // The request reaches the script as JSON data only.
        assert!(DESCRIBE_SCRIPT.contains("request.json"));
        assert!(!DESCRIBE_SCRIPT.contains("exec("));
        assert!(!DESCRIBE_SCRIPT.contains("eval("));
        assert!(!DESCRIBE_SCRIPT.contains("allow_pickle=True"));
    }

    #[test]
    fn bad_paths_are_refused_before_anything_runs() {
        let tmp = tempfile::tempdir().unwrap();
        let cancel = CancelFlag::default();
        let err = describe(tmp.path(), "../x.csv", &default_limits(), &cancel).unwrap_err();
        assert!(matches!(
            err,
            DescribeError::Path(DataPathError::ParentDir(_))
        ));
    }

    #[test]
    fn cap_keeps_whole_characters() {
        assert_eq!(cap_chars("ééé", 2), "éé\n... (truncated)");
        assert_eq!(cap_chars("ab", 5), "ab");
    }
}
