//! The window's history: every figure made for a data folder, kept across launches in the
//! app's data folder (`<data dir>/pdfagent/history/<folder>-<hash>.json`), never beside the
//! user's data. Each entry keeps the figure's file, name, format, time, size and code; the
//! figure's own embedded record (when the file is still there) is what decides whether it
//! is fresh or stale. "Re-run stale" redraws the stale ones through the warm pool — the same
//! checked, confined pipeline as Run — with progress events and the usual Cancel; what it
//! redrew goes back to the window (the session's gallery) and into the history.
//!
//! Each entry shows its picture: `history_figure` hands the webview the bytes of a file the
//! history names (and of nothing else), which it shows from a `blob:` URL scaled by CSS —
//! no image is decoded in the host. The watch in `watch.rs` says when to judge again.

use super::commands::{self, CommandError, task};
use super::{AppState, Inner};
use python_runtime::CancelFlag;
use python_runtime::provenance::{self, folder};
use python_runtime::versions;
use python_runtime::{FigureFormat, FigureResult, Outcome, SavedFigure};
use serde::{Deserialize, Serialize};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::{Arc, MutexGuard};
use tauri::{AppHandle, Emitter, State, ipc::Response};

/// Most entries kept per data folder (the oldest go first).
pub const MAX_ENTRIES: usize = 500;
/// Most versions shown under one entry (the newest; `pdfagent versions NAME` lists all).
pub const MAX_VERSIONS_SHOWN: usize = 50;
/// Largest history file read.
const MAX_FILE_BYTES: u64 = 64 << 20;

/// One figure made.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    pub file: PathBuf,
    pub name: String,
    pub format: FigureFormat,
    pub created: String,
    pub bytes: u64,
    pub code: String,
}

/// A data folder's history, newest first.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct History {
    pub folder: PathBuf,
    pub figures: Vec<Record>,
}

/// Where the histories live: `<data dir>/pdfagent/history` (`None`: no data dir known).
pub fn store_dir() -> Option<PathBuf> {
    dirs::data_dir().map(|d| d.join("pdfagent").join("history"))
}

/// The history file of `folder` in `store`: its name plus a hash of its whole path, so
/// two folders of one name never share a history.
pub fn file_for(store: &Path, folder: &Path) -> PathBuf {
    let name: String = folder
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .take(40)
        .collect();
    let hash = provenance::sha256_hex(folder.to_string_lossy().as_bytes());
    store.join(format!("{name}-{}.json", &hash[..16]))
}

/// The history in `path`; empty when there is none or it cannot be read (a damaged file is
/// replaced at the next save).
pub fn load(path: &Path, folder: &Path) -> History {
    let read = std::fs::metadata(path)
        .ok()
        .filter(|m| m.len() <= MAX_FILE_BYTES)
        .and_then(|_| std::fs::read(path).ok())
        .and_then(|bytes| serde_json::from_slice::<History>(&bytes).ok());
    match read {
        Some(history) if history.folder == folder => history,
        _ => History {
            folder: folder.to_path_buf(),
            figures: Vec::new(),
        },
    }
}

/// The history could not be written.
#[derive(Debug, thiserror::Error)]
#[error(
    "could not save the history `{}`: {source}; check that the app's data folder is writable",
    path.display()
)]
pub struct SaveError {
    path: PathBuf,
    #[source]
    source: std::io::Error,
}

/// Write `history` to `path` atomically (a temporary file in the same folder, renamed).
pub fn save(path: &Path, history: &History) -> Result<(), SaveError> {
    let fail = |source: std::io::Error| SaveError {
        path: path.to_path_buf(),
        source,
    };
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(fail)?;
    let mut tmp = tempfile::Builder::new()
        .prefix(".history.")
        .suffix(".tmp")
        .tempfile_in(dir)
        .map_err(fail)?;
    let json = serde_json::to_vec_pretty(history).map_err(|e| fail(std::io::Error::other(e)))?;
    tmp.write_all(&json).map_err(fail)?;
    tmp.as_file().sync_all().map_err(fail)?;
    tmp.persist(path).map_err(|e| fail(e.error))?;
    Ok(())
}

impl History {
    /// Add the figures of a successful run (newest first; a file made again replaces its
    /// older entry).
    pub fn add(&mut self, result: &FigureResult, name: &str, code: &str, now: &str) {
        for figure in result.figures.iter().rev() {
            self.figures.retain(|r| r.file != figure.path);
            self.figures.insert(
                0,
                Record {
                    file: figure.path.clone(),
                    name: name.to_owned(),
                    format: figure.format,
                    created: now.to_owned(),
                    bytes: figure.bytes,
                    code: code.to_owned(),
                },
            );
        }
        self.figures.truncate(MAX_ENTRIES);
    }
}

