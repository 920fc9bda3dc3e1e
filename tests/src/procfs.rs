//! A process seen from outside, through `/proc` (Linux; elsewhere every answer is "none"):
//! whether it is still alive, its children and threads, its status fields, its environment,
//! where its output goes. The suites judge a worker by what the kernel says about it, not
//! by what it prints.
//!
//! Std only: the black-box suites use it as `blackbox::procfs`, the engine's warm suite
//! (`python-runtime/tests/warm.rs`) includes this file by `#[path]`.

use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Whether `pid` is a live (not zombie) process right now: for a process that must stay.
pub fn running_now(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        // The state follows the command name, which may hold spaces and parentheses.
        let state = stat
            .rsplit(')')
            .next()
            .and_then(|s| s.split_whitespace().next())
            .unwrap_or("");
        state != "Z" && state != "X"
    })
}

/// Whether `pid` is still a live process after `grace`: a process just killed is given that
/// long to die (it returns as soon as the process is gone).
pub fn alive_after(pid: u32, grace: Duration) -> bool {
    let deadline = Instant::now() + grace;
    loop {
        if !running_now(pid) {
            return false;
        }
        if Instant::now() >= deadline {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The children of `pid` right now, started by any of its threads.
pub fn children_of(pid: u32) -> Vec<u32> {
    per_thread(pid, "children")
        .iter()
        .flat_map(|list| list.split_whitespace().filter_map(|p| p.parse().ok()))
        .collect()
}

/// The names of `pid`'s threads (`comm`: the kernel keeps 15 characters of a name).
pub fn thread_names(pid: u32) -> Vec<String> {
    per_thread(pid, "comm")
        .iter()
        .map(|name| name.trim().to_owned())
        .collect()
}

/// The file `file` of each of `pid`'s threads (`/proc/PID/task/TID/FILE`) that can be read.
fn per_thread(pid: u32, file: &str) -> Vec<String> {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return Vec::new();
    };
    tasks
        .flatten()
        .filter_map(|task| std::fs::read_to_string(task.path().join(file)).ok())
        .collect()
}

/// One field of `/proc/PID/status` (`VmHWM`, `Seccomp_filters`, …), its value trimmed.
pub fn status_field(pid: u32, field: &str) -> Option<String> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
        .map(|v| v.trim().to_owned())
}

/// One variable of the environment `pid` was started with (between fork and exec a child
/// still shows its parent's); `None` if it is not set or not UTF-8.
pub fn env_var(pid: u32, name: &str) -> Option<String> {
    let environ = std::fs::read(format!("/proc/{pid}/environ")).ok()?;
    environ.split(|b| *b == 0).find_map(|var| {
        let value = var.strip_prefix(name.as_bytes())?.strip_prefix(b"=")?;
        String::from_utf8(value.to_vec()).ok()
    })
}

/// The folder of the file `pid`'s stdout goes to: a fork-server child's run directory (its
/// environment, `HOME` included, is still the server's, inherited through the fork).
pub fn stdout_dir(pid: u32) -> Option<PathBuf> {
    let stdout = std::fs::read_link(format!("/proc/{pid}/fd/1")).ok()?;
    stdout.parent().map(std::path::Path::to_path_buf)
}

/// `/proc/PID/maps`: the files `pid` has mapped.
pub fn maps(pid: u32) -> Option<String> {
    std::fs::read_to_string(format!("/proc/{pid}/maps")).ok()
}
