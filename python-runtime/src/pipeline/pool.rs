//! The pipeline's pool: one checked figure run on a backend and judged — the one path from
//! checked code to a [`FigureResult`], for every way a figure runs.
//!
//! [`make_figure`](super::make_figure) is the pool with no warm backend: every figure cold. A long-lived host
//! (the window, the MCP server) holds one [`WarmPool`] and calls [`WarmPool::submit`]
//! where [`make_figure`](super::make_figure) was called: the same checks and result, run on a warm process
//! kept ready per (source folder, figures folder, limits) — on Linux a fork server that
//! forks a fresh child per figure, elsewhere a single-use warm worker (see
//! `running/warm`). A process that ran code is never reused: the next single-use warm
//! worker is started as soon as the figure is done, in the background. The one-shot command
//! line gains nothing from it.
//!
//! Either way the order is the same, and each step is a room entered once: check the
//! request (`check_request`: install identity, input validation, Layer 1) → pick the
//! [`Backend`] (`running/`) → [`Backend::run`] returns one [`FinishedRun`] → `finish.rs`
//! judges it and keeps the figures.

use super::running::warm::WarmWorker;
use super::running::{self, Backend, FigureRun, FigureText, Step, protocol};
use super::script::{self, RunOptions};
use super::validate::{self, ValidInput};
use super::{
    CancelFlag, CheckedSource, FigureRequest, FigureResult, Guard, Limits, Stage, check_request,
    finish,
};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// One figure's run, as the pool and the judging after it (`finish.rs`) see it.
pub(crate) struct RunContext<'a> {
    /// The figure's name (its file stem; "canary" for the selftest's).
    pub name: &'a str,
    /// The code, checked by Layer 1 (or a canary's).
    pub source: &'a CheckedSource,
    /// The request after input validation: folders, format, options.
    pub valid: &'a ValidInput,
    pub limits: &'a Limits,
    pub cancel: &'a CancelFlag,
    pub progress: &'a dyn Fn(Stage),
    /// When the figure was submitted: its time limit and its `ms` count from here.
    pub started: Instant,
}

impl RunContext<'_> {
    /// What the worker is told besides the code: the request's options, the guard armed
    /// but for a canary.
    fn options(&self) -> RunOptions {
        RunOptions {
            guard: self.source.2 == Guard::Armed,
            ..self.valid.run_options()
        }
    }
}

impl FigureText for RunContext<'_> {
    fn script(&self, out: &Path) -> String {
        script::render(&self.valid.src, out, &self.source.0, self.options())
    }

    fn request(&self, out: &Path) -> String {
        protocol::figure_request(out, &self.source.0, self.options())
    }
}

impl From<Step> for Stage {
    fn from(step: Step) -> Stage {
        match step {
            Step::Starting => Stage::Starting,
            Step::Running => Stage::Running,
        }
    }
}

/// Make one figure: check it, then run it on `pool`'s warm backend (or cold, with no pool
/// or none kept for its settings) and judge it.
pub(super) fn make(
    request: &FigureRequest,
    cancel: &CancelFlag,
    progress: &dyn Fn(Stage),
    pool: Option<&WarmPool>,
) -> FigureResult {
    let started = Instant::now();
    let (valid, source) = match check_request(request, progress, started) {
        Ok(checked) => checked,
        Err(failed) => return *failed,
    };
    let ctx = RunContext {
        name: &valid.name,
        source: &source,
        valid: &valid,
        limits: &request.limits,
        cancel,
        progress,
        started,
    };
    match pool {
        Some(pool) => pool.run(&ctx),
        None => run_checked(&ctx),
    }
}

/// Run code that has passed Layer 1 (or a canary) cold and save its figure. The name and
/// the folders in `ctx.valid` must have passed input validation.
pub(crate) fn run_checked(ctx: &RunContext<'_>) -> FigureResult {
    run_on(ctx, Backend::Cold)
}

/// Run a checked figure on `backend` and judge what it finished with.
fn run_on(ctx: &RunContext<'_>, backend: Backend) -> FigureResult {
    let figure = FigureRun {
        src: &ctx.valid.src,
        out_name: ctx.valid.format.out_name(),
        text: ctx,
        limits: ctx.limits,
        cancel: ctx.cancel,
        progress: &|step| (ctx.progress)(step.into()),
        started: ctx.started,
    };
    finish::collect(ctx, backend.run(&figure))
}

/// The script the pool's warm process runs: the fork server's on Linux, the single-use
/// warm worker's elsewhere.
fn warm_script(src: &Path) -> String {
    #[cfg(target_os = "linux")]
    return script::render_fork_server(src);
    #[cfg(not(target_os = "linux"))]
    return script::render_warm(src);
}

