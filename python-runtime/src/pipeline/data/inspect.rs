//! One look at a data file, for an agent (MCP `describe_data`) and for the person at the
//! window (the preview pane): a description — the same text for both — and, for the window,
//! a structured preview (table rows, variables with shapes and dtypes, an array's first
//! values, a JSON outline, an image's size).
//!
//! Told by a FIXED script of ours (`inspect.py` over the reader table `readers.py`, the
//! readers `load()` uses) run in a confined worker exactly like figure code: the file is
//! untrusted, and its readers (pandas, scipy.io, h5py, openpyxl, PIL) are large parsers. No
//! caller-given text reaches the script as code: the request is JSON in the run directory.
//! The app process never parses the file; it reads the worker's one answer line into the
//! types below, so anything else the worker prints is refused.

use super::listing::{self, DataPathError};
use crate::pipeline::figures::output;
use crate::pipeline::running::job::{JobError, WorkerJob};
use crate::pipeline::running::runner::{CancelFlag, WorkerExit, WorkerOutcome};
use crate::pipeline::{Limits, script};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The request file the script reads, next to it in the run directory.
pub const REQUEST_NAME: &str = "request.json";
/// What starts the script's answer line on stdout.
const MARKER: &str = "PDFAGENT-INSPECT ";
/// Most characters of a description returned (the readers cap themselves a little lower).
pub const MAX_TEXT_CHARS: usize = 8000;
/// What marks a description cut at [`MAX_TEXT_CHARS`].
const TRUNCATED: &str = "\n... (truncated)";
/// The images the window shows from their bytes. The reader table's image row (`IMAGES` in
/// readers.py) has the same extensions; a test keeps the two equal.
pub const IMAGE_EXTENSIONS: &[&str] = &["png", "jpg", "jpeg", "gif", "webp", "bmp"];

/// The limits of an inspection: shorter than a figure's (a reader is quick or stuck).
pub fn default_limits() -> Limits {
    Limits {
        timeout: Duration::from_secs(60),
        output_cap: 256 << 10,
        ..Limits::default()
    }
}

/// Whether `path` names an image the window may show from its bytes.
pub fn is_image(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| IMAGE_EXTENSIONS.contains(&e.to_ascii_lowercase().as_str()))
}

/// What an inspection returns besides the description.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Detail {
    /// The description only (MCP `describe_data`).
    Text,
    /// The description and the structured preview (the window).
    Preview,
}

/// One file, inspected.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct Inspection {
    /// What the file holds and how figure code reads it: MCP `describe_data`'s answer, shown
    /// above the preview in the window.
    pub text: String,
    /// The structured preview ([`Detail::Preview`]; `None` for [`Detail::Text`]).
    pub preview: Option<Preview>,
}

/// The structured part of a preview, by kind of file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Preview {
    /// .csv .tsv .tab .txt .dat .xlsx: the columns and first rows as `load()` reads them.
    Table {
        /// `comma`, `semicolon`, `tab` or `whitespace`; `None` for a spreadsheet.
        separator: Option<String>,
        /// Whether the first row is the header (else the columns are numbered).
        header: bool,
        columns: Vec<String>,
        rows: Vec<Vec<String>>,
        /// Every row, when the whole file was read.
        rows_total: Option<u64>,
    },
    /// .mat (v5, v7.3), .npz, .h5: the variables (arrays, datasets).
    Variables { variables: Vec<Variable> },
    /// .npy: the array's shape, dtype and first values.
    Array {
        shape: Vec<u64>,
        dtype: String,
        first: Vec<String>,
    },
    /// .json: the outline of the value.
    Json { outline: OutlineNode },
    /// An image (its pixels are shown by the window from the file's bytes).
    Image {
        format: String,
        width: u64,
        height: u64,
        mode: String,
    },
    /// Nothing to show beyond the description (refused, unreadable, too large, or a file of
    /// no known format: the description quotes a text file's first lines).
    None,
}

/// One variable of a .mat, .npz or .h5 file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct Variable {
    pub name: String,
    /// MATLAB's shape for a .mat file (what `whos` shows); numpy's otherwise.
    pub shape: Vec<u64>,
    /// The MATLAB class (`double`, `char`, `struct`, `cell`, ...); `None` outside .mat.
    pub class: Option<String>,
    /// What its values are in `load()`: a numpy dtype, or `str`, `cell`, `struct`.
    pub dtype: Option<String>,
}

/// One node of a JSON outline.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ts_rs::TS)]
pub struct OutlineNode {
    pub key: String,
    /// The Python type of the value (`dict`, `list`, `str`, `float`, ...).
    #[serde(rename = "type")]
    pub kind: String,
    /// Entries of a dict or list.
    pub len: Option<u64>,
    /// A scalar's value, shortened.
    pub value: Option<String>,
    pub children: Vec<OutlineNode>,
}

