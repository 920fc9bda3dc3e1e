//! The private run directory of one worker, and the sweep of those a dead host left behind.

use std::path::{Path, PathBuf};

/// What every run directory's name starts with (in the temporary folder).
const PREFIX: &str = "pdfagent-run-";

/// The file every run directory gets at creation, holding the process id of the host that
/// made it: [`sweep_orphaned`] removes the directories of hosts that died.
pub const HOST_MARKER: &str = ".pdfagent-host";

/// The run directory: fresh, private (0700), removed when dropped — on every return path
/// and on panic. Removal also copes with what the code may have left (read-only folders).
pub(crate) struct RunDir {
    tmp: Option<tempfile::TempDir>,
    /// The directory's resolved path (macOS's `/var` is a link to `/private/var`): what the
    /// worker's `OUT` and its confinement name.
    path: PathBuf,
}

#[derive(Debug, thiserror::Error)]
#[error("could not create a private run directory in `{}`: {source}; check that the temporary folder is writable", .dir.display())]
pub struct RunDirError {
    dir: PathBuf,
    #[source]
    source: std::io::Error,
}

impl RunDir {
    pub(crate) fn create() -> Result<RunDir, RunDirError> {
        RunDir::create_in(&std::env::temp_dir())
    }

    /// A run directory inside `dir` (a fork server's children get theirs inside the
    /// server's own, the one folder the server may write to).
    pub(crate) fn create_in(dir: &Path) -> Result<RunDir, RunDirError> {
        let mut builder = tempfile::Builder::new();
        builder.prefix(PREFIX);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            builder.permissions(std::fs::Permissions::from_mode(0o700));
        }
        let dir = dir.to_path_buf();
        let tmp = builder.tempdir_in(&dir).map_err(|source| RunDirError {
            dir: dir.clone(),
            source,
        })?;
        // Plain on Windows (no `\\?\`): the worker's HOME, TEMP and cwd, seen by Python.
        let path = tmp
            .path()
            .canonicalize()
            .map(crate::plain_path::plain)
            .map_err(|source| RunDirError {
                dir: dir.clone(),
                source,
            })?;
        std::fs::write(path.join(HOST_MARKER), format!("{}\n", std::process::id()))
            .map_err(|source| RunDirError { dir, source })?;
        Ok(RunDir {
            tmp: Some(tmp),
            path,
        })
    }

    /// A folder the caller owns, used as a run directory and left in place (the security
    /// suites name their own run directories).
    pub(crate) fn existing(path: PathBuf) -> RunDir {
        RunDir { tmp: None, path }
    }

    pub(crate) fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for RunDir {
    fn drop(&mut self) {
        if let Some(tmp) = self.tmp.take() {
            let path = tmp.path().to_path_buf();
            if tmp.close().is_err() {
                make_removable(&path);
                let _ = std::fs::remove_dir_all(&path);
            }
        }
    }
}

/// Give the owner full access to every folder under `dir` (not following links), so a run
/// that left a read-only folder behind can still be removed.
fn make_removable(dir: &Path) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let _ = std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700));
        if let Ok(entries) = std::fs::read_dir(dir) {
            for entry in entries.flatten() {
                if entry.file_type().is_ok_and(|t| t.is_dir()) {
                    make_removable(&entry.path());
                }
            }
        }
    }
    #[cfg(not(unix))]
    let _ = dir;
}

/// Remove the run directories in `temp` whose host has died. A host killed outright
/// (SIGKILL, a crash, a test driver ending the window) runs no clean-up: its workers end by
/// themselves (see `worker::end_with_host`; an idle warm one when its code pipe closes), but
/// their run directories stay. Only directories of this user, named like run directories,
/// holding a [`HOST_MARKER`] whose process id is not alive, are removed. Returns how many.
#[cfg(unix)]
pub fn sweep_orphaned(temp: &Path) -> usize {
    use std::os::unix::fs::MetadataExt;
    let Ok(entries) = std::fs::read_dir(temp) else {
        return 0;
    };
    // SAFETY: getuid has no preconditions.
    let me = unsafe { libc::getuid() };
    let mut removed = 0;
    for entry in entries.flatten() {
        if !entry.file_name().to_string_lossy().starts_with(PREFIX) {
            continue;
        }
        // Not followed: a link planted in a shared temporary folder is no run directory.
        let Ok(meta) = std::fs::symlink_metadata(entry.path()) else {
            continue;
        };
        if !meta.is_dir() || meta.uid() != me {
            continue;
        }
        let dir = entry.path();
        let Some(host) = std::fs::read_to_string(dir.join(HOST_MARKER))
            .ok()
            .and_then(|text| text.trim().parse::<libc::pid_t>().ok())
            .filter(|pid| *pid > 0)
        else {
            continue;
        };
        if crate::worker::process_exists(host) {
            continue;
        }
        if std::fs::remove_dir_all(&dir).is_err() {
            make_removable(&dir);
            let _ = std::fs::remove_dir_all(&dir);
        }
        if !dir.exists() {
            removed += 1;
        }
    }
    removed
}

/// Elsewhere run directories live in a per-user temporary folder; nothing is swept.
#[cfg(not(unix))]
pub fn sweep_orphaned(_temp: &Path) -> usize {
    0
}

#[cfg(test)]
#[cfg(unix)]
mod tests {
    use super::*;

    #[test]
    fn the_sweep_removes_only_run_dirs_of_dead_hosts() {
        let temp = tempfile::tempdir().unwrap();
        let dead_pid = {
            let mut child = std::process::Command::new("true").spawn().unwrap();
            let pid = child.id();
            child.wait().unwrap();
            pid
        };
        let make = |name: &str, marker: Option<String>| {
            let dir = temp.path().join(name);
            std::fs::create_dir_all(dir.join("mplconfig")).unwrap();
            std::fs::write(dir.join("worker.py"), "pass\n").unwrap();
            if let Some(text) = marker {
                std::fs::write(dir.join(HOST_MARKER), text).unwrap();
            }
            dir
        };
        let orphan = make("pdfagent-run-orphan", Some(format!("{dead_pid}\n")));
        let live = make(
            "pdfagent-run-live",
            Some(format!("{}\n", std::process::id())),
        );
        let unmarked = make("pdfagent-run-unmarked", None);
        let garbled = make("pdfagent-run-garbled", Some("not a pid".into()));
        let other = make("someone-else", Some(format!("{dead_pid}\n")));
        let target = make("link-target", Some(format!("{dead_pid}\n")));
        std::os::unix::fs::symlink(&target, temp.path().join("pdfagent-run-link")).unwrap();

        assert_eq!(sweep_orphaned(temp.path()), 1);
        assert!(
            !orphan.exists(),
            "the orphaned run directory is still there"
        );
        for kept in [&live, &unmarked, &garbled, &other, &target] {
            assert!(kept.join("worker.py").is_file(), "{kept:?} was touched");
        }
        assert!(temp.path().join("pdfagent-run-link").exists());
    }
}
