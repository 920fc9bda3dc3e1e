//! Whether this host still runs the installation it started from.
//!
//! A worker is this very executable started again, with the bundled runtime. An update (an
//! `apt upgrade`, a re-extracted archive) replaces both files under a host that keeps
//! running: the host can then no longer start its own build (the path is gone, or names a
//! different build), and a worker started from the new files would run against a host of
//! another version. So every long-lived host remembers, at start, which files it came from
//! — the executable and the runtime's manifest, by device, inode, size and modification
//! time (Windows: size, modification and creation time) — and before starting any worker
//! checks that the same files are still there. When they are not, no worker starts: the
//! host says, in one sentence of its own front end, to restart it.
//!
//! On Linux the executable's identity is taken from `/proc/self/exe`, the image this
//! process runs (even when its file has already been replaced), so an update between the
//! start and the snapshot is seen too. A host could keep starting its old (deleted) image
//! through `/proc/self/exe`, but its runtime on disk may be the new one: restarting is the
//! one safe answer.

use crate::locate;
use std::fs::Metadata;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::SystemTime;

/// Which front end the host is: the restart sentence names what to restart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Host {
    Window,
    McpServer,
    CommandLine,
}

impl Host {
    fn sentence(self) -> &'static str {
        match self {
            Host::Window => "PDFAgent was updated while this window was open: restart it.",
            Host::McpServer => {
                "PDFAgent was updated while this MCP server was running: restart the server \
                 (reconnect it, or restart your MCP client); nothing ran."
            }
            Host::CommandLine => {
                "PDFAgent was updated while this command was running: run it again."
            }
        }
    }
}

/// The installation changed under the host: no worker was started.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.host.sentence())]
pub struct Updated {
    host: Host,
}

/// What identifies one file across a replacement: a renamed-in or re-created file has
/// another inode (or, on Windows, another creation time); a file rewritten in place has
/// another size or modification time.
#[derive(Debug, Clone, PartialEq, Eq)]
struct FileId {
    len: u64,
    modified: Option<SystemTime>,
    #[cfg(unix)]
    dev: u64,
    #[cfg(unix)]
    ino: u64,
    #[cfg(not(unix))]
    created: Option<SystemTime>,
}

impl FileId {
    fn of(meta: &Metadata) -> FileId {
        #[cfg(unix)]
        use std::os::unix::fs::MetadataExt;
        FileId {
            len: meta.len(),
            modified: meta.modified().ok(),
            #[cfg(unix)]
            dev: meta.dev(),
            #[cfg(unix)]
            ino: meta.ino(),
            #[cfg(not(unix))]
            created: meta.created().ok(),
        }
    }

    fn read(path: &Path) -> Option<FileId> {
        std::fs::metadata(path).ok().map(|meta| FileId::of(&meta))
    }
}

/// The files a host started from.
#[derive(Debug, Clone)]
struct Install {
    exe: PathBuf,
    /// `None`: the executable could not be read at start (already replaced).
    exe_id: Option<FileId>,
    /// The runtime's manifest and its identity; `None` when no runtime was found at start
    /// (the worker then reports the missing runtime itself).
    runtime: Option<(PathBuf, FileId)>,
}

impl Install {
    /// The installation at `exe` (whose running image is `running`, where the system can
    /// tell) with the runtime in `runtime_dir`.
    fn read(exe: &Path, running: Option<Metadata>, runtime_dir: Option<&Path>) -> Install {
        let exe_id = match running {
            Some(meta) => Some(FileId::of(&meta)),
            None => FileId::read(exe),
        };
        let runtime = runtime_dir.and_then(|dir| {
            let manifest = dir.join(locate::MARKER);
            FileId::read(&manifest).map(|id| (manifest, id))
        });
        Install {
            exe: exe.to_path_buf(),
            exe_id,
            runtime,
        }
    }

    /// This process's installation, now.
    fn current() -> Install {
        let exe = locate::running_executable().unwrap_or_default();
        // On Linux an executable replaced since it started reads back as `PATH (deleted)`,
        // which canonicalises to nothing: kept as it is, it is then found missing.
        let exe = exe.canonicalize().unwrap_or(exe);
        Install::read(&exe, running_image(), locate::runtime_dir().ok().as_deref())
    }

    /// Whether the files are still the ones the host started from.
    fn unchanged(&self) -> bool {
        let exe_same = self.exe_id.is_some() && FileId::read(&self.exe) == self.exe_id;
        let runtime_same = match &self.runtime {
            Some((manifest, id)) => FileId::read(manifest).as_ref() == Some(id),
            None => true,
        };
        exe_same && runtime_same
    }
}

/// The executable this process runs, even when its file was replaced or deleted since.
#[cfg(target_os = "linux")]
fn running_image() -> Option<Metadata> {
    std::fs::metadata("/proc/self/exe").ok()
}

/// Elsewhere the path is all there is: the snapshot is taken at the host's start.
#[cfg(not(target_os = "linux"))]
fn running_image() -> Option<Metadata> {
    None
}

