//! The figures of a run, as the worker captured them (`capture.py`): the file at `OUT`, or
//! else every image the code saved under a name of its own, or else every figure open at
//! `plt.show()` or at the end — read back without trusting the run directory, each checked
//! as `OUT` is, and kept as `NAME.EXT`, `NAME-2.EXT`, … in the figures folder.
//!
//! The worker lists what it captured in [`MANIFEST`]. Nothing in that list is trusted: the
//! parent reads only files whose names it builds itself (`capture-NN.EXT`, `preview-NN.EXT`,
//! `NN` a number it checks), through [`output::read_figure`] (no links, FIFOs or hard links;
//! signature, size and the SVG/PDF checks), and caps every text it passes on.

use super::format::FigureFormat;
use super::output::{self, OutputError};
use super::provenance::{self, Origin};
use super::versions;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// Most figures one run may make (the worker refuses the next one, and so does this).
pub const MAX_FIGURES: usize = 16;
/// The list of captured figures the worker writes into its run directory.
pub const MANIFEST: &str = ".pdfagent-figures.json";
/// Largest manifest read (reports included).
const MANIFEST_MAX_BYTES: u64 = 1 << 20;
/// Largest preview image accepted (the worker aims at 60,000 base64 characters).
const PREVIEW_MAX_BYTES: u64 = 256 << 10;
/// Most characters kept of a figure's report text, a saved name and a note.
const TEXT_MAX_CHARS: usize = 4000;
const NAME_MAX_CHARS: usize = 200;
const NOTE_MAX_CHARS: usize = 300;
/// Most bytes all figures of a run may take together (each is capped on its own too).
const TOTAL_MAX_FACTOR: u64 = 4;

/// How a figure was captured: the contract's `captured`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "lowercase")]
pub enum Captured {
    /// Saved at `OUT`.
    Out,
    /// Saved with `savefig`/`imsave` under a name of the code's own.
    Saved,
    /// Open at `plt.show()` or when the code ended; saved by the worker.
    Shown,
}

/// A small image of a figure for clients that show images inline (MCP), made by the worker.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Preview {
    pub format: FigureFormat,
    pub bytes: Vec<u8>,
}

/// One figure of a finished run, kept in the figures folder.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct SavedFigure {
    pub path: PathBuf,
    pub bytes: u64,
    pub format: FigureFormat,
    pub captured: Captured,
    /// The name the code saved it under (`captured: saved` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub saved_as: Option<String>,
    /// What the figure shows, from the live matplotlib objects (see `figure_report.py`):
    /// the worker's JSON as it wrote it, whose shape is `FigureReport` (report.rs).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional, as = "Option<super::report::FigureReport>")]
    pub report: Option<serde_json::Value>,
    /// The report as text, for a model to read.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub report_text: Option<String>,
    /// What the provenance record embedded in the file holds (absent: none was embedded).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub provenance: Option<provenance::Summary>,
    #[serde(skip)]
    pub preview: Option<Preview>,
}

/// Why the run's figures cannot be kept: the contract's stage and a sentence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaptureFailure {
    pub no_output: bool,
    pub message: String,
}

impl CaptureFailure {
    fn no_output(message: impl Into<String>) -> CaptureFailure {
        CaptureFailure {
            no_output: true,
            message: message.into(),
        }
    }

    fn run(message: impl Into<String>) -> CaptureFailure {
        CaptureFailure {
            no_output: false,
            message: message.into(),
        }
    }
}

#[derive(Debug, Deserialize)]
struct Manifest {
    #[serde(default)]
    figures: Vec<ManifestFigure>,
    #[serde(default)]
    notes: Vec<String>,
    /// Paths relative to `SRC` of the files the code opened for reading, as the worker saw
    /// them: hashed here, and only when they resolve inside `SRC`.
    #[serde(default)]
    inputs: Vec<String>,
}

#[derive(Debug, Deserialize)]
struct ManifestFigure {
    index: usize,
    format: FigureFormat,
    captured: Captured,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    report: Option<serde_json::Value>,
    #[serde(default)]
    report_text: Option<String>,
    #[serde(default)]
    preview: Option<String>,
}

/// A figure read and checked, not yet kept.
struct Candidate {
    bytes: Vec<u8>,
    format: FigureFormat,
    captured: Captured,
    saved_as: Option<String>,
    report: Option<serde_json::Value>,
    report_text: Option<String>,
    preview: Option<Preview>,
}

