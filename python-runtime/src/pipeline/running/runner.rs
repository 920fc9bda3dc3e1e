//! Spawn the app's own executable as a confined Python worker (`PDFAGENT_PYRUN`), with an
//! environment built from scratch, a time limit, a killed-as-a-tree process group and
//! capped output.

use super::child_env::{RunDirs, TargetOs, child_env};
use super::disk;
use crate::confine::ConfinePlan;
use crate::wire::{ENV_CONFINE, ENV_HOST, ENV_PYRUN};
use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// One worker run.
#[derive(Debug, Clone)]
pub struct WorkerRequest {
    /// The Python script to run (inside `run_dir`).
    pub script: PathBuf,
    /// The fresh private run directory: the worker's cwd, HOME and TMPDIR.
    pub run_dir: PathBuf,
    /// What the worker may touch once it has confined itself.
    pub confine: ConfinePlan,
    /// Wall-clock limit, from spawn.
    pub timeout: Duration,
    /// Most bytes kept of each of stdout and stderr (the tail is kept).
    pub output_cap: usize,
}

/// Set to `true` from any thread to kill the worker tree at once.
pub type CancelFlag = Arc<AtomicBool>;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WorkerExit {
    /// The worker exited with this status.
    Exited(i32),
    /// Killed by a signal the worker did not ask for (e.g. SIGKILL from the kernel).
    #[cfg_attr(
        all(windows, not(test)),
        expect(
            dead_code,
            reason = "Windows has no signals: a worker there only exits"
        )
    )]
    Signaled(i32),
    TimedOut,
    Cancelled,
}

#[derive(Debug, Clone)]
pub struct WorkerOutcome {
    pub exit: WorkerExit,
    /// The last `output_cap` bytes of stdout, lossily decoded.
    pub stdout_tail: String,
    /// The last `output_cap` bytes of stderr, lossily decoded.
    pub stderr_tail: String,
    pub elapsed: Duration,
}

