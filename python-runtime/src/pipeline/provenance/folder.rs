//! The figures of a folder with their records, judged against a data folder: what
//! `pdfagent rerun --all`, the MCP tool `list_figures` and the window's history show.

use super::{InputState, Provenance, compare_inputs, is_stale, read};
use crate::pipeline::{FigureFormat, FigureRequest, Limits};
use serde::Serialize;
use std::path::{Path, PathBuf};

/// Most figure files looked at in one folder.
pub const MAX_FILES: usize = 2000;

/// Whether a figure still shows its data.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Freshness {
    /// Every recorded data file is as it was.
    Fresh,
    /// A recorded data file changed or is gone.
    Stale,
    /// The file carries no record (made before provenance, elsewhere, or a JPEG).
    NoRecord,
    /// The record is damaged or was altered: not trusted, not re-run.
    Untrusted,
}

/// One figure file of a folder.
#[derive(Debug, Clone, Serialize)]
pub struct Entry {
    pub file: PathBuf,
    pub bytes: u64,
    pub freshness: Freshness,
    /// Why the record is not trusted (`untrusted` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub problem: Option<String>,
    /// The data files that changed or are gone (`stale` only).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub changed: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub provenance: Option<Provenance>,
}

impl Entry {
    /// The record's figure name, if there is a trusted record.
    pub fn name(&self) -> Option<&str> {
        self.provenance.as_ref().map(|p| p.name.as_str())
    }
}

/// One figure file judged against `src`.
pub fn judge(file: &Path, src: &Path) -> Entry {
    let bytes = file.metadata().map(|m| m.len()).unwrap_or(0);
    let entry = |freshness, problem, changed, provenance| Entry {
        file: file.to_path_buf(),
        bytes,
        freshness,
        problem,
        changed,
        provenance,
    };
    match read(file) {
        Ok((_, None)) => entry(Freshness::NoRecord, None, Vec::new(), None),
        Ok((_, Some(p))) => {
            let states = compare_inputs(&p, src);
            let changed: Vec<String> = states
                .iter()
                .filter(|(_, s)| matches!(s, InputState::Changed | InputState::Missing))
                .map(|(i, _)| i.path.clone())
                .collect();
            let freshness = if is_stale(&states) {
                Freshness::Stale
            } else {
                Freshness::Fresh
            };
            entry(freshness, None, changed, Some(p))
        }
        Err(e) => entry(Freshness::Untrusted, Some(e.to_string()), Vec::new(), None),
    }
}

/// Every figure file (PNG, SVG, PDF, JPEG) directly in `figures`, sorted by name, judged
/// against `src`. Hidden files (the folder's own bookkeeping, temporary files) are skipped.
pub fn scan(figures: &Path, src: &Path) -> std::io::Result<Vec<Entry>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(figures)?
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .map(|e| e.path())
        .filter(|p| {
            let hidden = p
                .file_name()
                .and_then(|n| n.to_str())
                .is_none_or(|n| n.starts_with('.'));
            !hidden && FigureFormat::of_path(p).is_some()
        })
        .collect();
    files.sort();
    files.truncate(MAX_FILES);
    Ok(files.iter().map(|f| judge(f, src)).collect())
}

/// The request that makes the figure of `p` again from the data in `src`: its recorded
/// code (untrusted input: [`crate::pipeline::make_figure`] checks it with Layer 1 again),
/// name and format.
pub fn rerun_request(p: &Provenance, src: &Path, figures: &Path, limits: Limits) -> FigureRequest {
    FigureRequest {
        name: p.name.clone(),
        code: p.code.clone().into_bytes(),
        src: src.to_path_buf(),
        figures: figures.to_path_buf(),
        format: match p.format {
            FigureFormat::Jpeg => FigureFormat::Png,
            f => f,
        },
        limits,
        preview: false,
    }
}
