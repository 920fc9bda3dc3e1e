//! The canary "keep running after the host is killed" (issue #40): a worker whose code
//! parks its host-watch thread the way a red team did (a C handler that calls `pause()`,
//! sent to that very thread), ignores what it can and sleeps forever, under a stand-in host
//! (`sh`, which starts it with the runner's environment and waits, as a host does). The host
//! is killed with SIGKILL; the canary is contained when the worker is gone 2 s later, seen
//! from outside. Unix only: on Windows the worker lives in its launcher's kill-on-close job.

use super::canary::CanaryReport;
use crate::pipeline::Limits;
use crate::pipeline::prepared::prepare_unchecked_run;
use std::io::BufRead;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const NAME: &str = "keep running after the host is killed";
/// How long after its host's death the worker may still be seen.
const GRACE: Duration = Duration::from_secs(2);
/// Longest the code may take to reach its attempt (the interpreter's start included).
const START_LIMIT: Duration = Duration::from_secs(60);

/// The code: park the watch thread if it can, ignore what it can, write `parked`, sleep.
const CODE: &str = r#"
import posix, signal, sys, time
note = []
try:
    import ctypes, platform
    libc = ctypes.CDLL(None, use_errno=True)
    libc.signal.restype = ctypes.c_void_p
    libc.signal.argtypes = [ctypes.c_int, ctypes.c_void_p]
    libc.signal(signal.SIGUSR1, ctypes.cast(libc.pause, ctypes.c_void_p).value)
    tgkill = {'x86_64': 234, 'aarch64': 131}.get(platform.machine())
    for tid in posix.listdir('/proc/self/task'):
        fd = posix.open('/proc/self/task/%s/comm' % tid, posix.O_RDONLY)
        name = posix.read(fd, 64).strip()
        posix.close(fd)
        if name == b'pdfagent-host-w' and tgkill:
            note.append('sent a pausing handler to the watch thread: %s' % libc.syscall(tgkill, posix.getpid(), int(tid), signal.SIGUSR1))
except Exception as e:
    note.append('could not park the watch thread (%s)' % type(e).__name__)
for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
    signal.signal(sig, signal.SIG_IGN)
# The working directory is the (read-only) data folder: the run directory is OUT's.
fd = posix.open(OUT.rsplit('/', 1)[0] + '/parked', posix.O_WRONLY | posix.O_CREAT, 0o600)
posix.write(fd, ('; '.join(note) or 'sleeping').encode())
posix.close(fd)
while True:
    time.sleep(0.05)
"#;

/// Run the canary with `src` as the data folder.
pub(super) fn outlive_host(src: &Path, limits: &Limits) -> CanaryReport {
    match attempt(src, limits) {
        Ok((contained, evidence)) => CanaryReport {
            name: NAME,
            contained,
            evidence,
        },
        Err(why) => CanaryReport {
            name: NAME,
            contained: false,
            evidence: format!(
                "the canary's code did not reach its attempt, so nothing was proven: {why}"
            ),
        },
    }
}

/// Why the canary's code never reached its attempt (nothing proven either way).
#[derive(Debug, thiserror::Error)]
enum NotReached {
    #[error("no run directory: {0}")]
    RunDir(#[source] std::io::Error),
    /// The run could not be prepared (the sentence says why).
    #[error("{0}")]
    Prepare(#[source] crate::pipeline::prepared::PrepareError),
    #[error("{0}")]
    Executable(#[source] std::io::Error),
    #[error("could not start the stand-in host `/bin/sh`: {0}")]
    StartHost(#[source] std::io::Error),
    #[error("the stand-in host did not say which worker it started")]
    NoWorkerId,
    #[error("the worker ended or hung before its code ran")]
    NoStart,
}

fn attempt(src: &Path, limits: &Limits) -> Result<(bool, String), NotReached> {
    let run_dir = tempfile::Builder::new()
        .prefix("pdfagent-canary-orphan-")
        .tempdir()
        .map_err(NotReached::RunDir)?;
    let prepared = prepare_unchecked_run(src, run_dir.path(), CODE, limits, false)
        .map_err(NotReached::Prepare)?;
    let exe = crate::locate::running_executable().map_err(NotReached::Executable)?;
    let mut host = Command::new("/bin/sh")
        .arg("-c")
        .arg(r#""$0" >/dev/null 2>&1 & echo $!; wait"#)
        .arg(&exe)
        .env_clear()
        .envs(&prepared.env)
        .current_dir(&prepared.run_dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(NotReached::StartHost)?;
    let worker: Option<libc::pid_t> = host.stdout.take().and_then(|out| {
        let mut line = String::new();
        std::io::BufReader::new(out).read_line(&mut line).ok()?;
        line.trim().parse().ok()
    });
    let Some(worker) = worker else {
        let _ = host.kill();
        let _ = host.wait();
        return Err(NotReached::NoWorkerId);
    };
    let parked = prepared.run_dir.join("parked");
    let started = Instant::now();
    let note = loop {
        if let Ok(note) = std::fs::read_to_string(&parked) {
            break Some(note);
        }
        if started.elapsed() > START_LIMIT || !running(worker) {
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let Some(note) = note else {
        let _ = host.kill();
        let _ = host.wait();
        end(worker);
        return Err(NotReached::NoStart);
    };
    let _ = host.kill();
    let _ = host.wait();
    let killed = Instant::now();
    while running(worker) && killed.elapsed() < GRACE {
        std::thread::sleep(Duration::from_millis(20));
    }
    let outlived = running(worker);
    end(worker);
    Ok((
        !outlived,
        format!(
            "the host was killed; the worker {} ({note})",
            if outlived {
                format!("was STILL RUNNING {} s later", GRACE.as_secs())
            } else {
                format!("was gone within {} ms", killed.elapsed().as_millis())
            }
        ),
    ))
}

/// Whether `pid` is a live process: not gone, and not a zombie its new parent has yet to
/// reap (Linux: its state in `/proc`).
fn running(pid: libc::pid_t) -> bool {
    if cfg!(target_os = "linux") {
        return std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
            let state = stat
                .rsplit(')')
                .next()
                .and_then(|s| s.split_whitespace().next());
            !matches!(state, Some("Z" | "X") | None)
        });
    }
    // SAFETY: signal 0 only checks that the process exists.
    unsafe { libc::kill(pid, 0) == 0 }
}

/// Kill a worker that outlived the canary (so the selftest leaves nothing behind).
fn end(pid: libc::pid_t) {
    if running(pid) {
        // SAFETY: a plain signal to the worker this canary started.
        unsafe {
            libc::kill(pid, libc::SIGKILL);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::canary::tests::parses;

    #[test]
    fn the_orphan_canary_is_valid_python() {
        parses(super::CODE);
    }
}