/// Longest a submit waits for a warm worker that is being started right then (the spawn
/// itself, not its warm-up: that is only milliseconds).
const SPAWN_WAIT: Duration = Duration::from_secs(2);

/// What a warm worker is fixed to at spawn. Any change means a new worker.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Key {
    src: PathBuf,
    figures: PathBuf,
    limits: Limits,
}

/// At most this many figures run at once in one pool (each in its own process).
struct Slots {
    free: Mutex<usize>,
    count: usize,
    changed: Condvar,
}

impl Slots {
    fn new(count: usize) -> Slots {
        Slots {
            free: Mutex::new(count.max(1)),
            count: count.max(1),
            changed: Condvar::new(),
        }
    }

    fn count(&self) -> usize {
        self.count
    }

    /// Wait for a free slot; it is given back when the guard drops.
    fn take(&self) -> SlotGuard<'_> {
        let mut free = self.free.lock().unwrap_or_else(|p| p.into_inner());
        while *free == 0 {
            free = self.changed.wait(free).unwrap_or_else(|p| p.into_inner());
        }
        *free -= 1;
        SlotGuard(self)
    }
}

struct SlotGuard<'a>(&'a Slots);

impl Drop for SlotGuard<'_> {
    fn drop(&mut self) {
        *self.0.free.lock().unwrap_or_else(|p| p.into_inner()) += 1;
        self.0.changed.notify_one();
    }
}

/// The warm process kept, and the settings it was started for.
struct Kept {
    key: Key,
    worker: WarmWorker,
}

#[derive(Default)]
struct State {
    /// The settings a warm worker should be ready for, and the spawn's generation.
    wanted: Option<(Key, u64)>,
    /// A spawn for `wanted` is under way in the background.
    spawning: bool,
    worker: Option<Kept>,
    generation: u64,
    /// Background spawns not yet finished (current or superseded).
    spawns_in_flight: usize,
    /// [`WarmPool::shutdown`] was called: no worker is started any more.
    closed: bool,
}

struct Shared {
    state: Mutex<State>,
    changed: Condvar,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic while holding the lock leaves plain data behind: keep using it.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The state once `busy` is false or `timeout` has passed, whichever comes first.
    fn wait_while(
        &self,
        timeout: Duration,
        busy: impl FnMut(&mut State) -> bool,
    ) -> MutexGuard<'_, State> {
        match self.changed.wait_timeout_while(self.lock(), timeout, busy) {
            Ok((state, _)) => state,
            Err(poisoned) => poisoned.into_inner().0,
        }
    }
}

/// Keeps one warm worker ready for the settings of the last figure (or of [`Self::prepare`]).
/// Dropping the pool kills its warm worker.
pub struct WarmPool {
    shared: Arc<Shared>,
    /// One figure per core at once; more wait for a slot.
    slots: Slots,
    /// Windows: while the pool lives, a run's data-folder grant is taken back by the next
    /// run's grant of the folder (one walk of it per run, not two: issue 45); the rest when
    /// the pool is dropped, after its warm worker (fields drop after `Drop::drop`).
    #[cfg(windows)]
    _revokes: crate::confine::windows::NextRunRevokes,
}

impl Default for WarmPool {
    fn default() -> Self {
        Self::new()
    }
}

impl WarmPool {
    /// An empty pool: the first figure runs cold and warms a worker for the next. A pool
    /// belongs to a long-lived host, so its creation also removes, in the background, the
    /// run directories that killed hosts left behind (`run_dir::sweep_orphaned`).
    pub fn new() -> WarmPool {
        running::sweep_left_behind();
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        WarmPool {
            shared: Arc::new(Shared {
                state: Mutex::new(State::default()),
                changed: Condvar::new(),
            }),
            slots: Slots::new(cores),
            #[cfg(windows)]
            _revokes: crate::confine::windows::revoke_with_next_run(),
        }
    }

    /// Start a warm worker (in the background) for these folders and limits, discarding one
    /// kept for other settings: call it when the user picks a data folder. Fails, with the
    /// contract's input message, when the folders or limits would be refused at submit.
    pub fn prepare(
        &self,
        src: &Path,
        figures: &Path,
        limits: &Limits,
    ) -> Result<(), validate::InputError> {
        let probe = FigureRequest {
            name: "warm".into(),
            code: b"pass\n".to_vec(),
            src: src.to_path_buf(),
            figures: figures.to_path_buf(),
            format: Default::default(),
            limits: *limits,
            preview: false,
        };
        let valid = validate::validate_settings(&probe)?;
        self.want(Key {
            src: valid.src,
            figures: valid.figures,
            limits: *limits,
        });
        Ok(())
    }