#[derive(Debug, thiserror::Error)]
pub enum RunnerError {
    #[error("could not start the worker: could not encode the confinement plan: {0}")]
    EncodePlan(#[source] serde_json::Error),
    /// Windows: the AppContainer could not be granted the plan's folders.
    #[cfg(windows)]
    #[error("could not start the worker: {0}")]
    Grant(#[source] crate::confine::windows::WindowsError),
    #[error("could not start the worker: `{}` could not be started: {source}", program.display())]
    Start {
        program: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("could not prepare the run directory `{}`: {source}", path.display())]
    PrepareRunDir {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// The matplotlib config/cache folder inside a run directory (`MPLCONFIGDIR`).
pub fn mpl_config_dir(run_dir: &Path) -> PathBuf {
    run_dir.join("mplconfig")
}

/// How often the parent looks at the worker, the cancel flag and the clock.
const POLL: Duration = Duration::from_millis(5);
/// How long to wait for the output pipes to close once the worker tree is gone.
const DRAIN_GRACE: Duration = Duration::from_secs(2);

/// Run one worker to completion, time-out or cancellation; with `disk_cap`, also stop it
/// once its run directory holds more than that many bytes (or too many files). The outcome,
/// and whether the disk cap stopped it.
pub fn run_worker(
    request: &WorkerRequest,
    cancel: &CancelFlag,
    disk_cap: Option<u64>,
) -> Result<(WorkerOutcome, bool), RunnerError> {
    // The installation's paths, found once for the job's plan (`locate::InstallPaths`).
    let plan = &request.confine;
    prepare_run_dir(&request.run_dir, Some(&plan.runtime))?;
    let worker = SpawnedWorker::spawn(&plan.executable, request, false)?;
    // The time limit counts from the worker's start, not from before the grants (on
    // Windows a first start grants the runtime, which can take seconds: issue 45).
    let started = worker.spawned_at();
    Ok(worker.finish(&Watch {
        started,
        timeout: request.timeout,
        cancel,
        disk: disk_cap.map(|max| (request.run_dir.as_path(), max)),
    }))
}

/// Give the run directory the runtime's prebuilt matplotlib font cache, so the first
/// `import matplotlib.pyplot` does not spend seconds scanning the system's fonts.
pub fn prepare_run_dir(run_dir: &Path, runtime: Option<&Path>) -> Result<(), RunnerError> {
    let target = mpl_config_dir(run_dir);
    let wrap = |path: &Path| {
        let path = path.to_path_buf();
        move |source| RunnerError::PrepareRunDir { path, source }
    };
    std::fs::create_dir_all(&target).map_err(wrap(&target))?;
    let Some(source_dir) = runtime.map(|r| r.join("mplconfig")) else {
        return Ok(());
    };
    let Ok(entries) = std::fs::read_dir(&source_dir) else {
        return Ok(());
    };
    for entry in entries {
        let entry = entry.map_err(wrap(&source_dir))?;
        if entry.file_type().map_err(wrap(&entry.path()))?.is_file() {
            let to = target.join(entry.file_name());
            std::fs::copy(entry.path(), &to).map_err(wrap(&to))?;
        }
    }
    Ok(())
}

/// The worker's complete environment: the from-scratch child environment plus the script
/// and the confinement plan. Creates the run directory's sub-folders it points into. Public
/// so the black-box suites can start a worker exactly as this runner does.
pub fn worker_env(request: &WorkerRequest) -> Result<BTreeMap<String, String>, RunnerError> {
    // vars() would panic on a non-UTF-8 variable; such a variable cannot be meant for the
    // worker anyway, so it is left out.
    let host: BTreeMap<String, String> = std::env::vars_os()
        .filter_map(|(k, v)| Some((k.into_string().ok()?, v.into_string().ok()?)))
        .collect();
    let dirs = RunDirs::inside(&request.run_dir);
    std::fs::create_dir_all(&dirs.mpl_config_dir).map_err(|source| RunnerError::PrepareRunDir {
        path: dirs.mpl_config_dir.clone(),
        source,
    })?;
    let plan = request.confine.to_json().map_err(RunnerError::EncodePlan)?;
    let mut env = child_env(TargetOs::current(), &host, &dirs);
    env.insert(ENV_PYRUN.into(), request.script.display().to_string());
    env.insert(ENV_CONFINE.into(), plan);
    Ok(env)
}

/// The one way a worker process is started (a cold worker, a warm one, a fork server):
/// `program` with exactly `env` (nothing of this process's environment) plus the host's
/// process id, in `run_dir`, stdout and stderr piped, and — on Unix — in a process group of
/// its own, so [`kill_group`] ends it and everything it started in one call.
pub(crate) fn worker_command(
    program: &Path,
    env: &BTreeMap<String, String>,
    run_dir: &Path,
    stdin: Stdio,
) -> Command {
    let mut command = Command::new(program);
    command
        .env_clear()
        .envs(env)
        // This process, the worker's parent: the worker ends when it is gone. Set here, not
        // in `worker_env`, whose environment another process may use to spawn.
        .env(ENV_HOST, std::process::id().to_string())
        .current_dir(run_dir)
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        command.process_group(0);
    }
    command
}

/// The worker as any program that honours `PDFAGENT_PYRUN` (tests use a shell stand-in).
#[cfg(all(test, target_os = "linux"))]
fn run_program(
    program: &Path,
    request: &WorkerRequest,
    cancel: &CancelFlag,
) -> Result<WorkerOutcome, RunnerError> {
    let worker = SpawnedWorker::spawn(program, request, false)?;
    let started = worker.spawned_at();
    let watch = Watch {
        started,
        timeout: request.timeout,
        cancel,
        disk: None,
    };
    Ok(worker.finish(&watch).0)
}

/// A started worker whose output is being collected: the part a cold run and a warm worker
/// share. A cold run supervises it at once; a warm worker waits (blocked on its code pipe)
/// until a figure is submitted, and is supervised from then.
pub struct SpawnedWorker {
    child: Child,
    stdout: Option<Tail>,
    stderr: Option<Tail>,
    done_rx: mpsc::Receiver<()>,
    /// When the process was started: after the environment and (Windows) the grants.
    spawned_at: Instant,
    /// Windows: the folder grants of this run's AppContainer; dropped (removed) with the
    /// worker, after it is gone.
    #[cfg(windows)]
    _grants: crate::confine::windows::RunGrants,
    /// Windows: the event that asks the launcher to end the run and wait for the contained
    /// worker (`kill_group`); `None` when it could not be created (then the launcher is
    /// terminated outright).
    #[cfg(windows)]
    _stop: Option<crate::confine::windows::StopSignal>,
}

impl SpawnedWorker {
    /// Start `program` as the worker for `request`, in its own process group. With
    /// `code_pipe` its stdin is a pipe the code is written to later ([`Self::send_code`]);
    /// otherwise stdin is empty.
    pub fn spawn(
        program: &Path,
        request: &WorkerRequest,
        code_pipe: bool,
    ) -> Result<SpawnedWorker, RunnerError> {
        let env = worker_env(request)?;
        // Windows: the AppContainer reaches only what is granted to it, before it starts.
        #[cfg(windows)]
        let grants =
            crate::confine::windows::grant_for_run(&request.confine).map_err(RunnerError::Grant)?;
        let stdin = if code_pipe {
            Stdio::piped()
        } else {
            Stdio::null()
        };
        let mut command = worker_command(program, &env, &request.run_dir, stdin);
        #[cfg(windows)]
        let mut stop = {
            use crate::confine::windows::{StopSignal, plan::STOP_ENV, plan::stop_event_name};
            let name = stop_event_name(std::process::id(), &request.run_dir);
            let stop = StopSignal::create(&name).ok();
            if let Some(stop) = &stop {
                command.env(STOP_ENV, stop.name());
            }
            stop
        };
        let spawned_at = Instant::now();
        let mut child = command.spawn().map_err(|source| RunnerError::Start {
            program: program.to_path_buf(),
            source,
        })?;
        #[cfg(windows)]
        if let Some(stop) = &mut stop {
            stop.register(child.id());
        }
        let (done_tx, done_rx) = mpsc::channel();
        let stdout = child
            .stdout
            .take()
            .map(|pipe| Tail::spawn_reader(pipe, request.output_cap, done_tx.clone()));
        let stderr = child
            .stderr
            .take()
            .map(|pipe| Tail::spawn_reader(pipe, request.output_cap, done_tx.clone()));
        Ok(SpawnedWorker {
            child,
            stdout,
            stderr,
            done_rx,
            spawned_at,
            #[cfg(windows)]
            _grants: grants,
            #[cfg(windows)]
            _stop: stop,
        })
    }

    /// When the worker's process was started (after the Windows grants): where a cold
    /// run's time limit starts.
    pub fn spawned_at(&self) -> Instant {
        self.spawned_at
    }

    /// Supervise the worker to its end ([`supervise`]); kill whatever is left of its group
    /// and collect the tails of its output. The outcome, and whether the disk cap stopped it.
    pub fn finish(mut self, watch: &Watch<'_>) -> (WorkerOutcome, bool) {
        // A code pipe never written to is closed now, so a worker cannot wait on it forever.
        drop(self.child.stdin.take());
        let (exit, over_disk_cap) = supervise(&mut self, watch);
        let elapsed = watch.started.elapsed();

        // The tree is gone, so the pipes close; a descendant that escaped the group would
        // keep them open forever, so stop waiting after a grace period and keep what was read.
        let deadline = Instant::now() + DRAIN_GRACE;
        for _ in self.stdout.iter().chain(self.stderr.iter()) {
            let left = deadline.saturating_duration_since(Instant::now());
            if self.done_rx.recv_timeout(left).is_err() {
                break;
            }
        }
        let outcome = WorkerOutcome {
            exit,
            stdout_tail: self.stdout.map(|t| t.text()).unwrap_or_default(),
            stderr_tail: self.stderr.map(|t| t.text()).unwrap_or_default(),
            elapsed,
        };
        (outcome, over_disk_cap)
    }
}

impl Supervised for SpawnedWorker {
    fn wait_exit(&mut self, wait: Duration) -> Option<WorkerExit> {
        match has_exited(&mut self.child) {
            Ok(true) | Err(_) => {
                // Stragglers it left behind go too: nothing of a run outlives it.
                kill_group(&mut self.child);
                Some(exit_of(&mut self.child))
            }
            Ok(false) => {
                std::thread::sleep(wait);
                None
            }
        }
    }

    fn kill(&mut self) {
        kill_group(&mut self.child);
        let _ = self.child.wait();
    }
}

/// What only the single-use warm worker uses (Windows, macOS; Linux keeps a fork server).
#[cfg(not(target_os = "linux"))]
impl SpawnedWorker {
    /// The worker's process id (= its process-group id).
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// Whether the worker has exited (crashed, killed, OOM), without reaping it.
    pub fn has_exited(&mut self) -> bool {
        has_exited(&mut self.child).unwrap_or(true)
    }

    /// Write `payload` to the worker's code pipe and close it, so the worker reads to EOF.
    /// Fails when the worker has no code pipe or is gone (broken pipe).
    pub fn send_code(&mut self, payload: &[u8]) -> std::io::Result<()> {
        use std::io::Write as _;
        let mut stdin = self.child.stdin.take().ok_or_else(|| {
            std::io::Error::new(std::io::ErrorKind::BrokenPipe, "the code was already sent")
        })?;
        stdin.write_all(payload)?;
        stdin.flush()
        // Dropping `stdin` closes the pipe.
    }

    /// Kill the worker's whole process group and reap it (a warm worker that is discarded).
    pub fn discard(mut self) {
        Supervised::kill(&mut self);
    }
}

/// What ends a run besides its own exit: the time limit (counted from `started`), the
/// cancel flag and, when `disk` names the run directory, the most it may hold.
pub(crate) struct Watch<'a> {
    pub started: Instant,
    pub timeout: Duration,
    pub cancel: &'a CancelFlag,
    pub disk: Option<(&'a Path, u64)>,
}

/// A started process as the supervision loop sees it: a worker of ours ([`SpawnedWorker`])
/// or a fork server's child (watched through the server's replies).
pub(crate) trait Supervised {
    /// Its exit once it has ended (whatever it left behind killed), waiting at most `wait`.
    fn wait_exit(&mut self, wait: Duration) -> Option<WorkerExit>;
    /// Kill it and everything it started, and wait (bounded) until it is gone.
    fn kill(&mut self);
}

/// The one supervision loop of every run (cold, warm, a fork server's child): wait for the
/// process to end, for the deadline, for the cancel flag or for the run directory to grow
/// past its cap, whichever comes first; a process still running then is killed. How it
/// ended, and whether the disk cap was what stopped it.
pub(crate) fn supervise(process: &mut impl Supervised, watch: &Watch<'_>) -> (WorkerExit, bool) {
    let mut run = |stop: &CancelFlag| {
        loop {
            if let Some(exit) = process.wait_exit(POLL) {
                return exit;
            }
            let ended = if stop.load(Ordering::SeqCst) {
                WorkerExit::Cancelled
            } else if watch.started.elapsed() >= watch.timeout {
                WorkerExit::TimedOut
            } else {
                continue;
            };
            process.kill();
            return ended;
        }
    };
    match watch.disk {
        Some((run_dir, max_bytes)) => disk::watch_disk(run_dir, watch.cancel, max_bytes, run),
        None => (run(watch.cancel), false),
    }
}

fn exit_of(child: &mut Child) -> WorkerExit {
    match child.wait() {
        Ok(status) => {
            #[cfg(unix)]
            {
                use std::os::unix::process::ExitStatusExt;
                if let Some(signal) = status.signal() {
                    return WorkerExit::Signaled(signal);
                }
            }
            WorkerExit::Exited(status.code().unwrap_or(-1))
        }
        Err(_) => WorkerExit::Exited(-1),
    }
}

/// Whether the worker has exited, WITHOUT reaping it: while it is an unreaped zombie its pid
/// (= its process-group id) cannot be reused, so killing the group afterwards cannot hit an
/// unrelated process.
#[cfg(unix)]
pub(crate) fn has_exited(child: &mut Child) -> std::io::Result<bool> {
    let pid = child.id() as libc::id_t;
    // SAFETY: a zeroed siginfo_t is a valid out-parameter for waitid.
    let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
    // SAFETY: `info` is a live, writable siginfo_t; WNOWAIT leaves the child unreaped.
    let rc = unsafe {
        libc::waitid(
            libc::P_PID,
            pid,
            &mut info,
            libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
        )
    };
    if rc != 0 {
        return Err(std::io::Error::last_os_error());
    }
    // With WNOHANG and nothing to report, the kernel leaves the struct zeroed.
    Ok(info.si_signo != 0)
}

#[cfg(not(unix))]
fn has_exited(child: &mut Child) -> std::io::Result<bool> {
    child.try_wait().map(|status| status.is_some())
}

/// Kill the process group of `child` (a worker or a fork server: each is the leader of its
/// own group, [`worker_command`]) — the process and everything it started — in one call.
#[cfg(unix)]
pub(crate) fn kill_group(child: &mut Child) {
    // The group id is the worker's pid (process_group(0)); ESRCH just means it is empty.
    let pgid = child.id() as libc::pid_t;
    // SAFETY: plain syscall; the worker is not reaped yet, so the group id is still ours.
    unsafe {
        libc::killpg(pgid, libc::SIGKILL);
    }
}

/// Windows: the child is the launcher. Asked through its stop event, it ends the contained
/// worker's job and exits once the worker is gone, so the run directory can be removed;
/// terminated outright (the fallback), it still takes the worker with it — it holds the
/// only handle to the kill-on-close job — but a moment later.
#[cfg(not(unix))]
pub(crate) fn kill_group(child: &mut Child) {
    #[cfg(windows)]
    if crate::confine::windows::ask_to_stop(child.id()) {
        let deadline = Instant::now() + STOP_GRACE;
        while Instant::now() < deadline {
            if matches!(child.try_wait(), Ok(Some(_))) {
                return;
            }
            std::thread::sleep(POLL);
        }
    }
    let _ = child.kill();
}

/// How long a stopped launcher gets to end its worker before it is terminated.
#[cfg(windows)]
const STOP_GRACE: Duration = Duration::from_secs(6);

/// The last `cap` bytes of one output stream, filled by its own reader thread.
struct Tail {
    buf: Arc<Mutex<Vec<u8>>>,
    cap: usize,
}

impl Tail {
    fn spawn_reader<R: Read + Send + 'static>(
        mut pipe: R,
        cap: usize,
        done: mpsc::Sender<()>,
    ) -> Tail {
        let buf = Arc::new(Mutex::new(Vec::new()));
        let shared = Arc::clone(&buf);
        std::thread::spawn(move || {
            let mut chunk = vec![0u8; 64 * 1024];
            loop {
                match pipe.read(&mut chunk) {
                    Ok(0) => break,
                    Ok(n) => {
                        let Ok(mut buf) = shared.lock() else { break };
                        buf.extend_from_slice(&chunk[..n]);
                        // Trim in batches, not per read: memory stays under 2 × cap + 64 KiB.
                        if buf.len() > cap.saturating_mul(2).max(chunk.len()) {
                            let excess = buf.len() - cap;
                            buf.drain(..excess);
                        }
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(_) => break,
                }
            }
            let _ = done.send(());
        });
        Tail { buf, cap }
    }

    fn text(&self) -> String {
        let buf = match self.buf.lock() {
            Ok(buf) => buf,
            Err(poisoned) => poisoned.into_inner(),
        };
        let start = buf.len().saturating_sub(self.cap);
        String::from_utf8_lossy(&buf[start..]).into_owned()
    }
}

#[cfg(test)]
#[cfg(target_os = "linux")]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    /// A stand-in worker: honours `PDFAGENT_PYRUN` by running the script with `/bin/sh`.
    fn fake_worker(dir: &Path) -> PathBuf {
        let exe = dir.join("fake-worker");
        std::fs::write(&exe, "#!/bin/sh\nexec /bin/sh \"$PDFAGENT_PYRUN\"\n").unwrap();
        std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(0o755)).unwrap();
        exe
    }

    fn request(run_dir: &Path, script: &str, timeout: Duration, cap: usize) -> WorkerRequest {
        let path = run_dir.join("script.sh");
        std::fs::write(&path, script).unwrap();
        WorkerRequest {
            script: path,
            run_dir: run_dir.to_path_buf(),
            confine: ConfinePlan {
                read_only: vec![],
                code: vec![],
                executable: PathBuf::new(),
                runtime: PathBuf::new(),
                read_write: vec![run_dir.to_path_buf()],
                memory_bytes: 1 << 30,
                cpu_seconds: 60,
                file_size_bytes: 1 << 20,
                wall_clock_ms: 0,
                role: Default::default(),
                landlock_scopes: true,
                library_bytes: None,
            },
            timeout,
            output_cap: cap,
        }
    }

    /// The pid a test's shell script wrote with `echo $! > file`.
    fn read_pid(file: &Path) -> i32 {
        std::fs::read_to_string(file)
            .unwrap()
            .trim()
            .parse()
            .unwrap()
    }

    /// Whether `pid` is still a live (not zombie) process. SIGKILL is delivered
    /// asynchronously, so a just-killed process may still be on its way out: give it a
    /// bounded while to finish dying before calling it a survivor.
    fn still_running(pid: i32) -> Option<String> {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
            // Field 3 (after the parenthesised name) is the state; Z = dead, not yet reaped.
            let state = stat.rsplit(')').next()?.split_whitespace().next()?;
            if state == "Z" || state == "X" {
                return None;
            }
            if Instant::now() >= deadline {
                return Some(stat);
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    #[test]
    fn exit_status_output_cwd_and_environment() {
        let tmp = tempfile::tempdir().unwrap();
        let run_dir = tmp.path().join("run");
        std::fs::create_dir(&run_dir).unwrap();
        let req = request(
            &run_dir,
            "pwd; echo \"pyrun=${PDFAGENT_PYRUN:+set} confine=${PDFAGENT_CONFINE:+set}\"; \
             echo \"path=${PATH-unset} cargo=${CARGO-unset}\"; echo oops >&2; exit 7\n",
            Duration::from_secs(30),
            4096,
        );
        let out = run_program(&fake_worker(tmp.path()), &req, &CancelFlag::default()).unwrap();
        assert_eq!(out.exit, WorkerExit::Exited(7));
        let run_dir = run_dir.canonicalize().unwrap();
        assert!(
            out.stdout_tail.contains(&run_dir.display().to_string()),
            "{out:?}"
        );
        assert!(out.stdout_tail.contains("pyrun=set confine=set"), "{out:?}");
        // `cargo test` sets CARGO in our environment; the worker must not inherit it.
        assert!(out.stdout_tail.contains("cargo=unset"), "{out:?}");
        assert_eq!(out.stderr_tail, "oops\n");
    }

    #[test]
    fn timeout_kills_the_whole_process_group_including_grandchildren() {
        let tmp = tempfile::tempdir().unwrap();
        let pid_file = tmp.path().join("grandchild.pid");
        let req = request(
            tmp.path(),
            &format!(
                "/bin/sleep 300 &\necho $! > '{}'\nwait\n",
                pid_file.display()
            ),
            Duration::from_millis(500),
            4096,
        );
        let out = run_program(&fake_worker(tmp.path()), &req, &CancelFlag::default()).unwrap();
        assert_eq!(out.exit, WorkerExit::TimedOut);
        let pid = read_pid(&pid_file);
        // Re-parented and reaped by init, or a zombie about to be: not still sleeping.
        if let Some(stat) = still_running(pid) {
            panic!("grandchild {pid} survived the time-out: {stat}");
        }
    }

    #[test]
    fn stragglers_are_killed_when_the_worker_exits() {
        let tmp = tempfile::tempdir().unwrap();
        let pid_file = tmp.path().join("straggler.pid");
        // The background sleep keeps stdout open; without the group kill the runner would
        // wait for it (and it would outlive the run).
        let req = request(
            tmp.path(),
            &format!(
                "/bin/sleep 300 &\necho $! > '{}'\nexit 0\n",
                pid_file.display()
            ),
            Duration::from_secs(60),
            4096,
        );
        let out = run_program(&fake_worker(tmp.path()), &req, &CancelFlag::default()).unwrap();
        assert_eq!(out.exit, WorkerExit::Exited(0));
        let pid = read_pid(&pid_file);
        if let Some(stat) = still_running(pid) {
            panic!("straggler {pid} survived the run: {stat}");
        }
    }

    #[test]
    fn cancel_flag_stops_the_worker() {
        let tmp = tempfile::tempdir().unwrap();
        let req = request(
            tmp.path(),
            "exec /bin/sleep 300\n",
            Duration::from_secs(300),
            64,
        );
        let cancel = CancelFlag::default();
        let flag = Arc::clone(&cancel);
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(200));
            flag.store(true, Ordering::SeqCst);
        });
        let out = run_program(&fake_worker(tmp.path()), &req, &cancel).unwrap();
        assert_eq!(out.exit, WorkerExit::Cancelled);
    }

