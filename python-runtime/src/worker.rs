//! The worker side of self-dispatch: `PDFAGENT_PYRUN=<script> pdfagent` confines itself and
//! runs the script in the embedded interpreter instead of starting the app.

use crate::confine::{self, ConfinePlan};
#[cfg(unix)]
use crate::wire::EXIT_HOST_GONE;
use crate::wire::{
    ARM_WALL_CLOCK_FUNCTION, CONFINE_CHILD_FUNCTION, CONFINEMENT_GLOBAL, ENV_CONFINE, ENV_HOST,
    ENV_PYRUN, EXIT_WORKER_FAILED,
};
use crate::{interpreter, locate};
use std::path::{Path, PathBuf};

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("`{ENV_CONFINE}` is not a valid confinement plan: {0}")]
    BadPlan(#[source] serde_json::Error),
    #[error(transparent)]
    Confine(#[from] confine::ConfineError),
    #[error("the script `{}` to run does not exist or is not a file", .0.display())]
    NoScript(PathBuf),
    #[error(transparent)]
    Locate(#[from] locate::Error),
    #[error(transparent)]
    Interpreter(#[from] interpreter::Error),
}

/// The worker path of `main`: `None` when this process is not a worker (the normal program
/// continues). A worker ends here on Unix (`end_now`); elsewhere this returns the exit status
/// to end the process with.
///
/// Must be the first thing `main` does, while the process has a single thread: it edits the
/// process environment.
pub fn run_if_requested() -> Option<i32> {
    let script = std::env::var_os(ENV_PYRUN)?;
    // Before anything opens a descriptor of its own: what the host did not hand on purpose
    // must not reach Python (descriptors.rs).
    #[cfg(unix)]
    if let Err(e) = crate::descriptors::close_unhanded() {
        eprintln!("pdfagent worker: could not close the descriptors it was not given ({e})");
        return Some(end_now(EXIT_WORKER_FAILED));
    }
    let plan = std::env::var(ENV_CONFINE).ok();
    let host = std::env::var(ENV_HOST).ok().and_then(|v| v.parse().ok());
    // SAFETY: called first thing in `main`, before any other thread exists. Removing the
    // variables means nothing the script starts can re-enter the worker path.
    unsafe {
        std::env::remove_var(ENV_PYRUN);
        std::env::remove_var(ENV_CONFINE);
        std::env::remove_var(ENV_HOST);
    }
    Some(end_now(
        match run(Path::new(&script), plan.as_deref(), host) {
            Ok(code) => code,
            Err(err) => {
                eprintln!("pdfagent worker: {err}");
                EXIT_WORKER_FAILED
            }
        },
    ))
}

/// End the worker with `code` at once, once its output is flushed: without the C library's
/// exit handlers and the destructors of the shared libraries Python loaded (numpy's BLAS,
/// scipy, matplotlib's C++ modules, ~150 of them), which only give back memory the process
/// is about to give back anyway. Measured ≈ 6 ms per process, cold or forked (`exit` vs
/// `_exit` from a child of a process with numpy, pandas, scipy and matplotlib loaded).
/// Python's own end (threads joined, `atexit`, streams flushed) has already run in
/// `interpreter::run_script`.
#[cfg(unix)]
fn end_now(code: i32) -> i32 {
    use std::io::Write;
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().flush();
    // SAFETY: fflush(NULL) flushes every C stdio stream of the process; _exit then ends it
    // without returning.
    unsafe {
        libc::fflush(std::ptr::null_mut());
        libc::_exit(code)
    }
}

/// On Windows the worker ends as `main` returns (unmeasured there).
#[cfg(not(unix))]
fn end_now(code: i32) -> i32 {
    code
}

fn run(script: &Path, plan: Option<&str>, host: Option<i64>) -> Result<i32, Error> {
    let host_id = host;
    let host = host_to_watch(host);
    let plan: Option<ConfinePlan> = plan
        .map(serde_json::from_str)
        .transpose()
        .map_err(Error::BadPlan)?;
    // The host found both for the plan (`locate::InstallPaths`). Without a plan, found here,
    // before any confinement: the locator may look at folders a plan would leave out.
    let (runtime, executable) = match plan.as_ref() {
        Some(plan) => (plan.runtime.clone(), plan.executable.clone()),
        None => (
            locate::runtime_dir()?,
            locate::running_executable().map_err(locate::Error::CurrentExe)?,
        ),
    };
    if !script.is_file() {
        return Err(Error::NoScript(script.to_path_buf()));
    }
    let fork_server = plan
        .as_ref()
        .is_some_and(|p| p.role == confine::ProcessRole::ForkServer);
    // On Windows the first worker process only launches the contained one (confine::enter).
    let report = match plan.as_ref() {
        Some(plan) => match confine::enter(plan, script, host_id)? {
            confine::Entered::Confined(report) => Some(report),
            confine::Entered::Relaunched { exit_code } => return Ok(exit_code),
        },
        None => None,
    };
    // After the confinement: the watching thread inherits it (Landlock and seccomp apply to
    // the threads a restricted thread starts), and the plan needs a single thread to apply.
    // The fork server starts no thread (it forks, and a fork copies only the calling
    // thread): its loop watches the host itself (fork_server.py), its children end with it.
    let functions: &[(&str, interpreter::ScriptFunction<ChildError>)] = if fork_server {
        &[
            (CONFINE_CHILD_FUNCTION, confine_forked_child),
            (ARM_WALL_CLOCK_FUNCTION, arm_forked_child_wall_clock),
        ]
    } else {
        end_with_host(host);
        &[]
    };
    let report = serde_json::to_string(&report).unwrap_or_else(|_| "null".into());
    Ok(interpreter::run_script(
        &runtime,
        &executable,
        script,
        &[(CONFINEMENT_GLOBAL, report.as_str())],
        functions,
    )?)
}

/// Why a fork server's child could not be confined or armed: raised in its Python as
/// `RuntimeError` with this message (`interpreter::ScriptFunction`).
#[derive(Debug, thiserror::Error)]
enum ChildError {
    #[cfg(target_os = "linux")]
    #[error("could not tie the figure's process to the fork server: {0}")]
    Tie(#[source] std::io::Error),
    #[cfg(target_os = "linux")]
    #[error(transparent)]
    Confine(confine::ConfineError),
    #[cfg(target_os = "linux")]
    #[error("a figure's process must be confined as a worker, not as a fork server")]
    NotWorker,
    /// The wall clock could not be armed: the error and its cause, on one line.
    #[cfg(target_os = "linux")]
    #[error("{}", with_cause(.0))]
    WallClock(confine::ConfineError),
    #[cfg(not(target_os = "linux"))]
    #[error("the fork server exists on Linux only")]
    NoForkServer,
}

/// `error: cause` (the cause is what Python's message needs: the error alone names only the
/// step).
#[cfg(target_os = "linux")]
fn with_cause(error: &confine::ConfineError) -> String {
    use std::error::Error as _;
    match error.source() {
        Some(source) => format!("{error}: {source}"),
        None => error.to_string(),
    }
}

#[cfg(target_os = "linux")]
fn arm_forked_child_wall_clock(_unused: &str, _unused_too: i64) -> Result<String, ChildError> {
    confine::arm_wall_clock().map_err(ChildError::WallClock)
}

#[cfg(not(target_os = "linux"))]
fn arm_forked_child_wall_clock(_unused: &str, _unused_too: i64) -> Result<String, ChildError> {
    Err(ChildError::NoForkServer)
}

/// Confine a child the fork server has just forked, before any submitted code runs: end with
/// the server (`PR_SET_PDEATHSIG`; the server is single-threaded, so its forking thread lives
/// as long as it does), then apply the figure's own plan — the very plan a cold worker gets —
/// on top of the server's confinement: a new Landlock layer (only its own run directory
/// writable), the worker's seccomp filter (no fork, no exec) and its limits. Returns the
/// report as JSON. Calling it again (from code in the child) can only confine further.
#[cfg(target_os = "linux")]
fn confine_forked_child(plan_json: &str, server_pid: i64) -> Result<String, ChildError> {
    // SAFETY: prctl with constant arguments has no memory-safety preconditions.
    if unsafe {
        libc::prctl(
            libc::PR_SET_PDEATHSIG,
            libc::SIGKILL as libc::c_ulong,
            0,
            0,
            0,
        )
    } != 0
    {
        return Err(ChildError::Tie(std::io::Error::last_os_error()));
    }
    // The server may have died between the fork and the prctl: then nobody reads the figure.
    if i64::from(parent_pid()) != server_pid {
        // SAFETY: ends the process before any code ran; nothing needs unwinding.
        unsafe { libc::_exit(EXIT_HOST_GONE) };
    }
    let plan = ConfinePlan::from_json(plan_json).map_err(ChildError::Confine)?;
    if plan.role != confine::ProcessRole::Worker {
        return Err(ChildError::NotWorker);
    }
    // Its wall-clock timer is armed when its figure starts (`ARM_WALL_CLOCK_FUNCTION`): a
    // child forked ahead may wait for its figure far longer than a figure's time-out.
    let report = confine::apply_forked_child(&plan).map_err(ChildError::Confine)?;
    Ok(serde_json::to_string(&report).unwrap_or_else(|_| "null".into()))
}

/// Only Linux has a fork server; elsewhere the plan's role is never `ForkServer`.
#[cfg(not(target_os = "linux"))]
fn confine_forked_child(_plan_json: &str, _server_pid: i64) -> Result<String, ChildError> {
    Err(ChildError::NoForkServer)
}

/// How often the worker looks whether its host is still there.
#[cfg(unix)]
const HOST_WATCH_INTERVAL: std::time::Duration = std::time::Duration::from_millis(200);

/// The process to watch: the host named by [`ENV_HOST`] when it is this worker's parent.
/// When the named host is not the parent, it either died before this worker got here (the
/// worker ends at once: nobody will read its figure) or the worker was started through a
/// wrapper (a test's `env`, say): then the parent is watched. Without [`ENV_HOST`], the
/// parent. `None`: nothing to watch (started by init).
#[cfg(unix)]
fn host_to_watch(named: Option<i64>) -> Option<libc::pid_t> {
    let parent = parent_pid();
    if let Some(host) = named
        .and_then(|h| libc::pid_t::try_from(h).ok())
        .filter(|h| *h > 1)
        && host != parent
        && !process_exists(host)
    {
        eprintln!("pdfagent worker: the process that started this worker is gone; not running");
        // SAFETY: ends the process before anything ran; nothing needs unwinding.
        unsafe { libc::_exit(EXIT_HOST_GONE) };
    }
    (parent > 1).then_some(parent)
}

#[cfg(not(unix))]
fn host_to_watch(_named: Option<i64>) -> Option<u32> {
    None
}

#[cfg(unix)]
fn parent_pid() -> libc::pid_t {
    // SAFETY: getppid has no preconditions.
    unsafe { libc::getppid() }
}

/// Whether a process with this id exists (also one this user may not signal).
#[cfg(unix)]
pub(crate) fn process_exists(pid: libc::pid_t) -> bool {
    // SAFETY: signal 0 only checks that the process exists and may be signalled.
    let alive = unsafe { libc::kill(pid, 0) } == 0;
    alive || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

/// End this worker when its host (the window, the MCP server, the command line) is gone —
/// killed outright, say, so that nothing stopped the run. Nobody would read the figure, and
/// code spinning until its CPU limit would only burn the user's machine. An orphan is
/// re-parented, so `getppid` changes. (`PR_SET_PDEATHSIG` would fire when the host's
/// *thread* that spawned the worker ends, which the window's and the MCP server's thread
/// pools, and the warm pool's spawning thread, do long before the host does.)
///
/// The watching thread blocks every signal, from before it exists (it inherits the mask the
/// main thread holds while it starts it): a signal the code sends to that thread
/// (`tgkill` with a handler that never returns, the red team's way of parking it, issue #40)
/// stays pending there and never runs. Only SIGKILL and SIGSTOP cannot be blocked, and both
/// act on the whole process: SIGKILL ends it, and a stopped orphan is sent SIGCONT by the
/// kernel when its process group is orphaned — and killed by its kernel wall-clock timer
/// (`confine::wall_clock`) in any case.
#[cfg(unix)]
fn end_with_host(host: Option<libc::pid_t>) {
    let Some(host) = host else {
        return;
    };
    let watch = with_all_signals_blocked(|| {
        std::thread::Builder::new()
            .name("pdfagent-host-watch".into())
            .spawn(move || {
                loop {
                    std::thread::sleep(HOST_WATCH_INTERVAL);
                    if parent_pid() != host {
                        // SAFETY: ends the process at once (exit_group); no Rust state needs
                        // unwinding, and the worker's output is unread now that the host is
                        // gone.
                        unsafe { libc::_exit(EXIT_HOST_GONE) };
                    }
                }
            })
    });
    if let Err(e) = watch {
        eprintln!("pdfagent worker: cannot watch for the host's end ({e}); running on");
    }
}

/// Run `start` with every signal blocked in the calling thread, then restore its mask: a
/// thread started inside inherits the full mask, so no signal can reach it even before its
/// first instruction.
#[cfg(unix)]
fn with_all_signals_blocked<T>(start: impl FnOnce() -> T) -> T {
    // SAFETY: sigset_t is plain data; sigfillset initialises it; pthread_sigmask only reads
    // `all` and writes `before`, both live for the calls.
    unsafe {
        let mut all: libc::sigset_t = std::mem::zeroed();
        let mut before: libc::sigset_t = std::mem::zeroed();
        libc::sigfillset(&mut all);
        let blocked = libc::pthread_sigmask(libc::SIG_BLOCK, &all, &mut before) == 0;
        let started = start();
        if blocked {
            libc::pthread_sigmask(libc::SIG_SETMASK, &before, std::ptr::null_mut());
        }
        started
    }
}

/// Windows: the launcher watches the host instead (`confine/windows/launch.rs`); the
/// contained worker dies with its launcher's kill-on-close job.
#[cfg(not(unix))]
fn end_with_host(_host: Option<u32>) {}