/// What [`keep_figures`] kept.
#[derive(Debug)]
pub struct Kept {
    pub figures: Vec<SavedFigure>,
    /// How the figures were captured (`None` for `OUT`), and where they went when a
    /// later-submitted run of the name was current already.
    pub note: Option<String>,
    /// The version kept of the group this run replaced.
    pub replaced: Option<versions::KeptVersion>,
}

/// The run's figures, kept in `figures` as `name.EXT`, `name-2.EXT`, …, the group they
/// replace kept as a version first ([`versions`]), and what to tell the author about how
/// they were captured. With an `origin` (the checked code and its request), each file
/// carries its provenance record, written here. `submitted` orders two runs of one name.
#[allow(clippy::too_many_arguments)]
pub fn keep_figures(
    run_dir: &Path,
    out: &Path,
    requested: FigureFormat,
    figures: &Path,
    name: &str,
    figure_max_bytes: u64,
    origin: Option<&Origin>,
    submitted: SystemTime,
) -> Result<Kept, CaptureFailure> {
    let manifest = read_manifest(run_dir);
    let named: Vec<String> = match &manifest {
        Ok(Some(m)) => m
            .inputs
            .iter()
            .take(provenance::MAX_INPUTS + 1)
            .cloned()
            .collect(),
        _ => Vec::new(),
    };
    let (candidates, notes) = candidates(run_dir, out, requested, figure_max_bytes, manifest)?;
    let formats: Vec<FigureFormat> = candidates.iter().map(|c| c.format).collect();
    let no_figure_kept = |e: versions::VersionsError| {
        CaptureFailure::run(format!("{e}; no figure of this run was kept"))
    };
    let mut ownership = versions::lock(figures).map_err(no_figure_kept)?;
    let stems = ownership
        .claim(name, &formats)
        .map_err(|e| no_figure_kept(e.into()))?;
    let files: Vec<String> = stems
        .iter()
        .zip(&formats)
        .map(|(stem, format)| format!("{stem}.{}", format.extension()))
        .collect();
    let recorded = origin.map(|o| provenance::hash_inputs(&o.src, &named));
    let records: Vec<Option<provenance::Provenance>> = candidates
        .iter()
        .zip(&files)
        .map(|(candidate, file)| match (origin, &recorded) {
            (Some(origin), Some(recorded)) => Some(origin.record(recorded, file, candidate.format)),
            _ => None,
        })
        .collect();
    let fingerprint = records
        .first()
        .and_then(Option::as_ref)
        .map(versions::fingerprint);
    let plan = versions::begin(&ownership, name, &files, submitted, fingerprint.as_ref())
        .map_err(no_figure_kept)?;
    let target: PathBuf = match &plan {
        versions::Plan::Replace(_) => figures.to_path_buf(),
        versions::Plan::Later(incoming) => incoming.dir().to_path_buf(),
    };
    let mut kept = Vec::with_capacity(candidates.len());
    for ((candidate, stem), record) in candidates.into_iter().zip(&stems).zip(&records) {
        // A preview that is the figure itself (a small PNG) stays the file as kept.
        let preview_is_figure = candidate
            .preview
            .as_ref()
            .is_some_and(|p| p.format == candidate.format && p.bytes == candidate.bytes);
        let (bytes, summary) = match record {
            Some(record) => with_provenance(&candidate.bytes, candidate.format, record),
            None => (candidate.bytes, None),
        };
        let preview = candidate.preview.map(|p| {
            if preview_is_figure {
                Preview {
                    format: p.format,
                    bytes: bytes.clone(),
                }
            } else {
                p
            }
        });
        let path = match output::save_atomically(&target, stem, candidate.format, &bytes) {
            Ok(path) => path,
            Err(e) => {
                // The old group comes back whole; this run keeps nothing.
                let undone = match plan {
                    versions::Plan::Replace(replacement) => replacement.abandon(&mut ownership),
                    versions::Plan::Later(_) => Ok(()),
                };
                let mut message = format!("{e}; no figure of this run was kept");
                if let Err(undo) = undone {
                    message.push_str(&format!(
                        " (and the figure it replaced could not be put back: {undo})"
                    ));
                }
                return Err(CaptureFailure::run(message));
            }
        };
        if let versions::Plan::Replace(replacement) = &plan {
            replacement.saved_one();
        }
        kept.push(SavedFigure {
            path,
            bytes: bytes.len() as u64,
            format: candidate.format,
            captured: candidate.captured,
            saved_as: candidate.saved_as,
            report: candidate.report,
            report_text: candidate.report_text,
            provenance: summary,
            preview,
        });
    }
    let mut note = capture_note(&kept, requested, &notes);
    let replaced = match plan {
        versions::Plan::Replace(replacement) => {
            ownership.settle(name, &stems, &formats);
            replacement.finish().map_err(|e| {
                CaptureFailure::run(format!(
                    "the figures were saved, but the folder's versions could not be brought up \
                     to date: {e}"
                ))
            })?
        }
        versions::Plan::Later(incoming) => {
            let version = incoming
                .finish_files(figures, name, &files)
                .map_err(no_figure_kept)?;
            let dir = version
                .path
                .parent()
                .map(Path::to_path_buf)
                .unwrap_or_default();
            for figure in &mut kept {
                if let Some(file) = figure.path.file_name() {
                    figure.path = dir.join(file);
                }
            }
            let later = format!(
                "A run of `{name}` submitted after this one finished first and stays the \
                 current figure; this run is kept as version {} ({}).",
                version.version,
                version.path.display()
            );
            note = Some(match note {
                Some(n) => format!("{n} {later}"),
                None => later,
            });
            None
        }
    };
    Ok(Kept {
        figures: kept,
        note,
        replaced,
    })
}

