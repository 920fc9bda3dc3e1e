//! Only the descriptors a worker is given. A descriptor the launching process holds without
//! close-on-exec (a shell's redirection, an IDE's pipe, a test harness's log) would reach the
//! worker and stay readable behind Landlock, which checks paths only when a file is opened.
//! So the worker — a cold one, a warm one and the fork server — closes everything but what
//! its host hands it on purpose, first thing in `main`, before Python starts.
//!
//! What is handed on purpose is [`HANDED`]: stdin (empty, or the pipe a warm worker reads
//! its code from and a fork server its requests), stdout and stderr. The runner's
//! `worker_command` (`pipeline/running/runner.rs`; the fork server is started with it too)
//! and the security suites start workers with exactly these three and nothing else. A
//! fork-server child keeps what the server opened during its warm-up (matplotlib's font
//! files) and closes the server's pipes itself (`fork_server.py`).
//!
//! Windows: a handle reaches a child only when it is inheritable *and* the parent asks
//! `CreateProcess` to inherit handles; Rust creates every handle non-inheritable, and the
//! contained worker is started with only its three standard handles (`confine/windows`).

/// The descriptors a worker keeps: 0, 1 and 2.
#[cfg(unix)]
pub const HANDED: std::ops::RangeInclusive<i32> = 0..=2;

/// Close every descriptor above [`HANDED`]. Must run while the process has one thread (no
/// other thread may be using a descriptor). `close_range` (Linux 5.9); without it, each
/// descriptor listed in `/proc/self/fd` (Linux) or `/dev/fd` (macOS).
#[cfg(unix)]
pub fn close_unhanded() -> std::io::Result<()> {
    let first = HANDED.end() + 1;
    #[cfg(target_os = "linux")]
    {
        // SAFETY: close_range with integer arguments; no descriptor above 2 is owned by
        // anything in this process yet (Python has not started).
        if unsafe { libc::close_range(first as libc::c_uint, libc::c_uint::MAX, 0) } == 0 {
            return Ok(());
        }
    }
    let listing = if cfg!(target_os = "linux") {
        "/proc/self/fd"
    } else {
        "/dev/fd"
    };
    // Collected first: the listing holds a descriptor of its own while it is read.
    let open: Vec<i32> = std::fs::read_dir(listing)?
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse().ok())
        .filter(|fd| *fd >= first)
        .collect();
    for fd in open {
        // SAFETY: as above. The listing's own descriptor is closed already (EBADF, ignored).
        unsafe { libc::close(fd) };
    }
    Ok(())
}
