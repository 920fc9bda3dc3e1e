//! Two canaries about what lies beyond the worker's own run: another process of the user,
//! and kernel objects that would outlive the run. Same rules as `canary.rs`: the code uses
//! the raw primitives, the verdict comes from outside the worker, and a canary whose code
//! never reached its attempt fails.

use super::canary::{CanaryReport, not_attempted, run};
use crate::pipeline::running::runner::CancelFlag;
use crate::pipeline::validate::ValidInput;
use crate::pipeline::{FigureResult, Limits};
use std::process::{Child, Command, Stdio};

/// The lines of the worker's stderr naming an attempt: "refused: …" or "REACHED …".
fn attempts(result: &FigureResult) -> Vec<String> {
    result
        .stderr_tail
        .lines()
        .filter(|l| l.contains("refused") || l.contains("REACHED"))
        .map(|l| l.trim().to_owned())
        .collect()
}

/// A harmless process of the user's own: the target of the first canary.
fn start_bystander() -> std::io::Result<Child> {
    let mut cmd = if cfg!(windows) {
        let mut c = Command::new("ping");
        c.args(["-n", "120", "127.0.0.1"]);
        c
    } else {
        let mut c = Command::new("sleep");
        c.arg("120");
        c
    };
    cmd.stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
}

/// What the host sees of the bystander's limits: Linux's `/proc/PID/limits`; elsewhere
/// nothing (no other process's limits can be changed there, and the attempt is a signal).
fn limits_of(pid: u32) -> Option<String> {
    if cfg!(target_os = "linux") {
        std::fs::read_to_string(format!("/proc/{pid}/limits")).ok()
    } else {
        None
    }
}

/// The code that tries to change (Linux) or end (every OS) process `pid`.
fn other_process_code(pid: u32) -> String {
    if cfg!(windows) {
        // PROCESS_TERMINATE | PROCESS_SET_QUOTA: ending it, or changing its job limits.
        format!(
            "import _winapi, sys\n\
             try:\n\
             \x20   h = _winapi.OpenProcess(0x0101, False, {pid})\n\
             \x20   _winapi.TerminateProcess(h, 1)\n\
             \x20   print('REACHED the process', file=sys.stderr)\n\
             except OSError as e:\n\
             \x20   print('refused:', e, file=sys.stderr)\n\
             raise SystemExit(3)\n"
        )
    } else {
        let prlimit = if cfg!(target_os = "linux") {
            "attempt('prlimit', lambda: resource.prlimit(pid, resource.RLIMIT_NOFILE, (1, 1)))\n"
        } else {
            ""
        };
        format!(
            "import posix, resource, sys\n\
             pid = {pid}\n\
             def attempt(what, fn):\n\
             \x20   try:\n\
             \x20       fn()\n\
             \x20       print('REACHED', what, file=sys.stderr)\n\
             \x20   except OSError as e:\n\
             \x20       print(what, 'refused:', e, file=sys.stderr)\n\
             {prlimit}\
             attempt('kill', lambda: posix.kill(pid, 15))\n\
             raise SystemExit(3)\n"
        )
    }
}

/// "change another process's limits": a process the canary starts, the worker told its pid.
pub(super) fn other_process(
    valid: &ValidInput,
    limits: &Limits,
    cancel: &CancelFlag,
) -> CanaryReport {
    const NAME: &str = "change another process's limits";
    let mut bystander = match start_bystander() {
        Ok(child) => child,
        Err(e) => {
            return CanaryReport {
                name: NAME,
                contained: false,
                evidence: format!("could not start the process to aim at: {e}"),
            };
        }
    };
    let pid = bystander.id();
    let before = limits_of(pid);
    let result = run(other_process_code(pid), valid, limits, cancel);
    let after = limits_of(pid);
    let alive = matches!(bystander.try_wait(), Ok(None));
    let _ = bystander.kill();
    let _ = bystander.wait();
    let tried = attempts(&result);
    let reached = tried.iter().any(|l| l.starts_with("REACHED"));
    let unchanged = before == after;
    let contained = !tried.is_empty() && !reached && alive && unchanged;
    CanaryReport {
        name: NAME,
        contained,
        evidence: if tried.is_empty() {
            not_attempted(&result)
        } else {
            format!(
                "process {pid} {}, its limits {}: {}",
                if alive { "alive" } else { "ENDED" },
                if unchanged { "unchanged" } else { "CHANGED" },
                tried.join("; ")
            )
        },
    }
}