static STARTED_FROM: OnceLock<(Host, Install)> = OnceLock::new();

/// Remember the installation this host started from; call it first thing in a long-lived
/// host (the window, the MCP server). Later calls change nothing.
pub fn remember(host: Host) {
    STARTED_FROM.get_or_init(|| (host, Install::current()));
}

/// Whether a worker may be started: `Err` when the executable or the runtime was replaced
/// (or removed) since [`remember`]. A host that never called it (the one-shot command
/// line) is taken to have started now.
pub fn check() -> Result<(), Updated> {
    let (host, install) = STARTED_FROM.get_or_init(|| (Host::CommandLine, Install::current()));
    if install.unchanged() {
        Ok(())
    } else {
        Err(Updated { host: *host })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    /// An installation in a temporary folder: `pdfagent` and `runtime/` with its manifest.
    fn install() -> (tempfile::TempDir, PathBuf, PathBuf) {
        let tmp = tempfile::tempdir().unwrap();
        let exe = tmp.path().join("pdfagent");
        fs::write(&exe, "build 1").unwrap();
        let runtime = tmp.path().join("runtime");
        fs::create_dir(&runtime).unwrap();
        fs::write(runtime.join(locate::MARKER), "{\"build\": 1}").unwrap();
        (tmp, exe, runtime)
    }

    /// Replace `path` as installers do: a new file renamed over the old one.
    fn replace(path: &Path, text: &str) {
        let new = path.with_extension("new");
        fs::write(&new, text).unwrap();
        fs::rename(&new, path).unwrap();
    }

    #[test]
    fn an_untouched_installation_is_unchanged() {
        let (_tmp, exe, runtime) = install();
        let snapshot = Install::read(&exe, None, Some(&runtime));
        assert!(snapshot.unchanged());
        assert!(snapshot.unchanged(), "checking twice changes nothing");
    }

    #[test]
    fn a_replaced_executable_is_seen_even_with_the_same_bytes() {
        let (_tmp, exe, runtime) = install();
        let snapshot = Install::read(&exe, None, Some(&runtime));
        let mtime = fs::metadata(&exe).unwrap().modified().unwrap();
        replace(&exe, "build 1");
        // Same size and contents, same modification time: only the inode (or, on Windows,
        // the creation time) tells the new file from the old.
        fs::File::options()
            .write(true)
            .open(&exe)
            .unwrap()
            .set_modified(mtime)
            .unwrap();
        assert!(!snapshot.unchanged());
    }

    #[test]
    fn a_removed_executable_is_seen() {
        let (_tmp, exe, runtime) = install();
        let snapshot = Install::read(&exe, None, Some(&runtime));
        fs::remove_file(&exe).unwrap();
        assert!(!snapshot.unchanged());
    }

    #[test]
    fn an_executable_rewritten_in_place_is_seen() {
        let (_tmp, exe, runtime) = install();
        let snapshot = Install::read(&exe, None, Some(&runtime));
        fs::write(&exe, "build 22").unwrap();
        assert!(!snapshot.unchanged());
    }

    #[test]
    fn a_replaced_or_removed_runtime_is_seen() {
        let (_tmp, exe, runtime) = install();
        let snapshot = Install::read(&exe, None, Some(&runtime));
        replace(&runtime.join(locate::MARKER), "{\"build\": 2}");
        assert!(!snapshot.unchanged());

        let snapshot = Install::read(&exe, None, Some(&runtime));
        assert!(snapshot.unchanged());
        fs::remove_dir_all(&runtime).unwrap();
        assert!(!snapshot.unchanged());
    }

    #[test]
    fn an_executable_already_gone_at_start_is_never_unchanged() {
        let (tmp, _exe, runtime) = install();
        let snapshot = Install::read(&tmp.path().join("gone (deleted)"), None, Some(&runtime));
        assert!(!snapshot.unchanged());
    }

    /// Linux: the identity is the running image's, so a file replaced before the snapshot
    /// was taken is seen as well.
    #[cfg(target_os = "linux")]
    #[test]
    fn the_running_image_is_what_the_file_is_compared_with() {
        let (_tmp, exe, runtime) = install();
        let running = fs::metadata(&exe).unwrap();
        replace(&exe, "build 2");
        let snapshot = Install::read(&exe, Some(running), Some(&runtime));
        assert!(!snapshot.unchanged());
        // And this test process's own image matches its own file.
        let own = Install::current();
        assert!(own.unchanged(), "{own:?}");
    }

    #[test]
    fn each_front_end_has_its_own_sentence() {
        let window = Updated { host: Host::Window }.to_string();
        assert_eq!(
            window,
            "PDFAgent was updated while this window was open: restart it."
        );
        let mcp = Updated {
            host: Host::McpServer,
        }
        .to_string();
        assert!(
            mcp.contains("MCP server") && mcp.contains("restart"),
            "{mcp}"
        );
        let cli = Updated {
            host: Host::CommandLine,
        }
        .to_string();
        assert!(cli.contains("run it again"), "{cli}");
    }
}