/// Whether an entry's figure still shows its data.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ts_rs::TS)]
#[serde(rename_all = "kebab-case")]
pub enum Freshness {
    Fresh,
    Stale,
    /// The figure file is gone (its code is still here).
    Gone,
    NoRecord,
    Untrusted,
}

/// An entry as the window shows it.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
#[ts(rename = "HistoryEntry")]
pub struct EntryView {
    pub file: String,
    pub name: String,
    pub format: FigureFormat,
    pub created: String,
    pub bytes: u64,
    pub code: String,
    pub state: Freshness,
    /// The data files that changed or are gone (stale only).
    pub changed: Vec<String>,
    /// The earlier versions of this figure kept in the figures folder's store, newest
    /// first (at most [`MAX_VERSIONS_SHOWN`]); empty for an extra figure of a run (its
    /// group's versions are under the run's main figure).
    pub versions: Vec<VersionView>,
    /// How many versions the store keeps of it in all.
    pub version_count: usize,
}

/// One kept version of an entry's figure.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
#[ts(rename = "HistoryVersion")]
pub struct VersionView {
    pub version: u64,
    /// Its main file in the store (what `history_figure` shows).
    pub file: String,
    pub format: FigureFormat,
    /// The whole group's size.
    pub bytes: u64,
    /// When the figure was made (its record's time, else when its run was submitted).
    pub created: String,
    /// When a later run (or a restore) replaced it.
    pub kept: String,
    /// The code that made it, from the file's embedded record (`None`: no record).
    pub code: Option<String>,
}

/// The figures folder and group name of a history record, when the record is a group's
/// main figure (`FIGURES/NAME.png` of the run `NAME`).
fn group_of(record: &Record) -> Option<(PathBuf, String)> {
    let figures = record.file.parent()?;
    let stem = record.file.file_stem()?.to_str()?;
    (stem == record.name).then(|| (figures.to_path_buf(), stem.to_owned()))
}

/// The kept versions of `record`'s group, newest first.
fn versions_of(record: &Record) -> (Vec<VersionView>, usize) {
    let Some((figures, name)) = group_of(record) else {
        return (Vec::new(), 0);
    };
    let listed = versions::list(&figures, &name).unwrap_or_default();
    let count = listed.len();
    let shown = listed
        .into_iter()
        .rev()
        .take(MAX_VERSIONS_SHOWN)
        .map(|v| {
            let code = provenance::read(&v.path)
                .ok()
                .and_then(|(_, p)| p)
                .map(|p| p.code);
            VersionView {
                version: v.version,
                format: FigureFormat::of_path(&v.path).unwrap_or(record.format),
                file: v.path.display().to_string(),
                bytes: v.bytes,
                created: v.created.unwrap_or_else(|| v.submitted.clone()),
                kept: v.kept,
                code,
            }
        })
        .collect();
    (shown, count)
}

/// Whether `file` is a file of a kept version of a group the history names.
fn is_version_of_history(history: &History, file: &Path) -> bool {
    let Some((figures, name, version)) = versions::locate(file) else {
        return false;
    };
    let named = history
        .figures
        .iter()
        .filter_map(group_of)
        .any(|(f, n)| f == figures && n == name);
    named
        && versions::get(&figures, &name, version)
            .is_ok_and(|v| v.files.iter().any(|f| f.path == file))
}

/// Each entry judged against the data folder now, from the record inside its file.
pub fn view(history: &History) -> Vec<EntryView> {
    history
        .figures
        .iter()
        .map(|r| {
            let (versions, version_count) = versions_of(r);
            let mut entry = EntryView {
                file: r.file.display().to_string(),
                name: r.name.clone(),
                format: r.format,
                created: r.created.clone(),
                bytes: r.bytes,
                code: r.code.clone(),
                state: Freshness::Gone,
                changed: Vec::new(),
                versions,
                version_count,
            };
            if !r.file.is_file() {
                return entry;
            }
            let judged = folder::judge(&r.file, &history.folder);
            entry.bytes = judged.bytes;
            entry.state = match judged.freshness {
                folder::Freshness::Fresh => Freshness::Fresh,
                folder::Freshness::Stale => Freshness::Stale,
                folder::Freshness::NoRecord => Freshness::NoRecord,
                folder::Freshness::Untrusted => Freshness::Untrusted,
            };
            entry.changed = judged.changed;
            if let Some(p) = judged.provenance {
                // The file's own record is what ran last (a re-run from elsewhere included).
                entry.code = p.code;
                entry.created = p.created;
            }
            entry
        })
        .collect()
}

