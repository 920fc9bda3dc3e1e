//! Live staleness: the window watches the open data folder and tells the webview (the
//! `data-changed` event) when a file in it was written, created, removed or renamed, so the
//! history judges its figures again (`history_list`) with no run in between. The figures'
//! own records decide what is stale (`history::view`); this module only says *when* to look.
//!
//! The OS's events (inotify, FSEvents, ReadDirectoryChangesW) are debounced
//! ([`DEBOUNCE`]). Where they do not arrive — a network share (NFS, SMB/CIFS, FUSE mounts
//! such as sshfs, 9p), or the inotify watch limit reached while the tree is added — the
//! folder is polled every [`POLL_INTERVAL`] instead. Either way a change is reported well
//! within the 2 s the window promises.

use notify_debouncer_full::notify::event::{AccessKind, AccessMode, MetadataKind, ModifyKind};
use notify_debouncer_full::notify::{self, EventKind, RecursiveMode};
use notify_debouncer_full::{DebounceEventResult, NoCache, new_debouncer, new_debouncer_opt};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tauri::{AppHandle, Emitter};

/// How long events are gathered before one report (a save is several events).
pub const DEBOUNCE: Duration = Duration::from_millis(250);
/// How often a folder that sends no events is looked at.
pub const POLL_INTERVAL: Duration = Duration::from_millis(700);

/// How the folder is watched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WatchMode {
    /// The OS sends events.
    Events,
    /// The folder is scanned every [`POLL_INTERVAL`].
    Polling,
}

/// A running watch; dropping it stops it.
pub struct DataWatch {
    pub mode: WatchMode,
    _debouncer: Box<dyn Send>,
}

impl std::fmt::Debug for DataWatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DataWatch")
            .field("mode", &self.mode)
            .finish()
    }
}

/// The `data-changed` event: files of the open data folder changed (paths relative to it;
/// empty when the watcher only knows that something may have changed).
#[derive(Debug, Clone, serde::Serialize, ts_rs::TS)]
pub struct DataChanged {
    pub paths: Vec<String>,
}

/// The window's watch of its data folder (one at a time).
#[derive(Debug, Default)]
pub struct FolderWatch {
    slot: Arc<Mutex<Slot>>,
}

#[derive(Debug, Default)]
struct Slot {
    /// Counts the folders followed, so a watch that finished starting after another folder
    /// was chosen is dropped instead of kept.
    generation: u64,
    watch: Option<DataWatch>,
}

impl FolderWatch {
    /// Watch the data folder `folder` (replacing the watch of the folder before; `None`
    /// stops it): each change becomes a `data-changed` event. Adding a large tree's watches
    /// takes a while, so the watch starts on a thread of its own. A folder that cannot be
    /// watched is said on stderr; the history is then judged at each listing, as before.
    pub fn follow(&self, app: &AppHandle, folder: Option<&Path>) {
        let generation = {
            let mut slot = self.slot.lock().unwrap_or_else(|p| p.into_inner());
            slot.generation += 1;
            // The old watch stops before the new one starts: one folder's events at a time.
            slot.watch = None;
            slot.generation
        };
        let Some(folder) = folder.map(Path::to_path_buf) else {
            return;
        };
        let app = app.clone();
        let slot = Arc::clone(&self.slot);
        let spawned = std::thread::Builder::new()
            .name("pdfagent-watch".into())
            .spawn(move || {
                let root = folder.clone();
                let emit = move |paths: Vec<PathBuf>| {
                    let paths = paths
                        .iter()
                        .filter_map(|p| p.strip_prefix(&root).ok())
                        .map(|p| p.display().to_string())
                        .collect();
                    let _ = app.emit("data-changed", DataChanged { paths });
                };
                match start(&folder, emit) {
                    Ok(watch) => {
                        let mut slot = slot.lock().unwrap_or_else(|p| p.into_inner());
                        if slot.generation == generation {
                            slot.watch = Some(watch);
                        }
                    }
                    Err(e) => {
                        eprintln!("pdfagent: {e}; the history is judged again at each listing")
                    }
                }
            });
        if let Err(e) = spawned {
            eprintln!("pdfagent: the data folder is not watched (no thread: {e})");
        }
    }
}

