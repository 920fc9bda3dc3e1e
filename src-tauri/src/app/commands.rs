//! The commands the webview may call (each one is granted in `capabilities/default.json`).
//! Thin: validate what came from the webview, call the engine, shape the answer. Errors are
//! sentences for the person at the window.

use super::{AppState, Inner, folder, settings, starter};
use python_runtime::CancelFlag;
use python_runtime::inspect::{self, Detail, Inspection};
use python_runtime::listing::{self, Listing};
use python_runtime::names;
use python_runtime::selftest::{self, SelftestReport};
use python_runtime::{
    FigureFormat, FigureRequest, FigureResult, Limits, Stage, WarmPool, validate,
};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::{Arc, MutexGuard};
use tauri::{AppHandle, Emitter, State, ipc::Response};

type CmdResult<T> = Result<T, CommandError>;

/// Why a command did not do what the webview asked, as the sentence the webview receives
/// (serialised as that sentence: the window shows it as it is).
#[derive(Debug, thiserror::Error)]
pub enum CommandError {
    #[error("no data folder is open: choose one first")]
    NoDataFolder,
    #[error("a run is already in progress: wait for it or cancel it")]
    Busy,
    /// The blocking task behind a command ended without an answer.
    #[error("{what}: {source}")]
    Task {
        what: &'static str,
        #[source]
        source: tauri::Error,
    },
    #[error("`{}` cannot be read: {source}", .path.display())]
    Unreadable {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("`{}` is {} MB, too large to show here", .path.display(), .bytes >> 20)]
    TooLarge { path: PathBuf, bytes: u64 },
    #[error("`{0}` is not an image")]
    NotAnImage(String),
    #[error("`{0}` is not in the figures folder")]
    NotInFigures(String),
    #[error("`{0}` is not a file in the figures folder (moved or deleted?)")]
    GoneFromFigures(String),
    #[error("`{0}` is not a figure")]
    NotAFigure(String),
    #[error("the chosen destination is not a file path: {0}")]
    Destination(#[source] Box<dyn std::error::Error + Send + Sync>),
    #[error("could not copy the figure to `{}`: {source}", .dest.display())]
    Copy {
        dest: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("could not start `{program}` to open `{}`: {source}", .target.display())]
    Opener {
        program: String,
        target: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("no program to show folders is installed here (tried {tried}): the figure is in `{}`", .folder.display())]
    NoFolderViewer { tried: String, folder: PathBuf },
    #[error("no program to open files is installed here (tried {tried}): use Show in folder, or open `{}` yourself", .file.display())]
    NoFileViewer { tried: String, file: PathBuf },
    #[error(
        "the time limit must be between {} and {} seconds",
        settings::TIMEOUT_RANGE.start(),
        settings::TIMEOUT_RANGE.end()
    )]
    TimeoutRange,
    #[error(
        "the memory limit must be between {} and {} MB",
        Limits::MIN_MEMORY_MIB,
        Limits::MAX_MEMORY_MIB
    )]
    MemoryRange,
    #[error("the figures folder must be an absolute path")]
    FiguresNotAbsolute,
    #[error("could not create the figures folder `{}`: {source}", .path.display())]
    CreateFigures {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error(transparent)]
    Folder(#[from] folder::FolderError),
    #[error(transparent)]
    Settings(#[from] settings::SaveError),
    #[error(transparent)]
    DataPath(#[from] listing::DataPathError),
    #[error(transparent)]
    Inspect(#[from] inspect::InspectError),
    #[error(transparent)]
    Name(#[from] validate::InputError),
}

impl Serialize for CommandError {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.to_string())
    }
}

/// The error of a command's blocking task that ended without an answer.
pub(super) fn task(what: &'static str) -> impl FnOnce(tauri::Error) -> CommandError {
    move |source| CommandError::Task { what, source }
}

/// Largest image sent to the webview for a preview or a figure.
const MAX_IMAGE_BYTES: u64 = 64 << 20;

fn lock<'a>(state: &'a State<'_, AppState>) -> MutexGuard<'a, Inner> {
    // A panic while holding the lock leaves plain data behind; keep using it.
    state.inner.lock().unwrap_or_else(|p| p.into_inner())
}

#[derive(Debug, Serialize, ts_rs::TS)]
pub struct StateView {
    folder: Option<String>,
    figures: String,
    /// Where figures go when Settings names no folder, in a sentence (Settings shows it).
    figures_default: String,
    timeout_s: u64,
    memory_mb: u64,
    memory_range_mb: (u64, u64),
    timeout_range_s: (u64, u64),
    version: &'static str,
    running: bool,
    /// The MCP client configuration for this executable and folders (Settings shows it),
    /// or why there is none yet.
    mcp_config: String,
}

fn view(inner: &Inner) -> StateView {
    let s = &inner.settings;
    StateView {
        folder: s.folder.as_ref().map(|f| f.display().to_string()),
        figures: s.figures.display().to_string(),
        figures_default: settings::default_figures_text(s.folder.as_deref()),
        timeout_s: s.timeout_s,
        memory_mb: s.memory_mb,
        memory_range_mb: (Limits::MIN_MEMORY_MIB, Limits::MAX_MEMORY_MIB),
        timeout_range_s: (
            *settings::TIMEOUT_RANGE.start(),
            *settings::TIMEOUT_RANGE.end(),
        ),
        version: env!("CARGO_PKG_VERSION"),
        running: inner.cancel.is_some(),
        mcp_config: mcp_snippet(s.folder.as_deref(), &s.figures),
    }
}

fn mcp_snippet(folder: Option<&Path>, figures: &Path) -> String {
    let Some(folder) = folder else {
        return "Open a data folder first: the snippet names it.".to_owned();
    };
    crate::mcp::config::client_config_for_this_exe(folder, figures)
        .map_err(|e| format!("this executable's path cannot be resolved: {e}"))
        .and_then(|v| serde_json::to_string_pretty(&v).map_err(|e| e.to_string()))
        .unwrap_or_else(|e| format!("The snippet is not available: {e}"))
}

fn data_folder(state: &State<'_, AppState>) -> CmdResult<PathBuf> {
    lock(state)
        .settings
        .folder
        .clone()
        .ok_or(CommandError::NoDataFolder)
}

#[tauri::command]
pub fn app_state(state: State<'_, AppState>) -> StateView {
    view(&lock(&state))
}

/// The folder the person picked in the native dialog becomes the data folder.
/// Its changes are watched from now on (live staleness in the history).
#[tauri::command]
pub fn choose_folder(
    app: AppHandle,
    state: State<'_, AppState>,
    path: String,
) -> CmdResult<StateView> {
    let resolved = folder::resolve_folder(Path::new(&path))?;
    let mut inner = lock(&state);
    inner.settings.folder = Some(resolved.clone());
    let figures_before = inner.settings.figures.clone();
    inner.settings.keep_default_figures_outside_the_data();
    if inner.settings.figures != figures_before {
        python_runtime::host::use_figures_folder(&inner.settings.figures);
    }
    inner.settings.save(inner.settings_file.as_deref())?;
    warm_up(&state.pool, &inner.settings);
    state.watch.follow(&app, Some(&resolved));
    Ok(view(&inner))
}

/// Have a warm worker ready for the data folder, figures folder and limits in `settings`
/// (one kept for other settings is discarded): the next Run then does not wait for Python
/// and numpy/matplotlib to start. Without a data folder there is nothing to warm.
pub fn warm_up(pool: &WarmPool, settings: &settings::Settings) {
    let Some(folder) = &settings.folder else {
        return;
    };
    // A refusal here (a folder gone meanwhile) is reported by the next Run, as a sentence.
    if let Err(e) = pool.prepare(folder, &settings.figures, &settings.limits()) {
        eprintln!("pdfagent: no warm worker for `{}`: {e}", folder.display());
    }
}

/// The data folder's tree: the listing MCP's `list_data` gives, with the same policy (links
/// out of the folder shown as refused, hidden names counted).
#[tauri::command]
pub async fn list_folder(state: State<'_, AppState>) -> CmdResult<Listing> {
    let root = data_folder(&state)?;
    tauri::async_runtime::spawn_blocking(move || listing::list(&root, ""))
        .await
        .map_err(task("listing the folder failed"))?
        .map_err(CommandError::from)
}

/// A data file's description and preview: the same inspection, and the same text, as MCP's
/// `describe_data`, computed by the confined worker.
#[tauri::command]
pub async fn preview_file(state: State<'_, AppState>, path: String) -> CmdResult<Inspection> {
    let root = data_folder(&state)?;
    tauri::async_runtime::spawn_blocking(move || {
        let cancel = CancelFlag::default();
        inspect::inspect(
            &root,
            &path,
            Detail::Preview,
            &inspect::default_limits(),
            &cancel,
        )
    })
    .await
    .map_err(task("the preview failed"))?
    .map_err(CommandError::from)
}

/// The code the editor starts with for the data folder: it plots the first table or array
/// the folder's inspection finds (the preview's own), or draws without data when there is
/// none. A file that cannot be read is passed over for the next one.
#[tauri::command]
pub async fn starter_code(state: State<'_, AppState>) -> CmdResult<String> {
    let root = data_folder(&state)?;
    tauri::async_runtime::spawn_blocking(move || {
        let listing = listing::list(&root, "")?;
        let cancel = CancelFlag::default();
        for entry in starter::candidates(&listing) {
            let Ok(found) = inspect::inspect(
                &root,
                &entry.path,
                Detail::Preview,
                &inspect::default_limits(),
                &cancel,
            ) else {
                continue;
            };
            if let Some(code) = found
                .preview
                .and_then(|p| starter::for_file(&entry.path, &p))
            {
                return Ok(code);
            }
        }
        Ok(starter::without_data())
    })
    .await
    .map_err(task("the starter code could not be written"))?
}

/// An image inside the data folder, as bytes (the webview shows it from a `blob:` URL).
#[tauri::command]
pub fn image_bytes(state: State<'_, AppState>, path: String) -> CmdResult<Response> {
    let root = data_folder(&state)?;
    let file = listing::resolve_file(&root, &path)?;
    if !inspect::is_image(&file) {
        return Err(CommandError::NotAnImage(path));
    }
    read_capped(&file).map(Response::new)
}

/// A file's bytes, refused past [`MAX_IMAGE_BYTES`] (also the history's pictures).
pub(super) fn read_capped(file: &Path) -> CmdResult<Vec<u8>> {
    let unreadable = |source| CommandError::Unreadable {
        path: file.to_path_buf(),
        source,
    };
    let size = file.metadata().map_err(unreadable)?.len();
    if size > MAX_IMAGE_BYTES {
        return Err(CommandError::TooLarge {
            path: file.to_path_buf(),
            bytes: size,
        });
    }
    std::fs::read(file).map_err(unreadable)
}

#[derive(Debug, Serialize, ts_rs::TS)]
pub struct CheckView {
    ok: bool,
    errors: Vec<python_runtime::contract::Violation>,
    hint: Option<String>,
}

/// The Layer-1 check, for live diagnostics while typing.
#[tauri::command]
pub async fn check_code(code: String) -> CheckView {
    let checked =
        tauri::async_runtime::spawn_blocking(move || python_runtime::check(code.as_bytes()).err())
            .await;
    match checked {
        Ok(None) => CheckView {
            ok: true,
            errors: Vec::new(),
            hint: None,
        },
        Ok(Some(rejection)) => CheckView {
            ok: false,
            errors: rejection.errors,
            hint: Some(rejection.hint),
        },
        Err(e) => CheckView {
            ok: false,
            errors: Vec::new(),
            hint: Some(format!("the check could not run: {e}")),
        },
    }
}

/// The `run-stage` event.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
pub struct StageEvent {
    stage: Stage,
}

/// Check, run confined and save one figure, reporting each stage as a `run-stage` event.
/// The figure runs on the warm worker kept for the current settings (see [`warm_up`]).
/// `format` is PNG when absent; SVG and PDF (the window's vector export) re-run the code
/// and save FIGURES/NAME.svg or .pdf through the same checked, confined pipeline.
#[tauri::command]
pub async fn run_figure(
    app: AppHandle,
    state: State<'_, AppState>,
    name: String,
    code: String,
    format: Option<FigureFormat>,
) -> CmdResult<FigureResult> {
    let cancel = CancelFlag::default();
    let request = {
        let mut inner = lock(&state);
        if inner.cancel.is_some() {
            return Err(CommandError::Busy);
        }
        let s = &inner.settings;
        let src = s.folder.clone().ok_or(CommandError::NoDataFolder)?;
        // The name as it is saved (NFC), so the history keeps the file's name; a name that
        // is no figure name goes as typed, for the pipeline's refusal.
        let name = validate::figure_name(&name).unwrap_or(name);
        let request = FigureRequest {
            name,
            code: code.into_bytes(),
            src,
            figures: s.figures.clone(),
            format: format.unwrap_or_default(),
            limits: s.limits(),
            preview: false,
        };
        inner.cancel = Some(cancel.clone());
        request
    };
    let worker_cancel = cancel.clone();
    let pool = Arc::clone(&state.pool);
    let result = tauri::async_runtime::spawn_blocking(move || {
        let result = pool.submit(&request, &worker_cancel, &|stage| {
            let _ = app.emit("run-stage", StageEvent { stage });
        });
        let code = String::from_utf8_lossy(&request.code);
        super::history::remember(&request.src, &result, &request.name, &code);
        result
    })
    .await;
    lock(&state).cancel = None;
    result.map_err(task("the run failed"))
}

/// The name field's verdict as the user types, by the engine's own rule (the same one a
/// run applies): the name as it will be saved (NFC), or the sentence saying what is wrong
/// with it — its characters, or a clash with a figure already in the figures folder.
#[tauri::command]
pub fn validate_name(state: State<'_, AppState>, name: String) -> CmdResult<String> {
    let figures = lock(&state).settings.figures.clone();
    let name = validate::figure_name(&name)?;
    names::check_name_free(&figures, &name).map_err(validate::InputError::from)?;
    Ok(name)
}

/// The name to suggest after a run of `name`: free in the figures folder (not a figure's
/// own name, not another run's extra figure, no clash in case).
#[tauri::command]
pub fn suggest_name(state: State<'_, AppState>, name: String) -> String {
    let figures = lock(&state).settings.figures.clone();
    names::next_free_name(&figures, &name)
}

#[tauri::command]
pub fn cancel_run(state: State<'_, AppState>) -> bool {
    match &lock(&state).cancel {
        Some(flag) => {
            flag.store(true, Ordering::SeqCst);
            true
        }
        None => false,
    }
}

/// A figure, as bytes. `path` must be a figure file (PNG, JPEG, SVG, PDF: what a run
/// keeps) inside the figures folder.
fn figure_path(state: &State<'_, AppState>, path: &str) -> CmdResult<PathBuf> {
    let figures = lock(state).settings.figures.clone();
    let name = Path::new(path)
        .strip_prefix(&figures)
        .ok()
        .and_then(|rel| rel.to_str())
        .ok_or_else(|| CommandError::NotInFigures(path.to_owned()))?
        .to_owned();
    let file = listing::resolve_file(&figures, &name)
        .map_err(|_| CommandError::GoneFromFigures(path.to_owned()))?;
    if FigureFormat::of_path(&file).is_none() {
        return Err(CommandError::NotAFigure(path.to_owned()));
    }
    Ok(file)
}

#[tauri::command]
pub fn figure_bytes(state: State<'_, AppState>, path: String) -> CmdResult<Response> {
    let file = figure_path(&state, &path)?;
    read_capped(&file).map(Response::new)
}

/// Save a copy of a figure where the person chooses (native save dialog, opened here so
/// the destination never passes through the webview). `Ok(None)` when they cancelled.
#[tauri::command]
pub async fn export_figure(
    app: AppHandle,
    state: State<'_, AppState>,
    path: String,
) -> CmdResult<Option<String>> {
    use tauri_plugin_dialog::DialogExt;
    let file = figure_path(&state, &path)?;
    let suggested = file
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("figure.png")
        .to_owned();
    let ext = file
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("png")
        .to_owned();
    tauri::async_runtime::spawn_blocking(move || {
        let Some(dest) = app
            .dialog()
            .file()
            .set_file_name(&suggested)
            .add_filter(format!("{} file", ext.to_uppercase()), &[ext.as_str()])
            .blocking_save_file()
        else {
            return Ok(None);
        };
        let dest = dest
            .into_path()
            .map_err(|e| CommandError::Destination(Box::new(e)))?;
        std::fs::copy(&file, &dest).map_err(|source| CommandError::Copy {
            dest: dest.clone(),
            source,
        })?;
        Ok(Some(dest.display().to_string()))
    })
    .await
    .map_err(task("the export failed"))?
}

/// Open a figure in the system's viewer, or its folder in the file manager (`reveal`).
/// Runs the desktop's opener from the app process (never from the confined worker): the
/// first of [`OPENERS`] that is installed. Without any, the sentence says so and where the
/// file is, so the person can go there themselves.
#[tauri::command]
pub fn show_figure(state: State<'_, AppState>, path: String, reveal: bool) -> CmdResult<()> {
    let file = figure_path(&state, &path)?;
    let target = if reveal {
        file.parent()
            .map_or_else(|| file.clone(), Path::to_path_buf)
    } else {
        file.clone()
    };
    for opener in OPENERS {
        let Some((program, args)) = opener.split_first() else {
            continue;
        };
        let started = std::process::Command::new(program)
            .args(args)
            .arg(&target)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn();
        match started {
            Ok(_) => return Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(source) => {
                return Err(CommandError::Opener {
                    program: (*program).to_owned(),
                    target,
                    source,
                });
            }
        }
    }
    let tried: Vec<String> = OPENERS
        .iter()
        .map(|o| format!("`{}`", o.join(" ")))
        .collect();
    let tried = tried.join(", ");
    Err(if reveal {
        let folder = file.parent().unwrap_or(&file).to_path_buf();
        CommandError::NoFolderViewer { tried, folder }
    } else {
        CommandError::NoFileViewer { tried, file }
    })
}

/// The desktop's openers, tried in order (the program, then its arguments before the path).
const OPENERS: &[&[&str]] = if cfg!(target_os = "macos") {
    &[&["open"]]
} else if cfg!(windows) {
    &[&["explorer"]]
} else {
    // xdg-utils is missing on some minimal desktops and in containers; GLib's `gio` is there
    // wherever GTK is, which the window needs anyway.
    &[&["xdg-open"], &["gio", "open"]]
};

#[tauri::command]
pub async fn run_selftest() -> CmdResult<SelftestReport> {
    tauri::async_runtime::spawn_blocking(selftest::run)
        .await
        .map_err(task("the selftest failed to run"))
}

#[tauri::command]
pub fn save_settings(
    state: State<'_, AppState>,
    figures: String,
    timeout_s: u64,
    memory_mb: u64,
) -> CmdResult<StateView> {
    if !settings::TIMEOUT_RANGE.contains(&timeout_s) {
        return Err(CommandError::TimeoutRange);
    }
    if !(Limits::MIN_MEMORY_MIB..=Limits::MAX_MEMORY_MIB).contains(&memory_mb) {
        return Err(CommandError::MemoryRange);
    }
    let figures = PathBuf::from(figures.trim());
    if !figures.is_absolute() {
        return Err(CommandError::FiguresNotAbsolute);
    }
    std::fs::create_dir_all(&figures).map_err(|source| CommandError::CreateFigures {
        path: figures.clone(),
        source,
    })?;
    let figures = folder::resolve_folder(&figures)?;
    let mut inner = lock(&state);
    if inner.settings.figures != figures {
        python_runtime::host::use_figures_folder(&figures);
    }
    inner.settings.figures = figures;
    inner.settings.timeout_s = timeout_s;
    inner.settings.memory_mb = memory_mb;
    inner.settings.save(inner.settings_file.as_deref())?;
    warm_up(&state.pool, &inner.settings);
    Ok(view(&inner))
}
