//! The fork server (Linux): one confined process per (data folder, limits) that warms up
//! once — Python started, numpy/matplotlib/pandas imported, a figure drawn — and then forks
//! a fresh child per figure. It never runs submitted code itself.
//!
//! The server is started exactly like a warm worker (the same from-scratch environment, its
//! own run directory, the same plan applied by itself before Python starts) except that its
//! seccomp filter lets it fork (`ProcessRole::ForkServer`) and it starts no thread. Each
//! child, before the code runs, applies the figure's own plan — the very plan a cold worker
//! gets, for a fresh run directory inside the server's — on top of the server's
//! confinement: a new Landlock layer (only its own run directory writable; a sibling's is
//! neither readable nor writable; signals to the server or a sibling are out of its scope),
//! the worker's seccomp filter (no fork, no exec), its own rlimits, `PR_SET_PDEATHSIG`.
//! The messages on the server's stdin and stdout are in `running/protocol.rs` (the
//! server's side: `fork_server.py`).
//!
//! The server keeps one child forked ahead of the next figure (a [`Spare`]): forked,
//! confined to its fresh run directory and with the figure capture installed, it waits for
//! its figure. A submitted figure then only writes its request into that run directory and
//! says "go" — the fork, the confinement and the per-figure set-up are paid while the host
//! waits, not while the figure does — and the next spare is forked while the figure runs.
//!
//! Everything after the child has run is the cold path's: the parent watches the run
//! directory's size, enforces the time limit and cancel (by asking the server to kill the
//! child), and the pipeline judges and keeps the figures of its [`FinishedRun`] exactly as a
//! cold run's.

use super::job::{self, JobError, PlanError, WorkerJob};
use super::limits::Limits;
use super::protocol::{self, ForkRequest, HostMessage, ServerReply};
use super::run_dir::RunDir;
use super::runner::{self, Supervised, Watch, WorkerExit, WorkerOutcome};
use super::warm::{READY_MARKER, took_code};
use super::{FigureRun, FinishedRun, Step};
use crate::confine::ConfinePlan;
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, mpsc};
use std::time::{Duration, Instant};

/// The file the parent puts in a fork server's run directory (tests and diagnostics tell a
/// server from a worker by it; nothing reads it).
pub const SERVER_MARKER: &str = ".pdfagent-fork-server";
/// The folder inside the server's run directory that holds its children's run directories.
const CHILDREN: &str = "runs";
/// The files a child's stdout and stderr go to, inside its run directory.
pub(crate) const STDOUT_FILE: &str = "stdout.txt";
pub(crate) const STDERR_FILE: &str = "stderr.txt";
/// Longest a figure waits for the server to fork its child (the server may still be
/// warming up); after it, the figure runs cold.
const FORK_WAIT: Duration = Duration::from_secs(30);
/// How long a killed child gets to be reaped and reported by the server.
const KILL_WAIT: Duration = Duration::from_secs(5);

/// What the server says about one request.
enum Event {
    Forked,
    /// Exit status, or `-signal`.
    Exited(i32),
}

/// Where the server's replies go: one channel per request in flight.
#[derive(Default)]
struct Routes {
    waiting: HashMap<u64, mpsc::Sender<Event>>,
    /// The server's stdout closed: it is gone, and no reply will come.
    closed: bool,
}

/// A child forked ahead of its figure: confined to its own run directory (inside the
/// server's) with the capture installed, it waits for the figure's request.
struct Spare {
    id: u64,
    run: RunDir,
    output: ChildOutput,
    events: mpsc::Receiver<Event>,
    /// The server has said it forked the child.
    forked: bool,
}

pub(crate) struct ForkServer {
    process: Mutex<Child>,
    stdin: Mutex<Option<ChildStdin>>,
    routes: Arc<Mutex<Routes>>,
    next_id: AtomicU64,
    /// What every child is confined to: the server's data folder and limits.
    src: PathBuf,
    limits: Limits,
    /// The next figure's child, forked ahead (dropped before `dir`, which holds its run
    /// directory).
    spare: Mutex<Option<Spare>>,
    /// Figures running in children now.
    running: AtomicUsize,
    dir: RunDir,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // Plain data behind every lock here: a panic while holding one leaves it usable.
    mutex.lock().unwrap_or_else(|p| p.into_inner())
}

