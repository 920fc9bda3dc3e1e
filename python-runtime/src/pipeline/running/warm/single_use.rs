//! The warm worker outside Linux (no stackable confinement for a forked child): one worker
//! started and confined exactly like a cold one, warmed up and blocked reading its code from
//! stdin. It runs one figure and exits; the pool starts the next one. On Windows it goes
//! through the same launcher as a cold worker, so a host inside a job (Task Scheduler, SSH)
//! gets the same placement: out of that job when allowed, else a nested job without UI
//! limits (`confine/windows/nesting.rs`).

use super::{READY_MARKER, WARM_MARKER, took_code};
use crate::pipeline::running::job::{JobError, WorkerJob};
use crate::pipeline::running::limits::Limits;
use crate::pipeline::running::run_dir::RunDir;
use crate::pipeline::running::runner::{SpawnedWorker, Watch};
use crate::pipeline::running::{FigureRun, FinishedRun, Step};
use std::path::Path;

/// One started warm worker and the run directory it owns.
pub(crate) struct WarmWorker {
    worker: SpawnedWorker,
    run: RunDir,
}

impl WarmWorker {
    /// Start a warm worker confined to `src` under `limits`, running `script` (the
    /// pipeline's `script::render_warm`).
    pub(crate) fn start(src: &Path, limits: &Limits, script: &str) -> Result<WarmWorker, JobError> {
        let job = WorkerJob::new(Some(src), limits)?;
        job.write_script(script)?;
        job.write_file(WARM_MARKER, "")?;
        let worker = job.spawn_waiting()?;
        Ok(WarmWorker {
            worker,
            run: job.into_run_dir(),
        })
    }

    pub(crate) fn is_ready(&self) -> bool {
        self.run.path().join(READY_MARKER).is_file()
    }

    pub(crate) fn has_exited(&mut self) -> bool {
        self.worker.has_exited()
    }

    pub(crate) fn id(&self) -> u32 {
        self.worker.id()
    }

    /// Kill the worker's process group; its run directory goes when `self` is dropped.
    pub(crate) fn discard(self) {
        self.worker.discard();
    }

    /// Send the figure to the worker and see the run through, exactly as a cold run ends
    /// (disk watch, time-out, cancel). `None` when the worker was gone before it took the
    /// code: then the figure runs cold.
    pub(crate) fn run(mut self, figure: &FigureRun<'_>) -> Option<FinishedRun> {
        (figure.progress)(Step::Starting);
        let out = self.run.path().join(figure.out_name);
        let payload = figure.text.request(&out);
        if self.worker.send_code(payload.as_bytes()).is_err() {
            // The code never reached a live worker: cold, as if no worker were kept.
            self.discard();
            return None;
        }
        (figure.progress)(Step::Running);
        let WarmWorker { worker, run } = self;
        let (outcome, over_cap) = worker.finish(&Watch {
            started: figure.started,
            timeout: figure.limits.timeout,
            cancel: figure.cancel,
            disk: Some((run.path(), figure.limits.run_dir_max_bytes)),
        });
        if !took_code(run.path(), &outcome.exit) {
            return None;
        }
        Some(FinishedRun {
            outcome: Ok(outcome),
            over_cap,
            out,
            run,
        })
    }
}
