//! The figures of a folder with their records, judged against a data folder: what
//! `pdfagent rerun --all`, the MCP tool `list_figures` and the window's history show.

use super::{InputState, Provenance, compare_inputs, is_stale, read};
use crate::pipeline::figures::ownership;
use crate::pipeline::{FigureFormat, FigureRequest, Limits, name};
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

/// What re-running one figure file makes: the request, and what the caller must be told
/// when the record names another figure than the file.
#[derive(Debug, Clone)]
pub struct Rerun {
    pub request: FigureRequest,
    /// Set when the record's name is not the file's: a copy of another figure, an extra of
    /// a run, or a crafted record. Part of the result the user sees.
    pub note: Option<String>,
}

/// Why a figure file cannot be re-run.
#[derive(Debug, Clone, thiserror::Error)]
pub enum RerunError {
    #[error(
        "`{}` cannot be re-run under its own name: {source}; rename the file first",
        file.display()
    )]
    NotAFigureName {
        file: PathBuf,
        #[source]
        source: name::BadName,
    },
}

/// The request that makes the figure `file` again from the data in `src` into `figures`,
/// with the code and format of its record `p` (untrusted input:
/// [`crate::pipeline::make_figure`] checks the code with Layer 1 again).
///
/// The name comes from the file, never from the record: a rerun of `c.png` writes `c.png`
/// (and `c`'s own extras), whatever name its record carries, so a copied or crafted record
/// cannot aim a rerun at another figure. The one exception is defined by the folder's own
/// index, not by the record: a file that is an extra figure of a run (`a-2.png`, figure 2 of
/// `a`), whose record says so, re-runs that run — `a.png` and its extras — as the code
/// draws them together. Fails when the file's name is not a figure name.
pub fn rerun_of(
    file: &Path,
    p: &Provenance,
    src: &Path,
    figures: &Path,
    limits: Limits,
) -> Result<Rerun, RerunError> {
    use unicode_normalization::UnicodeNormalization as _;
    let file_name: String = file
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default()
        .nfc()
        .collect();
    let stem: String = Path::new(&file_name)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or_default()
        .to_owned();
    let stem = name::checked_name(&stem).map_err(|source| RerunError::NotAFigureName {
        file: file.to_path_buf(),
        source,
    })?;
    let own_folder = file.parent().unwrap_or(figures);
    let extra_of_record =
        || ownership::owner_of(own_folder, &stem).is_some_and(|owner| owner.name == p.name);
    let (name, note) = if p.file == file_name && p.name == stem {
        (stem, None)
    } else if p.file == file_name && extra_of_record() {
        let note = format!(
            "`{file_name}` is an extra figure of the run `{}`: that run was made again, with \
             all its figures",
            p.name
        );
        (p.name.clone(), Some(note))
    } else {
        let note = format!(
            "the record in `{file_name}` names the figure `{}` (`{}`), not this file: re-run as \
             `{stem}`; `{}` was not touched",
            p.name, p.file, p.file
        );
        (stem, Some(note))
    };
    let request = FigureRequest {
        name,
        code: p.code.clone().into_bytes(),
        src: src.to_path_buf(),
        figures: figures.to_path_buf(),
        format: match p.format {
            FigureFormat::Jpeg => FigureFormat::Png,
            f => f,
        },
        limits,
        preview: false,
    };
    Ok(Rerun { request, note })
}

/// What a re-run of several stale figures does with one of them ([`plan_reruns`]).
#[derive(Debug, Clone)]
pub enum Planned {
    /// The first figure of its run in the plan: re-run it.
    Run(Rerun),
    /// Its run is planned already, by an earlier figure (the same name in the same figures
    /// folder: an extra `a-2.png` after `a.png`, or a second copy of one record): it is
    /// redrawn with that run, not run again.
    WithItsRun(Rerun),
    /// It cannot be re-run under its own name: why, in a sentence ([`rerun_of`]).
    Refused(RerunError),
}

impl Planned {
    /// The re-run's request and note, unless it was refused.
    pub fn rerun(&self) -> Option<&Rerun> {
        match self {
            Planned::Run(rerun) | Planned::WithItsRun(rerun) => Some(rerun),
            Planned::Refused(_) => None,
        }
    }
}

/// The plan for re-running stale figures, one entry per `(file, record, figures folder)` in
/// order: what `pdfagent rerun --all` and the window's "Re-run stale" run. Each file is
/// re-run as [`rerun_of`] says, into its figures folder; a run is one name in one figures
/// folder (where that name's versions are kept), so of the files that re-run the same
/// name into the same folder only the first runs, and the others are redrawn with it.
/// The same name in two figures folders is two figures, both re-run.
pub fn plan_reruns<'a>(
    stale: impl IntoIterator<Item = (&'a Path, &'a Provenance, &'a Path)>,
    src: &Path,
    limits: Limits,
) -> Vec<Planned> {
    let mut runs = std::collections::BTreeSet::new();
    stale
        .into_iter()
        .map(
            |(file, p, figures)| match rerun_of(file, p, src, figures, limits) {
                Err(why) => Planned::Refused(why),
                Ok(rerun) => {
                    let run = (rerun.request.figures.clone(), rerun.request.name.clone());
                    if runs.insert(run) {
                        Planned::Run(rerun)
                    } else {
                        Planned::WithItsRun(rerun)
                    }
                }
            },
        )
        .collect()
}