impl ForkServer {
    /// Start a fork server for `src` and `limits`, running `script` (the pipeline's
    /// `script::render_fork_server`). It warms up in the background; requests sent before it
    /// is ready wait in its pipe.
    pub(crate) fn start(src: &Path, limits: &Limits, script: &str) -> Result<ForkServer, JobError> {
        let job = WorkerJob::new(Some(src), limits)?.for_fork_server();
        let exe = job.executable().to_path_buf();
        job.create_dir(CHILDREN)?;
        job.write_script(script)?;
        job.write_file(SERVER_MARKER, "")?;
        let env = job.env()?;
        // Its own process group, shared by its children (they cannot make another):
        // discarding the server kills every figure it forked in one call.
        let mut process = runner::worker_command(&exe, &env, job.path(), Stdio::piped())
            .spawn()
            .map_err(|source| JobError::Start { exe, source })?;
        let stdin = process.stdin.take();
        let routes = Arc::new(Mutex::new(Routes::default()));
        if let Some(stdout) = process.stdout.take() {
            let routes = Arc::clone(&routes);
            std::thread::spawn(move || route_replies(stdout, &routes));
        }
        if let Some(mut stderr) = process.stderr.take() {
            // The server itself prints only when something is wrong with a request; its
            // children's output goes to their own files. Drained so it never blocks.
            std::thread::spawn(move || {
                let mut sink = Vec::new();
                let _ = stderr.read_to_end(&mut sink);
            });
        }
        let server = ForkServer {
            process: Mutex::new(process),
            stdin: Mutex::new(stdin),
            routes,
            next_id: AtomicU64::new(1),
            src: src.to_path_buf(),
            limits: *limits,
            spare: Mutex::new(None),
            running: AtomicUsize::new(0),
            dir: job.into_run_dir(),
        };
        // Waits in the pipe until the server has warmed up.
        server.refill();
        Ok(server)
    }

    /// The server's process id.
    pub(crate) fn id(&self) -> u32 {
        lock(&self.process).id()
    }

    /// Whether the server has warmed up and waits for figures.
    pub(crate) fn is_ready(&self) -> bool {
        self.dir.path().join(READY_MARKER).is_file()
    }

    /// Whether the server has exited (crashed, killed), without reaping it.
    pub(crate) fn has_exited(&self) -> bool {
        lock(&self.routes).closed || runner::has_exited(&mut lock(&self.process)).unwrap_or(true)
    }

    /// Make one figure in a fresh child of the server (the one forked ahead when it is
    /// waiting, else one forked now). `None` when the code never reached a child (the server
    /// is gone or could not fork, or the child died before it read the figure): then the
    /// caller makes it cold.
    pub(crate) fn run(&self, figure: &FigureRun<'_>) -> Option<FinishedRun> {
        let FigureRun {
            limits,
            progress,
            started,
            ..
        } = *figure;
        progress(Step::Starting);
        let child = match self.take_spare() {
            Some(spare) => spare,
            // Forked for this figure, which waits for it: no drawing ahead.
            None => self.fork_ahead(false)?,
        };
        let out = child.run.path().join(figure.out_name);
        let sent = write_request(
            &protocol::request_file(child.run.path(), child.id),
            &figure.text.request(&out),
        )
        .is_ok()
            && self.send(&HostMessage::Go { go: child.id });
        if !sent {
            self.kill(child.id);
            self.forget(child.id);
            return None;
        }
        let _running = Running::start(&self.running);
        // The next figure's child, forked while this one runs.
        self.refill();
        if !child.forked {
            match child.events.recv_timeout(FORK_WAIT) {
                Ok(Event::Forked) => {}
                Ok(Event::Exited(_)) | Err(mpsc::RecvTimeoutError::Disconnected) => {
                    self.forget(child.id);
                    return None;
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    self.kill(child.id);
                    self.forget(child.id);
                    return None;
                }
            }
        }
        progress(Step::Running);
        let watch = Watch {
            started,
            timeout: limits.timeout,
            cancel: figure.cancel,
            disk: Some((child.run.path(), limits.run_dir_max_bytes)),
        };
        let mut watched = ForkedChild {
            server: self,
            id: child.id,
            events: &child.events,
        };
        let (exit, over_cap) = runner::supervise(&mut watched, &watch);
        self.forget(child.id);
        if !took_code(child.run.path(), &exit) {
            return None;
        }
        let outcome = WorkerOutcome {
            exit,
            stdout_tail: child.output.stdout.tail(limits.output_cap),
            stderr_tail: child.output.stderr.tail(limits.output_cap),
            elapsed: started.elapsed(),
        };
        Some(FinishedRun {
            outcome: Ok(outcome),
            over_cap,
            out,
            run: child.run,
        })
    }

