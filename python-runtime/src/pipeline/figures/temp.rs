//! Files written into the figures folder (a figure, the groups index) leave nothing behind
//! when the host dies mid-save — killed, or stopped by a resource limit.
//!
//! Linux writes through an unnamed `O_TMPFILE` in the folder and links it in once complete:
//! a host that dies before then leaves no name at all. Elsewhere, or where the file system
//! refuses `O_TMPFILE`, the temporary file is named `.STEM.pdfagent-PID-XXXXXX.tmp` with the
//! writing host's pid, and [`remove_dead_hosts_temporaries`] (called where a host starts:
//! `host::init`) removes those whose host is gone — never one of a live host, which may be
//! saving into the same folder right now.

use std::io::Write as _;
use std::path::{Path, PathBuf};

/// Marks our temporary files, before the writing host's pid.
const TAG: &str = "pdfagent-";
const SUFFIX: &str = ".tmp";

/// Write `bytes` to `target` (in `dir`) atomically: complete and flushed to disk, then in
/// place under its name, replacing a file of that name. `hidden_stem` names the temporary
/// file where one needs a name (`.fig.png.`). A failure leaves the old file untouched.
pub fn write_atomically(
    dir: &Path,
    hidden_stem: &str,
    target: &Path,
    bytes: &[u8],
    mode: Option<u32>,
) -> std::io::Result<()> {
    #[cfg(target_os = "linux")]
    match linux::unnamed(dir, mode) {
        Ok(mut file) => {
            if let Some(mode) = mode {
                use std::os::unix::fs::PermissionsExt;
                file.set_permissions(std::fs::Permissions::from_mode(mode))?;
            }
            file.write_all(bytes)?;
            file.sync_all()?;
            return linux::link_in(&file, dir, hidden_stem, target);
        }
        // The file system has no unnamed files (or an old kernel): a named one, below.
        Err(e) if linux::unsupported(&e) => {}
        Err(e) => return Err(e),
    }
    let mut tmp = named(dir, hidden_stem)?;
    #[cfg(unix)]
    if let Some(mode) = mode {
        use std::os::unix::fs::PermissionsExt;
        tmp.as_file()
            .set_permissions(std::fs::Permissions::from_mode(mode))?;
    }
    #[cfg(not(unix))]
    let _ = mode;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    tmp.persist(target).map_err(|e| e.error)?;
    Ok(())
}

/// A named temporary file in `dir` that carries this host's pid (removed on drop).
fn named(dir: &Path, hidden_stem: &str) -> std::io::Result<tempfile::NamedTempFile> {
    tempfile::Builder::new()
        .prefix(&format!("{hidden_stem}{TAG}{}-", std::process::id()))
        .suffix(SUFFIX)
        .tempfile_in(dir)
}

/// The pid in one of our temporary file names, if it is one.
fn writer_pid(file_name: &str) -> Option<u32> {
    let rest = file_name.strip_suffix(SUFFIX)?;
    if !file_name.starts_with('.') {
        return None;
    }
    let after = &rest[rest.rfind(TAG)? + TAG.len()..];
    let (pid, random) = after.split_once('-')?;
    if random.is_empty() || random.contains('-') {
        return None;
    }
    pid.parse().ok()
}

/// Remove the temporary files in `dir` left by hosts that are no longer running (killed
/// mid-save). Best effort; returns how many were removed.
pub fn remove_dead_hosts_temporaries(dir: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    let mine = std::process::id();
    let stale: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .filter_map(|e| {
            let pid = writer_pid(e.file_name().to_str()?)?;
            (pid != mine && !is_running(pid)).then(|| e.path())
        })
        .collect();
    stale
        .iter()
        .filter(|p| std::fs::remove_file(p).is_ok())
        .count()
}

#[cfg(unix)]
fn is_running(pid: u32) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return true;
    };
    if pid <= 0 {
        return true;
    }
    // SAFETY: signal 0 only asks whether the process exists; nothing is sent.
    let alive = unsafe { libc::kill(pid, 0) } == 0;
    alive || std::io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
}

#[cfg(windows)]
fn is_running(pid: u32) -> bool {
    use windows_sys::Win32::Foundation::{CloseHandle, ERROR_INVALID_PARAMETER, GetLastError};
    use windows_sys::Win32::System::Threading::{
        GetExitCodeProcess, OpenProcess, PROCESS_QUERY_LIMITED_INFORMATION,
    };
    const STILL_ACTIVE: u32 = 259;
    // SAFETY: OpenProcess takes no pointers; a null handle is checked before use.
    let handle = unsafe { OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, 0, pid) };
    if handle.is_null() {
        // SAFETY: reads the calling thread's last error.
        return unsafe { GetLastError() } != ERROR_INVALID_PARAMETER;
    }
    let mut code = 0u32;
    // SAFETY: `handle` is a valid process handle opened above; `code` outlives the call.
    let ok = unsafe { GetExitCodeProcess(handle, &mut code) } != 0;
    // SAFETY: closes the handle opened above, once.
    unsafe { CloseHandle(handle) };
    !ok || code == STILL_ACTIVE
}

#[cfg(target_os = "linux")]
mod linux {
    use std::ffi::CString;
    use std::fs::File;
    use std::os::unix::ffi::OsStrExt as _;
    use std::os::unix::fs::OpenOptionsExt as _;
    use std::os::unix::io::AsRawFd as _;
    use std::path::Path;

    /// An unnamed file in `dir`: it has no name until [`link_in`] gives it one.
    pub fn unnamed(dir: &Path, mode: Option<u32>) -> std::io::Result<File> {
        std::fs::OpenOptions::new()
            .write(true)
            .custom_flags(libc::O_TMPFILE | libc::O_CLOEXEC)
            .mode(mode.unwrap_or(0o600))
            .open(dir)
    }

