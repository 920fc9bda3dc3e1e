//! The window: a Tauri v2 shell over the engine. Commands are thin calls into
//! `python_runtime`; long work runs on blocking threads and reports progress as events.
//!
//! - [`settings`]: what is remembered across launches (app config dir);
//! - [`folder`]: the folders the person chooses (data, figures); paths inside them from the
//!   webview go through the engine's one resolver (`pipeline::data::listing`), and a file's
//!   preview is the engine's inspection (`pipeline::data::inspect`), the one MCP describes with;
//! - [`history`]: every figure made per data folder, across launches, fresh or stale;
//! - [`starter`]: the editor's starter code, written from the inspection of the folder's
//!   first table or array;
//! - [`watch`]: the open data folder watched, so the history marks stale figures live;
//! - [`commands`]: the `#[tauri::command]`s the webview may call (see capabilities/);
//! - [`bindings`]: the TypeScript types of what they return (`ui/src/bindings.ts`).

#[cfg(test)]
mod bindings;
mod commands;
mod folder;
mod history;
mod settings;
mod starter;
mod watch;

use python_runtime::WarmPool;
use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Everything the commands share.
pub struct AppState {
    inner: Mutex<Inner>,
    /// One warm worker kept ready for the current data folder and settings.
    pool: Arc<WarmPool>,
    /// The open data folder's watch (live staleness); `None` without a folder.
    watch: watch::FolderWatch,
}

struct Inner {
    settings: settings::Settings,
    /// Where the settings are saved (`None` if the config dir is unknown: nothing is kept).
    settings_file: Option<PathBuf>,
    /// Cancels the run in progress, if any.
    cancel: Option<python_runtime::CancelFlag>,
}

/// Longest the app waits, on its way out, for a cancelled figure's worker to be killed and
/// for the warm worker to be stopped.
const EXIT_WAIT: Duration = Duration::from_secs(5);

impl AppState {
    /// The process ends without dropping managed state: stop the figure in progress (its
    /// worker tree is killed by the thread supervising it) and the warm worker, and let
    /// their run directories be removed, before it does.
    fn shut_down(&self) {
        let deadline = Instant::now() + EXIT_WAIT;
        let lock = || self.inner.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(flag) = &lock().cancel {
            flag.store(true, Ordering::SeqCst);
        }
        while lock().cancel.is_some() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(10));
        }
        self.pool
            .shutdown(deadline.saturating_duration_since(Instant::now()));
    }
}

/// Open the window; `folder` (from `--open DIR`) replaces the remembered data folder.
/// Returns the process exit status.
pub fn run(folder: Option<PathBuf>) -> i32 {
    let result = tauri::Builder::default()
        .plugin(tauri_plugin_dialog::init())
        .setup(move |app| {
            use tauri::Manager;
            let settings_file = app
                .path()
                .app_config_dir()
                .ok()
                .map(|dir| dir.join(settings::FILE_NAME));
            let default_figures = settings::default_figures();
            let mut settings = settings::Settings::load(settings_file.as_deref(), default_figures);
            if let Some(dir) = &folder {
                match folder::resolve_folder(dir) {
                    Ok(dir) => settings.folder = Some(dir),
                    Err(err) => eprintln!("pdfagent: --open: {err}"),
                }
            }
            settings.keep_default_figures_outside_the_data();
            // Before anything can start a worker: an update while the window is open is then
            // told apart from a broken installation (on Linux this library keeps its own copy
            // of the engine's state, so the window starts as a host itself).
            python_runtime::host::init(python_runtime::host::Host::Window, Some(&settings.figures));
            // A signal (logout, `kill`, a test driver ending its session) ends the app
            // through the event loop, so the Exit handler below still runs.
            let handle = app.handle().clone();
            tauri::async_runtime::spawn(async move {
                crate::signals::listen().await;
                handle.exit(0);
            });
            let pool = Arc::new(WarmPool::new());
            commands::warm_up(&pool, &settings);
            let watch = watch::FolderWatch::default();
            watch.follow(app.handle(), settings.folder.as_deref());
            app.manage(AppState {
                inner: Mutex::new(Inner {
                    settings,
                    settings_file,
                    cancel: None,
                }),
                pool,
                watch,
            });
            Ok(())
        })
        .invoke_handler(tauri::generate_handler![
            commands::app_state,
            commands::choose_folder,
            commands::list_folder,
            commands::preview_file,
            commands::starter_code,
            commands::image_bytes,
            commands::check_code,
            commands::run_figure,
            commands::validate_name,
            commands::suggest_name,
            commands::cancel_run,
            commands::figure_bytes,
            commands::export_figure,
            commands::show_figure,
            commands::run_selftest,
            commands::save_settings,
            history::history_list,
            history::history_rerun_stale,
            history::history_figure,
            history::history_restore,
            history::versions_store_size,
        ])
        .build(tauri::generate_context!())
        .map(|app| {
            app.run(|app, event| {
                if let tauri::RunEvent::Exit = event {
                    use tauri::Manager;
                    if let Some(state) = app.try_state::<AppState>() {
                        state.shut_down();
                    }
                }
            })
        });
    match result {
        Ok(()) => 0,
        Err(err) => {
            eprintln!(
                "pdfagent: could not open the window: {err}; on Linux it needs a display and \
                 WebKitGTK 4.1 (`libwebkit2gtk-4.1-0`); the command line works without both \
                 (`pdfagent --help`)"
            );
            1
        }
    }
}