/// A name for this run's objects: unique per process and moment.
fn object_key() -> i32 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    0x5044_0000 | ((std::process::id() ^ nanos) & 0xffff) as i32
}

fn shared_memory_code(key: i32) -> String {
    if cfg!(windows) {
        // A named section outlives nothing on Windows (it ends with its last handle), but a
        // `Global\` one would be visible to every session while the worker runs.
        format!(
            "import _winapi, sys\n\
             try:\n\
             \x20   _winapi.CreateFileMapping(_winapi.INVALID_HANDLE_VALUE, 0, 4, 0, 4096, 'Global\\\\pdfagent-canary-{key}')\n\
             \x20   print('REACHED a global section', file=sys.stderr)\n\
             except OSError as e:\n\
             \x20   print('refused:', e, file=sys.stderr)\n\
             raise SystemExit(3)\n"
        )
    } else {
        format!(
            "import ctypes, posix, sys, _posixshmem\n\
             libc = ctypes.CDLL(None, use_errno=True)\n\
             if libc.shmget({key}, 4096, 0o1600) == -1:\n\
             \x20   print('shmget refused: errno', ctypes.get_errno(), file=sys.stderr)\n\
             else:\n\
             \x20   print('REACHED shmget', file=sys.stderr)\n\
             try:\n\
             \x20   _posixshmem.shm_open('/pdfagent-canary-{key}', posix.O_CREAT | posix.O_RDWR, 0o600)\n\
             \x20   print('REACHED shm_open', file=sys.stderr)\n\
             except OSError as e:\n\
             \x20   print('shm_open refused:', e, file=sys.stderr)\n\
             raise SystemExit(3)\n"
        )
    }
}

/// Whether a SysV segment with `key` or a POSIX object with the canary's name exists now,
/// looked up by the host; one found is removed (the canary fails either way).
#[cfg(unix)]
fn left_behind(key: i32) -> Vec<&'static str> {
    let mut left = Vec::new();
    // SAFETY: lookups without IPC_CREAT/O_CREAT; a found object is removed by its id/name.
    unsafe {
        let id = libc::shmget(key, 0, 0);
        if id >= 0 {
            libc::shmctl(id, libc::IPC_RMID, std::ptr::null_mut());
            left.push("a SysV segment");
        }
        let name = format!("/pdfagent-canary-{key}\0");
        let fd = libc::shm_open(name.as_ptr().cast(), libc::O_RDONLY, 0);
        if fd >= 0 {
            libc::close(fd);
            libc::shm_unlink(name.as_ptr().cast());
            left.push("a POSIX shared-memory object");
        }
    }
    left
}

/// Windows: a section ends with its last handle, so after the worker nothing is left.
#[cfg(not(unix))]
fn left_behind(_key: i32) -> Vec<&'static str> {
    Vec::new()
}

/// "leave a shared-memory object behind": SysV and POSIX shared memory (Unix), a global
/// section (Windows).
pub(super) fn shared_memory(
    valid: &ValidInput,
    limits: &Limits,
    cancel: &CancelFlag,
) -> CanaryReport {
    let key = object_key();
    let result = run(shared_memory_code(key), valid, limits, cancel);
    let left = left_behind(key);
    let tried = attempts(&result);
    let reached = tried.iter().any(|l| l.starts_with("REACHED"));
    CanaryReport {
        name: "leave a shared-memory object behind",
        contained: !tried.is_empty() && !reached && left.is_empty(),
        evidence: if tried.is_empty() {
            not_attempted(&result)
        } else {
            format!(
                "{} after the run: {}",
                if left.is_empty() {
                    "nothing left".to_owned()
                } else {
                    format!("LEFT {}", left.join(" and "))
                },
                tried.join("; ")
            )
        },
    }
}

#[cfg(test)]
mod tests {
    use super::super::canary::tests::parses;
    use super::*;

    #[test]
    fn the_kernel_canaries_are_valid_python() {
        parses(&other_process_code(1234));
        parses(&shared_memory_code(object_key()));
        assert!(other_process_code(1234).contains("1234"));
        if cfg!(target_os = "linux") {
            assert!(other_process_code(1).contains("resource.prlimit(pid"));
        }
    }
}