    /// `O_TMPFILE` is not available here (the file system, or an old kernel).
    pub fn unsupported(e: &std::io::Error) -> bool {
        matches!(
            e.raw_os_error(),
            Some(libc::EOPNOTSUPP | libc::EISDIR | libc::EINVAL | libc::ENOENT)
        )
    }

    fn c_path(path: &Path) -> std::io::Result<CString> {
        CString::new(path.as_os_str().as_bytes()).map_err(std::io::Error::other)
    }

    /// Give `file` the name `to`: through `/proc/self/fd` (any user), else `AT_EMPTY_PATH`.
    fn link(file: &File, to: &Path) -> std::io::Result<()> {
        let to = c_path(to)?;
        let proc = c_path(Path::new(&format!("/proc/self/fd/{}", file.as_raw_fd())))?;
        // SAFETY: both paths are NUL-terminated strings that outlive the call.
        let rc = unsafe {
            libc::linkat(
                libc::AT_FDCWD,
                proc.as_ptr(),
                libc::AT_FDCWD,
                to.as_ptr(),
                libc::AT_SYMLINK_FOLLOW,
            )
        };
        if rc == 0 {
            return Ok(());
        }
        let err = std::io::Error::last_os_error();
        if err.raw_os_error() != Some(libc::ENOENT) {
            return Err(err);
        }
        // No /proc: AT_EMPTY_PATH (needs CAP_DAC_READ_SEARCH on older kernels).
        // SAFETY: an empty NUL-terminated path and `to`, both alive for the call; the fd is
        // open.
        let rc = unsafe {
            libc::linkat(
                file.as_raw_fd(),
                c"".as_ptr(),
                libc::AT_FDCWD,
                to.as_ptr(),
                libc::AT_EMPTY_PATH,
            )
        };
        if rc == 0 {
            Ok(())
        } else {
            Err(std::io::Error::last_os_error())
        }
    }

    /// Put the complete `file` in place as `target`. A new name is linked at once; an
    /// existing file is replaced by linking under a pid-named temporary name and renaming
    /// over it (link cannot replace), the name living only between the two calls.
    pub fn link_in(
        file: &File,
        dir: &Path,
        hidden_stem: &str,
        target: &Path,
    ) -> std::io::Result<()> {
        match link(file, target) {
            Ok(()) => return Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(e),
        }
        for attempt in 0..16u32 {
            let tmp = dir.join(format!(
                "{hidden_stem}{}{}-{:06x}{}",
                super::TAG,
                std::process::id(),
                (std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.subsec_nanos())
                    ^ attempt.wrapping_mul(0x9E37_79B9))
                    & 0xFF_FFFF,
                super::SUFFIX
            ));
            match link(file, &tmp) {
                Ok(()) => {
                    return std::fs::rename(&tmp, target).inspect_err(|_| {
                        let _ = std::fs::remove_file(&tmp);
                    });
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(e),
            }
        }
        Err(std::io::Error::other(
            "could not find a free temporary name in the figures folder",
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(dir: &Path) -> Vec<String> {
        let mut all: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        all.sort();
        all
    }

    #[test]
    fn writes_and_replaces_leaving_only_the_target() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("fig.png");
        write_atomically(dir.path(), ".fig.png.", &target, b"one", Some(0o644)).unwrap();
        assert_eq!(std::fs::read(&target).unwrap(), b"one");
        write_atomically(dir.path(), ".fig.png.", &target, b"two", Some(0o644)).unwrap();
        assert_eq!(std::fs::read(&target).unwrap(), b"two");
        assert_eq!(names(dir.path()), ["fig.png"]);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&target).unwrap().permissions().mode();
            assert_eq!(mode & 0o777 & !0o022, 0o644 & !0o022, "{mode:o}");
        }
    }

    #[test]
    fn pids_are_read_only_from_our_own_temporary_names() {
        assert_eq!(writer_pid(".fig.png.pdfagent-1234-a1B2c3.tmp"), Some(1234));
        assert_eq!(
            writer_pid(".pdfagent-1-x.png.pdfagent-77-zzzzzz.tmp"),
            Some(77)
        );
        assert_eq!(writer_pid(".pdfagent-groups.pdfagent-9-abc.tmp"), Some(9));
        for other in [
            "fig.png",
            ".fig.png.a1B2c3.tmp",
            "fig.pdfagent-12-abc.tmp",
            ".fig.pdfagent-x-abc.tmp",
            ".fig.pdfagent-12-.tmp",
        ] {
            assert_eq!(writer_pid(other), None, "{other}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn only_the_temporaries_of_dead_hosts_are_removed() {
        let dir = tempfile::tempdir().unwrap();
        // A child that has exited and been reaped: its pid names no process (until reused).
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let dead = child.id();
        child.wait().unwrap();
        let live = std::process::id();
        let parent = std::os::unix::process::parent_id();
        for (pid, tag) in [(dead, "a"), (live, "b"), (parent, "c")] {
            let name = format!(".fig.png.{TAG}{pid}-{tag}xxxxx{SUFFIX}");
            std::fs::write(dir.path().join(name), b"partial").unwrap();
        }
        std::fs::write(dir.path().join(".old.png.abcdef.tmp"), b"x").unwrap();
        assert_eq!(remove_dead_hosts_temporaries(dir.path()), 1);
        let left = names(dir.path());
        assert_eq!(left.len(), 3, "{left:?}");
        assert!(
            !left.iter().any(|n| n.contains(&format!("-{dead}-"))),
            "{left:?}"
        );
    }
}