/// The data folder cannot be watched, not even by polling.
#[derive(Debug, thiserror::Error)]
#[error("cannot look for changes in `{}`: {source}", .folder.display())]
pub struct WatchError {
    folder: PathBuf,
    #[source]
    source: notify::Error,
}

fn refused(folder: &Path) -> impl FnOnce(notify::Error) -> WatchError {
    move |source| WatchError {
        folder: folder.to_path_buf(),
        source,
    }
}

/// Watch `folder` (recursively); `on_change` gets the changed paths, at most once per
/// debounce period. Events where the OS sends them, polling where it does not.
pub fn start(
    folder: &Path,
    on_change: impl Fn(Vec<PathBuf>) + Send + Sync + 'static,
) -> Result<DataWatch, WatchError> {
    let on_change = std::sync::Arc::new(on_change);
    if !sends_no_events(folder) {
        let handler = {
            let on_change = std::sync::Arc::clone(&on_change);
            move |result: DebounceEventResult| report(result, &*on_change)
        };
        let started = new_debouncer(DEBOUNCE, None, handler).and_then(|mut debouncer| {
            debouncer.watch(folder, RecursiveMode::Recursive)?;
            Ok(debouncer)
        });
        match started {
            Ok(debouncer) => {
                return Ok(DataWatch {
                    mode: WatchMode::Events,
                    _debouncer: Box::new(debouncer),
                });
            }
            // The watch limit, or a file system that refuses watches: poll instead.
            Err(e) => eprintln!(
                "pdfagent: no change events for `{}` ({e}); looking for changes every {} ms",
                folder.display(),
                POLL_INTERVAL.as_millis()
            ),
        }
    }
    start_polling(folder, move |paths| on_change(paths))
}

/// Watch `folder` by scanning it every [`POLL_INTERVAL`] (sizes and modification times).
pub fn start_polling(
    folder: &Path,
    on_change: impl Fn(Vec<PathBuf>) + Send + Sync + 'static,
) -> Result<DataWatch, WatchError> {
    let config = notify::Config::default().with_poll_interval(POLL_INTERVAL);
    let handler = move |result: DebounceEventResult| report(result, &on_change);
    let mut debouncer = new_debouncer_opt::<_, notify::PollWatcher, NoCache>(
        DEBOUNCE, None, handler, NoCache, config,
    )
    .map_err(refused(folder))?;
    debouncer
        .watch(folder, RecursiveMode::Recursive)
        .map_err(refused(folder))?;
    Ok(DataWatch {
        mode: WatchMode::Polling,
        _debouncer: Box::new(debouncer),
    })
}

/// Hand the changed paths of one debounce period to `on_change`. Reads are not changes:
/// the host hashing a data file to judge staleness (or a run reading it) opens it, and
/// must not start another judgement. Errors (an overflowed event queue) say "something may
/// have changed": judging again is always safe.
fn report(result: DebounceEventResult, on_change: &(impl Fn(Vec<PathBuf>) + ?Sized)) {
    match result {
        Ok(events) => {
            let mut paths: Vec<PathBuf> = events
                .iter()
                .filter(|e| is_change(&e.event.kind))
                .flat_map(|e| e.event.paths.iter().cloned())
                .collect();
            paths.sort();
            paths.dedup();
            if !paths.is_empty() {
                on_change(paths);
            }
        }
        Err(_) => on_change(Vec::new()),
    }
}

/// Whether an event kind can mean the file's content changed.
fn is_change(kind: &EventKind) -> bool {
    match kind {
        EventKind::Access(AccessKind::Close(AccessMode::Write)) => true,
        EventKind::Access(_) => false,
        EventKind::Modify(ModifyKind::Metadata(MetadataKind::AccessTime)) => false,
        _ => true,
    }
}