/// The figure with its record embedded, checked again as the worker's file was; the bytes
/// as they were (no record) when the format has none (JPEG) or embedding fails.
fn with_provenance(
    bytes: &[u8],
    format: FigureFormat,
    record: &provenance::Provenance,
) -> (Vec<u8>, Option<provenance::Summary>) {
    match provenance::embed(bytes, format, record) {
        Ok(embedded) if format.problem(&embedded).is_none() => {
            let added = embedded.len().saturating_sub(bytes.len()) as u64;
            (embedded, Some(provenance::Summary::of(record, added)))
        }
        _ => (bytes.to_vec(), None),
    }
}

/// Why the worker's manifest (its list of figures) could not be used.
#[derive(Debug, thiserror::Error)]
enum ManifestError {
    #[error("the worker's list of figures is not valid: {0}")]
    Invalid(#[source] serde_json::Error),
    #[error("the worker's list of figures could not be read: {0}")]
    Unreadable(#[source] OutputError),
}

/// The manifest, or why it could not be read (`None`: the worker wrote none).
fn read_manifest(run_dir: &Path) -> Result<Option<Manifest>, ManifestError> {
    match output::read_single_file(&run_dir.join(MANIFEST), MANIFEST_MAX_BYTES) {
        Ok(bytes) => serde_json::from_slice(&bytes)
            .map(Some)
            .map_err(ManifestError::Invalid),
        Err(OutputError::Missing) => Ok(None),
        Err(e) => Err(ManifestError::Unreadable(e)),
    }
}

/// Every figure of the run, read and checked, in order (`OUT` first and alone).
fn candidates(
    run_dir: &Path,
    out: &Path,
    requested: FigureFormat,
    figure_max_bytes: u64,
    manifest: Result<Option<Manifest>, ManifestError>,
) -> Result<(Vec<Candidate>, Vec<String>), CaptureFailure> {
    // The contract's first rule: a file at OUT is the figure, whatever else was saved.
    match output::read_figure(out, figure_max_bytes, requested) {
        Ok(bytes) => {
            let listed = manifest
                .ok()
                .flatten()
                .and_then(|m| m.figures.into_iter().find(|f| f.captured == Captured::Out));
            let (report, report_text) = listed
                .map(|f| {
                    (
                        f.report,
                        f.report_text
                            .map(|t| output::cap_chars(&t, TEXT_MAX_CHARS, "…")),
                    )
                })
                .unwrap_or_default();
            let preview = read_preview(run_dir, 0);
            return Ok((
                vec![Candidate {
                    bytes,
                    format: requested,
                    captured: Captured::Out,
                    saved_as: None,
                    report,
                    report_text,
                    preview,
                }],
                Vec::new(),
            ));
        }
        Err(OutputError::Missing) => {}
        Err(e) => return Err(CaptureFailure::no_output(e.to_string())),
    }
    let manifest = match manifest {
        Ok(Some(manifest)) => manifest,
        Ok(None) => return Err(CaptureFailure::no_output(nothing_drawn())),
        Err(why) => return Err(CaptureFailure::run(why.to_string())),
    };
    if manifest.figures.len() > MAX_FIGURES {
        return Err(CaptureFailure::run(too_many()));
    }
    if manifest.figures.is_empty() {
        return Err(CaptureFailure::no_output(nothing_drawn()));
    }
    let mut seen = BTreeSet::new();
    let mut total = 0u64;
    let mut out = Vec::with_capacity(manifest.figures.len());
    for figure in manifest.figures {
        if figure.captured == Captured::Out
            || !(1..=MAX_FIGURES).contains(&figure.index)
            || !seen.insert(figure.index)
        {
            return Err(CaptureFailure::run(
                "the worker's list of figures is not valid (a figure number is out of range \
                 or repeated); no figure was kept",
            ));
        }
        let path = run_dir.join(capture_file_name(figure.index, figure.format));
        let saved_as = figure
            .name
            .map(|n| output::cap_chars(&n, NAME_MAX_CHARS, "…"));
        let bytes = output::read_figure(&path, figure_max_bytes, figure.format).map_err(|e| {
            let which = saved_as
                .as_deref()
                .map_or_else(String::new, |n| format!(" (saved as {n:?})"));
            CaptureFailure::no_output(format!("figure {}{which}: {e}", figure.index))
        })?;
        total += bytes.len() as u64;
        if total > figure_max_bytes.saturating_mul(TOTAL_MAX_FACTOR) {
            return Err(CaptureFailure::run(format!(
                "the figures of this run take more than {} MB together: lower the dpi or the \
                 figure size, or make fewer figures",
                figure_max_bytes.saturating_mul(TOTAL_MAX_FACTOR) >> 20
            )));
        }
        let preview = figure
            .preview
            .is_some()
            .then(|| read_preview(run_dir, figure.index))
            .flatten();
        out.push(Candidate {
            bytes,
            format: figure.format,
            captured: figure.captured,
            saved_as,
            report: figure.report,
            report_text: figure
                .report_text
                .map(|t| output::cap_chars(&t, TEXT_MAX_CHARS, "…")),
            preview,
        });
    }
    let notes = manifest
        .notes
        .iter()
        .take(8)
        .map(|n| output::cap_chars(n, NOTE_MAX_CHARS, "…"))
        .collect();
    Ok((out, notes))
}

/// The name `capture.py` gives the `index`-th captured figure in the run directory.
pub fn capture_file_name(index: usize, format: FigureFormat) -> String {
    format!("capture-{index:02}.{}", format.extension())
}

/// The worker's preview of figure `index` (0: `OUT`), PNG or JPEG, checked like a figure.
fn read_preview(run_dir: &Path, index: usize) -> Option<Preview> {
    [FigureFormat::Png, FigureFormat::Jpeg]
        .into_iter()
        .find_map(|format| {
            let path = run_dir.join(format!("preview-{index:02}.{}", format.extension()));
            output::read_figure(&path, PREVIEW_MAX_BYTES, format)
                .ok()
                .map(|bytes| Preview { format, bytes })
        })
}

fn nothing_drawn() -> String {
    "the code made no figure: draw one and save it with plt.savefig(OUT) \
     (plt.savefig('name.png') and plt.show() work too)"
        .into()
}

fn too_many() -> String {
    format!(
        "the code made more than {MAX_FIGURES} figures in one run, and PDFAgent keeps at most \
         {MAX_FIGURES}: make fewer figures, or put several panels into one figure with \
         plt.subplots"
    )
}

/// What to tell the author about how the figures were captured; `None` for `OUT`.
fn capture_note(kept: &[SavedFigure], requested: FigureFormat, notes: &[String]) -> Option<String> {
    let first = kept.first()?;
    let files: Vec<String> = kept
        .iter()
        .map(|f| {
            f.path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default()
        })
        .collect();
    // No "save with plt.savefig(OUT)" advice: plt.show() and savefig('x.png') are captures
    // the code intended, and a rerun's code is the recorded one (issue #41).
    let mut note = match first.captured {
        Captured::Out => return None,
        Captured::Saved => {
            let names: Vec<String> = kept
                .iter()
                .filter_map(|f| f.saved_as.as_deref().map(|n| format!("{n:?}")))
                .collect();
            let note = format!(
                "Captured {} the code saved as {}: kept as {}.",
                plural(kept.len()),
                names.join(", "),
                files.join(", ")
            );
            // The code chose to save there: no advice (issue #41).
            note
        }
        Captured::Shown => format!(
            "Captured {} open at plt.show() or at the end of the code, saved as {}: kept as {}.",
            plural(kept.len()),
            requested.extension().to_uppercase(),
            files.join(", ")
        ),
    };
    for extra in notes {
        note.push(' ');
        note.push_str(extra);
        if !extra.ends_with('.') {
            note.push('.');
        }
    }
    Some(note)
}

fn plural(n: usize) -> String {
    if n == 1 {
        "the figure".into()
    } else {
        format!("{n} figures")
    }
}

/// At most `max` characters of `text`.
#[cfg(test)]
mod tests;