/// Why a history command did not do what the webview asked (serialised as its sentence,
/// as [`CommandError`] is).
#[derive(Debug, thiserror::Error)]
pub enum HistoryError {
    #[error("this system has no per-user data folder for the history")]
    NoStore,
    #[error("`{}` is not a figure of this folder's history", .0.display())]
    NotInHistory(PathBuf),
    #[error("`{}` is not a figure", .0.display())]
    NotAFigure(PathBuf),
    #[error("`{}` has no versions in this folder's history", .0.display())]
    NoVersions(PathBuf),
    #[error(transparent)]
    Versions(#[from] versions::VersionsError),
    #[error(transparent)]
    Command(#[from] CommandError),
}

impl Serialize for HistoryError {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.to_string())
    }
}

fn lock<'a>(state: &'a State<'_, AppState>) -> MutexGuard<'a, Inner> {
    state.inner.lock().unwrap_or_else(|p| p.into_inner())
}

/// Remember the figures of a successful run of `name` with `code` for data folder `src`.
/// Best effort: a history that cannot be written does not fail the figure.
pub fn remember(src: &Path, result: &FigureResult, name: &str, code: &str) {
    if !result.ok {
        return;
    }
    let Some(store) = store_dir() else {
        return;
    };
    let path = file_for(&store, src);
    let mut history = load(&path, src);
    history.add(
        result,
        name,
        code,
        &provenance::rfc3339(std::time::SystemTime::now()),
    );
    if let Err(e) = save(&path, &history) {
        eprintln!("pdfagent: {e}");
    }
}

fn current(state: &State<'_, AppState>) -> Result<(PathBuf, History), HistoryError> {
    let folder = lock(state)
        .settings
        .folder
        .clone()
        .ok_or(CommandError::NoDataFolder)?;
    let store = store_dir().ok_or(HistoryError::NoStore)?;
    let path = file_for(&store, &folder);
    let history = load(&path, &folder);
    Ok((path, history))
}

/// The history of the open data folder, each figure judged fresh or stale now.
#[tauri::command]
pub async fn history_list(state: State<'_, AppState>) -> Result<Vec<EntryView>, HistoryError> {
    let (_, history) = current(&state)?;
    Ok(tauri::async_runtime::spawn_blocking(move || view(&history))
        .await
        .map_err(task("reading the history failed"))?)
}

/// The picture of a history entry of the open data folder, as bytes (the webview draws PNG,
/// JPEG and SVG from a `blob:` URL): `file` must be a figure file the history names, or a
/// file of a kept version of one of its figures — a path from the webview is never opened
/// otherwise.
#[tauri::command]
pub async fn history_figure(
    state: State<'_, AppState>,
    file: String,
) -> Result<Response, HistoryError> {
    let (_, history) = current(&state)?;
    let file = PathBuf::from(file);
    if !history.figures.iter().any(|r| r.file == file) && !is_version_of_history(&history, &file) {
        return Err(HistoryError::NotInHistory(file));
    }
    if FigureFormat::of_path(&file).is_none() {
        return Err(HistoryError::NotAFigure(file));
    }
    Ok(
        tauri::async_runtime::spawn_blocking(move || commands::read_capped(&file))
            .await
            .map_err(task("reading the figure failed"))?
            .map(Response::new)?,
    )
}

/// Make `version` of the entry `file`'s figure current again (the engine's restore: the
/// figure now under the name is kept as a version first, nothing is lost). Returns the
/// sentence the window shows.
#[tauri::command]
pub async fn history_restore(
    state: State<'_, AppState>,
    file: String,
    version: u64,
) -> Result<String, HistoryError> {
    let (_, history) = current(&state)?;
    let file = PathBuf::from(file);
    let (figures, name) = history
        .figures
        .iter()
        .find(|r| r.file == file)
        .and_then(group_of)
        .ok_or_else(|| HistoryError::NoVersions(file.clone()))?;
    let restored = tauri::async_runtime::spawn_blocking(move || {
        versions::restore(&figures, &name, version).map(|r| (name, r))
    })
    .await
    .map_err(task("the restore failed"))?;
    let (name, restored) = restored?;
    Ok(match restored.replaced {
        Some(kept) => format!(
            "Version {version} of {name} is the current figure again; the one it replaced is              kept as version {}.",
            kept.version
        ),
        None => format!("Version {version} of {name} is the current figure again."),
    })
}