    /// Ask the server for a child ahead of its figure: a fresh run directory inside the
    /// server's with the output files the parent holds, and the very plan a cold worker
    /// gets for it. The server forks it once it has warmed up; with `draw`, the child draws
    /// a figure once in its own memory while it waits (see `preamble.py`).
    fn fork_ahead(&self, draw: bool) -> Option<Spare> {
        let run = RunDir::create_in(&self.dir.path().join(CHILDREN)).ok()?;
        let output = ChildOutput::create(run.path()).ok()?;
        let plan = child_plan(&self.src, run.path(), self.dir.path(), &self.limits).ok()?;
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let events = self.expect(id)?;
        let fork = ForkRequest::new(id, run.path(), &plan, draw);
        if !self.send(&HostMessage::Fork(fork)) {
            self.forget(id);
            return None;
        }
        Some(Spare {
            id,
            run,
            output,
            events,
            forked: false,
        })
    }

    /// Keep a child forked ahead for the next figure. It draws ahead only while at most one
    /// figure runs (one after the other): with several at once the cores are busy with
    /// figures, and a child taken before its drawing ended would keep its figure waiting.
    fn refill(&self) {
        let mut spare = lock(&self.spare);
        if spare.is_none() {
            *spare = self.fork_ahead(self.running.load(Ordering::SeqCst) <= 1);
        }
    }

    /// The child forked ahead, if it is still waiting; one that died meanwhile (killed, or
    /// the fork failed) is let go.
    fn take_spare(&self) -> Option<Spare> {
        let mut spare = lock(&self.spare).take()?;
        loop {
            match spare.events.try_recv() {
                Ok(Event::Forked) => spare.forked = true,
                Ok(Event::Exited(_)) | Err(mpsc::TryRecvError::Disconnected) => {
                    self.forget(spare.id);
                    return None;
                }
                Err(mpsc::TryRecvError::Empty) => return Some(spare),
            }
        }
    }

    /// A channel for the replies to request `id`; `None` when the server is gone.
    fn expect(&self, id: u64) -> Option<mpsc::Receiver<Event>> {
        let mut routes = lock(&self.routes);
        if routes.closed {
            return None;
        }
        let (tx, rx) = mpsc::channel();
        routes.waiting.insert(id, tx);
        Some(rx)
    }

    fn forget(&self, id: u64) {
        lock(&self.routes).waiting.remove(&id);
    }

    fn kill(&self, id: u64) {
        self.send(&HostMessage::Kill { kill: id });
    }

    /// Write one message to the server; false when its pipe is gone (or the message could
    /// not be written as JSON).
    fn send(&self, message: &HostMessage) -> bool {
        let Ok(line) = message.to_line() else {
            return false;
        };
        let mut stdin = lock(&self.stdin);
        match stdin.as_mut() {
            Some(pipe) => pipe
                .write_all(line.as_bytes())
                .and_then(|()| pipe.flush())
                .is_ok(),
            None => false,
        }
    }
}

impl Drop for ForkServer {
    /// Closing the pipe ends an idle server by itself; the group kill also takes every
    /// child still running (a discarded server's figures have no reader any more).
    fn drop(&mut self) {
        drop(lock(&self.stdin).take());
        let mut process = lock(&self.process);
        runner::kill_group(&mut process);
        let _ = process.wait();
    }
}

/// The plan a child applies: exactly a cold worker's for its run directory, plus reading
/// the server's matplotlib folder (matplotlib found its configuration and font cache there
/// at import; the child may read them, never change them).
pub(crate) fn child_plan(
    src: &Path,
    run_dir: &Path,
    server_dir: &Path,
    limits: &Limits,
) -> Result<ConfinePlan, PlanError> {
    let mut plan = job::plan(Some(src), run_dir, limits)?;
    plan.read_only.push(runner::mpl_config_dir(server_dir));
    Ok(plan)
}

/// Write a figure's request (`OUT`, the checked code, the options:
/// [`protocol::figure_request`]) into `file` in its child's run directory
/// ([`protocol::request_file`]), where the child reads it after the "go". Created new and
/// private: nothing else is ever read from there as a request.
pub(crate) fn write_request(file: &Path, request: &str) -> std::io::Result<()> {
    use std::os::unix::fs::OpenOptionsExt;
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(file)?;
    file.write_all(request.as_bytes())
}

