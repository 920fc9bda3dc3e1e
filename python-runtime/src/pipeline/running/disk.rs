//! A watch on the run directory's disk use while the worker runs. The file-size limit caps
//! each file, not how many there are: without this a run could fill the temporary folder's
//! disk (or its inodes) with many capped files before its time limit.

use super::runner::CancelFlag;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// How often the run directory is measured. At 1 GB/s a run overshoots the cap by at most
/// this much time's worth of writing before it is stopped.
const POLL: Duration = Duration::from_millis(50);

/// Most entries (files and folders) a run directory may hold.
pub const MAX_ENTRIES: u64 = 10_000;

/// How much the run directory holds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DiskUse {
    pub bytes: u64,
    pub entries: u64,
}

/// Disk use under `dir`, not following links; stops counting once `stop_at` is exceeded
/// so a run directory with millions of entries cannot make the watch itself slow.
pub fn disk_use(dir: &Path, stop_at: DiskUse) -> DiskUse {
    let mut total = DiskUse::default();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(folder) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&folder) else {
            continue;
        };
        for entry in entries.flatten() {
            total.entries += 1;
            if let Ok(meta) = entry.metadata() {
                total.bytes = total.bytes.saturating_add(allocated(&meta));
                if meta.is_dir() {
                    pending.push(entry.path());
                }
            }
            if total.bytes > stop_at.bytes || total.entries > stop_at.entries {
                return total;
            }
        }
    }
    total
}

/// Bytes the file really occupies (a sparse file costs only what was written).
fn allocated(meta: &std::fs::Metadata) -> u64 {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        meta.blocks().saturating_mul(512)
    }
    #[cfg(not(unix))]
    meta.len()
}

/// Call `run` with a stop flag that is raised when `cancel` is, or when `run_dir` grows
/// past `max_bytes` or [`MAX_ENTRIES`] while `run` is going; the cold and the warm path
/// both supervise their worker inside it. Returns what `run` returned and whether the disk
/// cap was what stopped it.
pub fn watch_disk<T>(
    run_dir: &Path,
    cancel: &CancelFlag,
    max_bytes: u64,
    run: impl FnOnce(&CancelFlag) -> T,
) -> (T, bool) {
    let stop: CancelFlag = Arc::new(AtomicBool::new(false));
    // Dropped when `run` returns: wakes the watch at once instead of after its next sleep,
    // so a fast run does not wait up to one POLL for it.
    let (finished, finished_rx) = std::sync::mpsc::channel::<()>();
    let over_cap = AtomicBool::new(false);
    let limit = DiskUse {
        bytes: max_bytes,
        entries: MAX_ENTRIES,
    };
    let outcome = std::thread::scope(|scope| {
        let (stop, over_cap) = (&stop, &over_cap);
        scope.spawn(move || {
            loop {
                if cancel.load(Ordering::SeqCst) {
                    stop.store(true, Ordering::SeqCst);
                }
                let used = disk_use(run_dir, limit);
                if used.bytes > limit.bytes || used.entries > limit.entries {
                    over_cap.store(true, Ordering::SeqCst);
                    stop.store(true, Ordering::SeqCst);
                }
                match finished_rx.recv_timeout(POLL) {
                    Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
                    _ => break,
                }
            }
        });
        let outcome = run(stop);
        drop(finished);
        outcome
    });
    (outcome, over_cap.load(Ordering::SeqCst))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_bytes_and_entries_and_stops_early() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        std::fs::write(dir.path().join("sub/a"), vec![1u8; 64 * 1024]).unwrap();
        std::fs::write(dir.path().join("b"), vec![1u8; 64 * 1024]).unwrap();
        let all = DiskUse {
            bytes: u64::MAX,
            entries: u64::MAX,
        };
        let used = disk_use(dir.path(), all);
        assert_eq!(used.entries, 3);
        assert!(used.bytes >= 128 * 1024, "{used:?}");
        let early = disk_use(
            dir.path(),
            DiskUse {
                bytes: u64::MAX,
                entries: 1,
            },
        );
        assert_eq!(early.entries, 2, "counting stops past the limit");
    }

    #[cfg(unix)]
    #[test]
    fn sparse_files_count_what_they_occupy() {
        let dir = tempfile::tempdir().unwrap();
        let f = std::fs::File::create(dir.path().join("sparse")).unwrap();
        f.set_len(1 << 30).unwrap();
        let used = disk_use(
            dir.path(),
            DiskUse {
                bytes: u64::MAX,
                entries: u64::MAX,
            },
        );
        assert!(used.bytes < 1 << 20, "{used:?}");
    }
}