    /// Make one figure, as [`make_figure`](super::make_figure) does (same checks, same result contract), on the
    /// warm worker when one is alive for these settings, otherwise cold. Either way a warm
    /// worker for these settings is started for the next figure. The time limit counts from
    /// this call.
    pub fn submit(
        &self,
        request: &FigureRequest,
        cancel: &CancelFlag,
        progress: &dyn Fn(Stage),
    ) -> FigureResult {
        make(request, cancel, progress, Some(self))
    }

    /// Run a checked figure on the warm backend kept for its settings, or cold.
    fn run(&self, ctx: &RunContext<'_>) -> FigureResult {
        let key = Key {
            src: ctx.valid.src.clone(),
            figures: ctx.valid.figures.clone(),
            limits: *ctx.limits,
        };
        let slot = self.slots.take();
        #[cfg(target_os = "linux")]
        let backend = self.server_for(&key);
        #[cfg(not(target_os = "linux"))]
        let backend = self.take(&key).map(|w| Backend::SingleUse(Box::new(w)));
        let result = run_on(ctx, backend.unwrap_or(Backend::Cold));
        drop(slot);
        // A process that ran code is never reused: the replacement starts now, in the
        // background. Not earlier: its warm-up would compete with this figure for the CPU.
        // (A fork server that is alive stays: the call does nothing then.)
        self.want(key);
        result
    }

    /// Make several figures, up to one per core at once (each as [`Self::submit`] makes it),
    /// calling `done(index, &result)` as each one ends. Figures not started when `cancel` is
    /// raised are not made (`None` in the returned list, in the order of `requests`).
    pub fn submit_all(
        &self,
        requests: &[FigureRequest],
        cancel: &CancelFlag,
        done: &(dyn Fn(usize, &FigureResult) + Sync),
    ) -> Vec<Option<FigureResult>> {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let next = AtomicUsize::new(0);
        let results: Mutex<Vec<Option<FigureResult>>> = Mutex::new(vec![None; requests.len()]);
        let workers = self.slots.count().min(requests.len());
        std::thread::scope(|scope| {
            for _ in 0..workers {
                scope.spawn(|| {
                    loop {
                        let index = next.fetch_add(1, Ordering::SeqCst);
                        let Some(request) = requests.get(index) else {
                            break;
                        };
                        if cancel.load(Ordering::SeqCst) {
                            break;
                        }
                        let result = self.submit(request, cancel, &|_| {});
                        done(index, &result);
                        results.lock().unwrap_or_else(|p| p.into_inner())[index] = Some(result);
                    }
                });
            }
        });
        results.into_inner().unwrap_or_else(|p| p.into_inner())
    }

    /// Whether a live warm worker has finished warming up.
    pub fn is_ready(&self) -> bool {
        let mut state = self.shared.lock();
        match state.worker.as_mut() {
            Some(w) => !w.worker.has_exited() && w.worker.is_ready(),
            None => false,
        }
    }