/// The size of the figures folder's versions store (what Settings shows, so nothing is
/// pruned silently: `pdfagent versions NAME --prune` is how a person removes versions).
/// Needs no open data folder: the store belongs to the figures folder.
#[tauri::command]
pub async fn versions_store_size(
    state: State<'_, AppState>,
) -> Result<versions::StoreSize, CommandError> {
    let figures = lock(&state).settings.figures.clone();
    tauri::async_runtime::spawn_blocking(move || versions::store_size(&figures))
        .await
        .map_err(task("measuring the versions store failed"))
}

/// The `history-progress` event.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
#[ts(rename = "HistoryProgress")]
pub struct Progress {
    done: usize,
    total: usize,
    file: String,
    ok: Option<bool>,
    message: Option<String>,
}

/// What "Re-run stale" did.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct RerunSummary {
    pub total: usize,
    pub redrawn: usize,
    pub failed: Vec<String>,
    pub cancelled: bool,
    /// PDFAgent was updated while the window was open: what was not redrawn did not run, and
    /// this sentence says to restart.
    pub updated: Option<String>,
    /// Each run that redrew figures, in order: the session's gallery shows them.
    pub runs: Vec<RedrawnRun>,
}

/// The figures one re-run made, with the code that made them.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct RedrawnRun {
    pub name: String,
    pub code: String,
    pub figures: Vec<SavedFigure>,
}

/// Redraw every stale figure of the open folder's history with its embedded code (checked
/// and confined again), one after the other, reporting `history-progress` events; the
/// Cancel button (`cancel_run`) stops the one running and the rest.
#[tauri::command]
pub async fn history_rerun_stale(
    app: AppHandle,
    state: State<'_, AppState>,
) -> Result<RerunSummary, HistoryError> {
    let (_, history) = current(&state)?;
    let cancel = CancelFlag::default();
    let settings = {
        let mut inner = lock(&state);
        if inner.cancel.is_some() {
            return Err(CommandError::Busy.into());
        }
        inner.cancel = Some(cancel.clone());
        (inner.settings.figures.clone(), inner.settings.limits())
    };
    let pool = Arc::clone(&state.pool);
    let job = tauri::async_runtime::spawn_blocking(move || {
        rerun_stale(&app, &history, &settings.0, settings.1, &pool, &cancel)
    })
    .await;
    lock(&state).cancel = None;
    Ok(job.map_err(task("the re-run failed"))?)
}

fn rerun_stale(
    app: &AppHandle,
    history: &History,
    figures: &Path,
    limits: python_runtime::Limits,
    pool: &python_runtime::WarmPool,
    cancel: &CancelFlag,
) -> RerunSummary {
    use std::sync::atomic::Ordering;
    // Each stale figure is redrawn where its file is (the figures folder it was made in),
    // under its file's name, once per run (`folder::plan_reruns`).
    let judged: Vec<(PathBuf, provenance::Provenance, PathBuf)> = history
        .figures
        .iter()
        .filter_map(|r| {
            let judged = folder::judge(&r.file, &history.folder);
            let p = judged.provenance?;
            if judged.freshness != folder::Freshness::Stale {
                return None;
            }
            let target = r
                .file
                .parent()
                .map(Path::to_path_buf)
                .unwrap_or(figures.to_path_buf());
            Some((r.file.clone(), p, target))
        })
        .collect();
    let plan = folder::plan_reruns(
        judged.iter().map(|(f, p, t)| (f.as_path(), p, t.as_path())),
        &history.folder,
        limits,
    );
    let stale: Vec<(PathBuf, provenance::Provenance, folder::Rerun)> = judged
        .into_iter()
        .zip(plan)
        .filter_map(|((file, p, _), planned)| match planned {
            folder::Planned::Run(rerun) => Some((file, p, rerun)),
            _ => None,
        })
        .collect();
    let total = stale.len();
    let mut summary = RerunSummary {
        total,
        redrawn: 0,
        failed: Vec::new(),
        cancelled: false,
        updated: None,
        runs: Vec::new(),
    };
    let shown: Vec<String> = stale
        .iter()
        .map(|(f, _, _)| f.display().to_string())
        .collect();
    let requests: Vec<_> = stale.iter().map(|(_, _, r)| r.request.clone()).collect();
    let _ = app.emit(
        "history-progress",
        Progress {
            done: 0,
            total,
            file: shown.first().cloned().unwrap_or_default(),
            ok: None,
            message: None,
        },
    );
    // Up to one figure per core at once (pool.submit_all), each reported as it ends.
    let finished = std::sync::atomic::AtomicUsize::new(0);
    let results = pool.submit_all(&requests, cancel, &|index, result| {
        if result.ok {
            remember(
                &history.folder,
                result,
                &stale[index].2.request.name,
                &stale[index].1.code,
            );
        }
        let _ = app.emit(
            "history-progress",
            Progress {
                done: finished.fetch_add(1, Ordering::SeqCst) + 1,
                total,
                file: shown[index].clone(),
                ok: Some(result.ok),
                message: result.hint.clone(),
            },
        );
    });
    for (index, result) in results.into_iter().enumerate() {
        match result {
            Some(result) if result.ok => {
                summary.redrawn += 1;
                summary.runs.push(RedrawnRun {
                    name: stale[index].2.request.name.clone(),
                    code: stale[index].1.code.clone(),
                    figures: result.figures,
                });
            }
            Some(result) if result.stage == Outcome::Updated => {
                summary.failed.push(shown[index].clone());
                summary.updated = result.hint;
            }
            Some(result) if !result.cancelled => summary.failed.push(shown[index].clone()),
            _ => summary.cancelled = true,
        }
    }
    summary
}