    #[test]
    fn output_is_capped_to_its_tail() {
        let tmp = tempfile::tempdir().unwrap();
        // 200 MB of output; only the last 1000 bytes may be kept.
        let req = request(
            tmp.path(),
            "/usr/bin/head -c 200000000 /dev/zero | /usr/bin/tr '\\0' 'a'; printf 'THE-END'\n",
            Duration::from_secs(120),
            1000,
        );
        let out = run_program(&fake_worker(tmp.path()), &req, &CancelFlag::default()).unwrap();
        assert_eq!(out.exit, WorkerExit::Exited(0));
        assert_eq!(out.stdout_tail.len(), 1000);
        assert!(
            out.stdout_tail.ends_with("aaaTHE-END"),
            "{}",
            &out.stdout_tail[990..]
        );
    }

    #[test]
    fn a_worker_killed_by_a_signal_is_reported_as_such() {
        let tmp = tempfile::tempdir().unwrap();
        let req = request(tmp.path(), "kill -9 $$\n", Duration::from_secs(30), 64);
        let out = run_program(&fake_worker(tmp.path()), &req, &CancelFlag::default()).unwrap();
        assert_eq!(out.exit, WorkerExit::Signaled(libc::SIGKILL));
    }

    #[test]
    fn missing_program_is_a_spawn_error() {
        let tmp = tempfile::tempdir().unwrap();
        let req = request(tmp.path(), "", Duration::from_secs(1), 64);
        let err = run_program(&tmp.path().join("nope"), &req, &CancelFlag::default()).unwrap_err();
        assert!(err.to_string().contains("nope"), "{err}");
    }

    #[test]
    fn run_dir_gets_the_prebuilt_font_cache() {
        let tmp = tempfile::tempdir().unwrap();
        let runtime = tmp.path().join("runtime");
        std::fs::create_dir_all(runtime.join("mplconfig")).unwrap();
        std::fs::write(runtime.join("mplconfig/fontlist-v390.json"), "{}").unwrap();
        let run_dir = tmp.path().join("run");
        prepare_run_dir(&run_dir, Some(&runtime)).unwrap();
        assert_eq!(
            std::fs::read_to_string(mpl_config_dir(&run_dir).join("fontlist-v390.json")).unwrap(),
            "{}"
        );
    }
}