/// Why an inspection gave no description. Messages say what to do.
#[derive(Debug, thiserror::Error)]
pub enum InspectError {
    #[error(transparent)]
    Path(#[from] DataPathError),
    /// PDFAgent was updated while the host ran: no reader was started.
    #[error(transparent)]
    Updated(#[from] crate::install_identity::Updated),
    #[error(
        "could not prepare the reading of `{rel}`: {why}; check that the temporary folder is writable and try again"
    )]
    Prepare { rel: String, why: String },
    #[error(
        "reading `{rel}` took longer than {secs} s and was stopped: it is too large or too complex to inspect here; read it in figure code with load('{rel}')"
    )]
    TimedOut { rel: String, secs: u64 },
    #[error("reading `{rel}` was cancelled")]
    Cancelled { rel: String },
    #[error(
        "reading `{rel}` failed ({why}); if every file fails, run `pdfagent selftest`. The reader's stderr ends with:\n{stderr_tail}"
    )]
    Failed {
        rel: String,
        why: String,
        stderr_tail: String,
    },
}

/// Inspect the file `rel` (relative to `src`) in a confined worker.
pub fn inspect(
    src: &Path,
    rel: &str,
    detail: Detail,
    limits: &Limits,
    cancel: &CancelFlag,
) -> Result<Inspection, InspectError> {
    crate::install_identity::check()?;
    let file = listing::resolve_file(src, rel)?;
    let prepare = |why: String| InspectError::Prepare {
        rel: rel.to_owned(),
        why,
    };
    let src_real = src
        .canonicalize()
        .map_err(|e| prepare(format!("`{}`: {e}", src.display())))?;
    let job = WorkerJob::new(Some(&src_real), limits).map_err(|e| prepare(e.to_string()))?;
    write_run(&job, &file, rel, detail).map_err(|e| prepare(e.to_string()))?;
    let outcome = job.run(cancel).map_err(|e| prepare(e.to_string()))?;
    answer(rel, detail, &outcome, limits)
}

/// Why an inspection's script or request could not be written.
#[derive(Debug, thiserror::Error)]
pub enum WriteRunError {
    #[error(transparent)]
    Job(#[from] JobError),
    #[error("the path `{}` is not valid UTF-8: rename the file or its folder", .0.display())]
    NotUtf8(PathBuf),
}

/// Write the inspection's script and its request into `job`'s run directory.
pub(crate) fn write_run(
    job: &WorkerJob,
    file: &Path,
    rel: &str,
    detail: Detail,
) -> Result<(), WriteRunError> {
    job.write_script(&script::render_inspection())?;
    Ok(job.write_file(REQUEST_NAME, &request_text(file, rel, detail)?)?)
}

/// The request the inspection script reads (`file`, the real path to read; `rel`, as the
/// caller gave it): data in a JSON file, never formatted into code.
fn request_text(file: &Path, rel: &str, detail: Detail) -> Result<String, WriteRunError> {
    let path = file
        .to_str()
        .ok_or_else(|| WriteRunError::NotUtf8(file.to_path_buf()))?;
    Ok(serde_json::json!({
        "path": path,
        "rel": rel,
        "preview": detail == Detail::Preview,
    })
    .to_string())
}

/// The inspection from a finished worker, or why there is none.
fn answer(
    rel: &str,
    detail: Detail,
    outcome: &WorkerOutcome,
    limits: &Limits,
) -> Result<Inspection, InspectError> {
    let failed = |why: String| InspectError::Failed {
        rel: rel.to_owned(),
        why,
        stderr_tail: output::tail_chars(&outcome.stderr_tail, crate::pipeline::STDERR_TAIL_CHARS)
            .to_owned(),
    };
    match outcome.exit {
        WorkerExit::Exited(0) => {}
        WorkerExit::Cancelled => {
            return Err(InspectError::Cancelled {
                rel: rel.to_owned(),
            });
        }
        WorkerExit::TimedOut => {
            return Err(InspectError::TimedOut {
                rel: rel.to_owned(),
                secs: limits.timeout.as_secs(),
            });
        }
        WorkerExit::Exited(code) => return Err(failed(format!("exit status {code}"))),
        WorkerExit::Signaled(sig) => {
            return Err(failed(format!(
                "killed by signal {sig}, often more memory than the {} MB limit",
                limits.memory_bytes >> 20
            )));
        }
    }
    let mut inspection = parse_answer(&outcome.stdout_tail).map_err(|e| failed(e.to_string()))?;
    inspection.text = output::cap_chars(&inspection.text, MAX_TEXT_CHARS, TRUNCATED);
    if detail == Detail::Text {
        inspection.preview = None;
    }
    Ok(inspection)
}

/// Why a finished worker's answer could not be read (the `why` of [`InspectError::Failed`]).
#[derive(Debug, thiserror::Error)]
enum AnswerError {
    #[error("it printed no answer")]
    Missing,
    #[error("its answer could not be read: {0}")]
    Unreadable(#[source] serde_json::Error),
}

/// The last answer line of the worker's stdout, read into the fixed types.
fn parse_answer(stdout: &str) -> Result<Inspection, AnswerError> {
    let line = stdout
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix(MARKER))
        .ok_or(AnswerError::Missing)?;
    serde_json::from_str(line).map_err(AnswerError::Unreadable)
}

#[cfg(test)]
mod tests;