    /// Wait until a warm worker is ready, at most `timeout`; false if none became ready
    /// (none wanted, or it died while warming up).
    pub fn wait_ready(&self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        loop {
            if self.is_ready() {
                return true;
            }
            {
                let mut state = self.shared.lock();
                if state.wanted.is_none() {
                    return false;
                }
                if let Some(w) = state.worker.as_mut()
                    && w.worker.has_exited()
                {
                    return false;
                }
            }
            if Instant::now() >= deadline {
                return false;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// The process id of the warm worker kept now, if any (for tests and diagnostics).
    pub fn warm_pid(&self) -> Option<u32> {
        self.shared.lock().worker.as_ref().map(|w| w.worker.id())
    }

    /// Kill the warm worker and keep none until the next [`Self::prepare`] or submit.
    pub fn discard(&self) {
        let old = {
            let mut state = self.shared.lock();
            state.wanted = None;
            state.generation += 1;
            state.worker.take()
        };
        if let Some(old) = old {
            old.worker.discard();
        }
    }

    /// For a host that is exiting: kill the warm worker, start no new one (a figure still
    /// running will not warm a replacement), and wait, at most `timeout`, for spawns under
    /// way to finish and discard what they started — so no idle worker outlives the host
    /// and no run directory is left behind. Whether everything finished in time.
    pub fn shutdown(&self, timeout: Duration) -> bool {
        self.shared.lock().closed = true;
        self.discard();
        self.shared
            .wait_while(timeout, |state| state.spawns_in_flight > 0)
            .spawns_in_flight
            == 0
    }

    /// The state once a spawn of `key` under way has finished (at most [`SPAWN_WAIT`]).
    fn after_spawn_of(&self, key: &Key) -> MutexGuard<'_, State> {
        self.shared.wait_while(SPAWN_WAIT, |state| {
            state.spawning
                && state.worker.is_none()
                && state.wanted.as_ref().is_some_and(|(k, _)| k == key)
        })
    }

    /// Linux: a fresh child of the live fork server for `key`, which stays in the pool for
    /// the next figures. Waits briefly for a spawn of `key` that is under way.
    #[cfg(target_os = "linux")]
    fn server_for(&self, key: &Key) -> Option<Backend> {
        let mut state = self.after_spawn_of(key);
        let w = state.worker.as_mut()?;
        (w.key == *key && !w.worker.has_exited()).then(|| w.worker.backend())
    }

    /// The live warm worker for `key`, taken out of the pool; a worker for other settings or
    /// a dead one is discarded. Waits briefly for a spawn of `key` that is under way.
    #[cfg(not(target_os = "linux"))]
    fn take(&self, key: &Key) -> Option<WarmWorker> {
        let mut state = self.after_spawn_of(key);
        let mut taken = state.worker.take()?;
        drop(state);
        if taken.key == *key && !taken.worker.has_exited() {
            Some(taken.worker)
        } else {
            taken.worker.discard();
            None
        }
    }

    /// Make sure a warm worker for `key` is kept: a worker for other settings is discarded
    /// and a new one started in the background, unless one for `key` is there or on its way.
    fn want(&self, key: Key) {
        let (generation, stale) = {
            let mut state = self.shared.lock();
            if state.closed {
                return;
            }
            let same = state.wanted.as_ref().is_some_and(|(k, _)| *k == key);
            let alive = match state.worker.as_mut() {
                Some(w) => w.key == key && !w.worker.has_exited(),
                None => false,
            };
            if same && (alive || state.spawning) {
                return;
            }
            state.generation += 1;
            let generation = state.generation;
            state.wanted = Some((key.clone(), generation));
            state.spawning = true;
            state.spawns_in_flight += 1;
            (generation, state.worker.take())
        };
        if let Some(stale) = stale {
            stale.worker.discard();
        }
        let shared = Arc::clone(&self.shared);
        std::thread::spawn(move || {
            let started = WarmWorker::start(&key.src, &key.limits, &warm_script(&key.src))
                .map(|worker| Kept { key, worker });
            let mut state = shared.lock();
            let current = state.wanted.as_ref().is_some_and(|(_, g)| *g == generation);
            let leftover = if current {
                state.spawning = false;
                match started {
                    Ok(worker) => state.worker.replace(worker),
                    // No warm worker then: figures run cold, and the next submit tries again.
                    Err(_) => {
                        state.wanted = None;
                        None
                    }
                }
            } else {
                started.ok()
            };
            drop(state);
            if let Some(leftover) = leftover {
                leftover.worker.discard();
            }
            shared.lock().spawns_in_flight -= 1;
            shared.changed.notify_all();
        });
    }
}

impl Drop for WarmPool {
    fn drop(&mut self) {
        self.discard();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::FigureFormat;
    use crate::pipeline::running::warm::{READY_MARKER, TAKEN_MARKER};

    #[test]
    fn the_preamble_leaves_the_taken_marker_this_module_checks() {
        assert!(
            script::PREAMBLE.contains(&format!("os.path.join(run_dir, \"{TAKEN_MARKER}\")")),
            "preamble.py and TAKEN_MARKER disagree"
        );
    }

    #[test]
    fn a_pool_can_be_shared_between_threads() {
        // The window keeps it in Tauri state, the MCP server behind an Arc.
        fn shared<T: Send + Sync>() {}
        shared::<WarmPool>();
    }

    #[test]
    fn the_preamble_creates_the_ready_marker_this_module_waits_for() {
        assert!(
            script::PREAMBLE.contains(&format!("os.path.join(run_dir, \"{READY_MARKER}\")")),
            "preamble.py and READY_MARKER disagree"
        );
        assert!(
            script::FORK_SERVER.contains(&format!("os.path.join(server_dir, \"{READY_MARKER}\")")),
            "fork_server.py and READY_MARKER disagree"
        );
    }

    #[test]
    fn the_figure_request_carries_out_code_and_options() {
        let options = RunOptions {
            preview: true,
            ..RunOptions::new(FigureFormat::Png)
        };
        let sent: serde_json::Value = serde_json::from_str(&protocol::figure_request(
            Path::new("/run/out.png"),
            "a = '\u{e9}'\n",
            options,
        ))
        .unwrap();
        assert_eq!(sent["out"], "/run/out.png");
        assert_eq!(sent["code"], "a = '\u{e9}'\n");
        assert_eq!(sent["options"]["preview"], true);
        assert_eq!(sent["options"]["format"], "png");
    }
}