/// The child of request `id`, as the supervision loop sees it: its end comes as the
/// server's reply; it is killed by asking the server.
struct ForkedChild<'a> {
    server: &'a ForkServer,
    id: u64,
    events: &'a mpsc::Receiver<Event>,
}

impl Supervised for ForkedChild<'_> {
    fn wait_exit(&mut self, wait: Duration) -> Option<WorkerExit> {
        match self.events.recv_timeout(wait) {
            Ok(Event::Exited(status)) => Some(exit_of(status)),
            Ok(Event::Forked) | Err(mpsc::RecvTimeoutError::Timeout) => None,
            // The server is gone; its children die with it (PR_SET_PDEATHSIG).
            Err(mpsc::RecvTimeoutError::Disconnected) => Some(WorkerExit::Signaled(libc::SIGKILL)),
        }
    }

    fn kill(&mut self) {
        self.server.kill(self.id);
        // Reaped and reported by the server; its run directory goes after that.
        let deadline = Instant::now() + KILL_WAIT;
        while let Some(left) = deadline.checked_duration_since(Instant::now()) {
            match self.events.recv_timeout(left) {
                Ok(Event::Exited(_)) | Err(_) => break,
                Ok(Event::Forked) => {}
            }
        }
    }
}

/// One figure counted as running while it lives.
struct Running<'a>(&'a AtomicUsize);

impl<'a> Running<'a> {
    fn start(count: &'a AtomicUsize) -> Running<'a> {
        count.fetch_add(1, Ordering::SeqCst);
        Running(count)
    }
}

impl Drop for Running<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

fn exit_of(status: i32) -> WorkerExit {
    if status < 0 {
        WorkerExit::Signaled(-status)
    } else {
        WorkerExit::Exited(status)
    }
}

/// Read the server's replies and hand each to the request it answers; when the server's
/// stdout closes, every waiting request learns that the server is gone.
fn route_replies(stdout: impl Read, routes: &Mutex<Routes>) {
    for line in BufReader::new(stdout).lines() {
        let Ok(line) = line else { break };
        let Some(reply) = ServerReply::parse(&line) else {
            continue;
        };
        let id = reply.id();
        let mut routes = lock(routes);
        let event = match reply {
            ServerReply::Forked { .. } => Event::Forked,
            ServerReply::Exited { exit, .. } => Event::Exited(exit),
            // A fork that failed: the request ends here; its sender is dropped below.
            ServerReply::Failed { .. } => {
                routes.waiting.remove(&id);
                continue;
            }
        };
        if let Some(waiting) = routes.waiting.get(&id)
            && waiting.send(event).is_err()
        {
            routes.waiting.remove(&id);
        }
    }
    let mut routes = lock(routes);
    routes.closed = true;
    routes.waiting.clear();
}

/// The files a child's stdout and stderr go to, created by the parent and held open for
/// reading before the request is sent: whatever the code later does to the names (a link,
/// a replacement), the parent reads what the child wrote through its own descriptors.
pub(crate) struct ChildOutput {
    stdout: HeldFile,
    stderr: HeldFile,
}

impl ChildOutput {
    pub(crate) fn create(run_dir: &Path) -> std::io::Result<ChildOutput> {
        Ok(ChildOutput {
            stdout: HeldFile::create(&run_dir.join(STDOUT_FILE))?,
            stderr: HeldFile::create(&run_dir.join(STDERR_FILE))?,
        })
    }
}

struct HeldFile(std::fs::File);

impl HeldFile {
    fn create(path: &Path) -> std::io::Result<HeldFile> {
        use std::os::unix::fs::OpenOptionsExt;
        std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(path)
            .map(HeldFile)
    }

    /// The last `cap` bytes, lossily decoded.
    fn tail(&self, cap: usize) -> String {
        let mut file = &self.0;
        let len = file.metadata().map(|m| m.len()).unwrap_or(0);
        let start = len.saturating_sub(cap as u64);
        let mut buf = Vec::new();
        if file.seek(SeekFrom::Start(start)).is_ok() {
            let _ = file.take(cap as u64).read_to_end(&mut buf);
        }
        String::from_utf8_lossy(&buf).into_owned()
    }
}