#[cfg(test)]
mod tests {
    use super::*;
    use python_runtime::{Captured, SavedFigure};

    fn result(paths: &[&Path]) -> FigureResult {
        FigureResult {
            ok: true,
            stage: Outcome::Done,
            figure: paths.first().map(|p| p.to_path_buf()),
            bytes: Some(10),
            figures: paths
                .iter()
                .map(|p| SavedFigure {
                    path: p.to_path_buf(),
                    bytes: 10,
                    format: FigureFormat::Png,
                    captured: Captured::Out,
                    saved_as: None,
                    report: None,
                    report_text: None,
                    provenance: None,
                    preview: None,
                })
                .collect(),
            ms: 1,
            errors: Vec::new(),
            hint: None,
            stderr_tail: String::new(),
            cancelled: false,
            failure: None,
            replaced: None,
            guard: Vec::new(),
        }
    }

    #[test]
    fn a_history_survives_a_save_and_load_and_replaces_refigured_files() {
        let store = tempfile::tempdir().unwrap();
        let folder = Path::new("/data/run 42");
        let path = file_for(store.path(), folder);
        assert!(
            path.file_name()
                .unwrap()
                .to_str()
                .unwrap()
                .starts_with("run_42-")
        );
        assert_ne!(path, file_for(store.path(), Path::new("/other/run 42")));
        let mut history = load(&path, folder);
        assert!(history.figures.is_empty());
        let (a, b) = (Path::new("/f/a.png"), Path::new("/f/a-2.png"));
        history.add(&result(&[a, b]), "a", "plt.savefig(OUT)\n", "t1");
        history.add(&result(&[a]), "a", "plt.plot([1])\n", "t2");
        save(&path, &history).unwrap();
        let back = load(&path, folder);
        assert_eq!(back, history);
        assert_eq!(back.figures.len(), 2);
        assert_eq!(back.figures[0].file, a);
        assert_eq!(back.figures[0].code, "plt.plot([1])\n");
        // A gone figure keeps its code; another folder's file is not this history.
        assert_eq!(view(&back)[0].state, Freshness::Gone);
        assert!(load(&path, Path::new("/elsewhere")).figures.is_empty());
        std::fs::write(&path, b"{damaged").unwrap();
        assert!(load(&path, folder).figures.is_empty());
        let leftovers: Vec<_> = std::fs::read_dir(store.path())
            .unwrap()
            .filter_map(Result::ok)
            .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
            .collect();
        assert!(leftovers.is_empty());
    }

    #[test]
    fn history_is_capped() {
        let mut history = History::default();
        for i in 0..(MAX_ENTRIES + 10) {
            let file = PathBuf::from(format!("/f/{i}.png"));
            history.add(&result(&[&file]), "n", "", "t");
        }
        assert_eq!(history.figures.len(), MAX_ENTRIES);
        assert_eq!(
            history.figures[0].file,
            Path::new(&format!("/f/{}.png", MAX_ENTRIES + 9))
        );
    }
}