/// Whether `folder` is on a file system whose changes the OS does not report (a network
/// share, a FUSE mount): such folders are polled.
#[cfg(target_os = "linux")]
fn sends_no_events(folder: &Path) -> bool {
    use std::os::unix::ffi::OsStrExt as _;
    // statfs(2) f_type magic numbers (linux/magic.h; CIFS/SMB2 from fs/smb).
    const NO_EVENTS: &[i64] = &[
        0x6969,                 // NFS
        0x517B,                 // SMB
        0xFF53_4D42_u32 as i64, // CIFS
        0xFE53_4D42_u32 as i64, // SMB2
        0x6573_5546,            // FUSE (sshfs, rclone, …)
        0x0102_1997,            // 9p (VM and WSL shares)
        0x5346_414F,            // AFS
        0x0000_564C,            // NCP
        0x0BD0_0BD0,            // Lustre
    ];
    let Ok(path) = std::ffi::CString::new(folder.as_os_str().as_bytes()) else {
        return false;
    };
    let mut stat = std::mem::MaybeUninit::<libc::statfs>::uninit();
    // SAFETY: `path` is a valid NUL-terminated string and `stat` points to writable memory
    // of the right size; statfs writes it only when it returns 0.
    if unsafe { libc::statfs(path.as_ptr(), stat.as_mut_ptr()) } != 0 {
        return false;
    }
    // SAFETY: statfs returned 0, so it filled `stat`.
    let kind = unsafe { stat.assume_init() }.f_type;
    NO_EVENTS.contains(&kind)
}

/// Elsewhere the OS's watcher is tried first; a refusal falls back to polling.
#[cfg(not(target_os = "linux"))]
fn sends_no_events(_folder: &Path) -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;
    use std::time::Instant;

    /// Wait for a report naming `file` (other reports, e.g. of the folder itself, skipped).
    fn reported(rx: &mpsc::Receiver<Vec<PathBuf>>, file: &Path, within: Duration) -> bool {
        let until = Instant::now() + within;
        while let Some(left) = until.checked_duration_since(Instant::now()) {
            match rx.recv_timeout(left) {
                Ok(paths) if paths.iter().any(|p| p.ends_with(file.file_name().unwrap())) => {
                    return true;
                }
                Ok(_) => {}
                Err(_) => return false,
            }
        }
        false
    }

    fn watched(start: fn(&Path, mpsc::Sender<Vec<PathBuf>>) -> DataWatch) {
        let dir = tempfile::tempdir().unwrap();
        let nested = dir.path().join("runs");
        std::fs::create_dir(&nested).unwrap();
        let file = nested.join("bands.csv");
        std::fs::write(&file, "k,e\n1,2\n").unwrap();
        let (tx, rx) = mpsc::channel();
        let _watch = start(dir.path(), tx);
        // Let the watch settle (the poller's first scan), then read: no report.
        std::thread::sleep(POLL_INTERVAL * 2);
        while rx.try_recv().is_ok() {}
        std::fs::read(&file).unwrap();
        assert!(
            !reported(&rx, &file, POLL_INTERVAL * 3),
            "reading a file is not a change"
        );
        std::fs::write(&file, "k,e\n1,2\n3,4\n").unwrap();
        assert!(
            reported(&rx, &file, Duration::from_secs(10)),
            "a write in a subfolder is reported"
        );
    }

    #[test]
    fn os_events_report_a_written_file_and_not_a_read_one() {
        watched(|dir, tx| {
            let watch = start(dir, move |p| drop(tx.send(p))).unwrap();
            // tmpfs/ext4 send events: this is the events path, not the fallback.
            assert_eq!(watch.mode, WatchMode::Events);
            watch
        });
    }

    #[test]
    fn polling_reports_a_written_file_and_not_a_read_one() {
        watched(|dir, tx| {
            let watch = start_polling(dir, move |p| drop(tx.send(p))).unwrap();
            assert_eq!(watch.mode, WatchMode::Polling);
            watch
        });
    }

    #[test]
    fn reads_and_access_times_are_not_changes() {
        assert!(!is_change(&EventKind::Access(AccessKind::Open(
            AccessMode::Any
        ))));
        assert!(!is_change(&EventKind::Access(AccessKind::Close(
            AccessMode::Read
        ))));
        assert!(!is_change(&EventKind::Modify(ModifyKind::Metadata(
            MetadataKind::AccessTime
        ))));
        assert!(is_change(&EventKind::Access(AccessKind::Close(
            AccessMode::Write
        ))));
        assert!(is_change(&EventKind::Modify(ModifyKind::Any)));
        assert!(is_change(&EventKind::Remove(
            notify::event::RemoveKind::File
        )));
    }
}
