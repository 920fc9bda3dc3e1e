//! The warm worker outside Linux (no stackable confinement for a forked child): one worker
//! started and confined exactly like a cold one, warmed up and blocked reading its code from
//! stdin. It runs one figure and exits; the pool starts the next one. On Windows it goes
//! through the same launcher as a cold worker, so a host inside a job (Task Scheduler, SSH)
//! gets the same placement: out of that job when allowed, else a nested job without UI
//! limits (`confine/windows/nesting.rs`).

use super::{Key, READY_MARKER, WARM_MARKER, took_code};
use crate::pipeline::running::RunContext;
use crate::pipeline::running::job::{JobError, WorkerJob};
use crate::pipeline::running::protocol;
use crate::pipeline::running::run_dir::RunDir;
use crate::pipeline::running::runner::{SpawnedWorker, Watch};
use crate::pipeline::{FigureResult, Stage, collect, run_checked, script};

/// One started warm worker and the run directory it owns.
pub(super) struct WarmWorker {
    pub(super) key: Key,
    worker: SpawnedWorker,
    run: RunDir,
}

impl WarmWorker {
    pub(super) fn start(key: &Key) -> Result<WarmWorker, JobError> {
        let job = WorkerJob::new(Some(&key.src), &key.limits)?;
        job.write_script(&script::render_warm(&key.src))?;
        job.write_file(WARM_MARKER, "")?;
        let worker = job.spawn_waiting()?;
        Ok(WarmWorker {
            key: key.clone(),
            worker,
            run: job.into_run_dir(),
        })
    }

    pub(super) fn is_ready(&self) -> bool {
        self.run.path().join(READY_MARKER).is_file()
    }

    pub(super) fn has_exited(&mut self) -> bool {
        self.worker.has_exited()
    }

    pub(super) fn id(&self) -> u32 {
        self.worker.id()
    }

    /// Kill the worker's process group; its run directory goes when `self` is dropped.
    pub(super) fn discard(self) {
        self.worker.discard();
    }

    /// Send the checked code to the worker and see the run through, exactly as a cold run
    /// ends (disk watch, time-out, cancel, judging, saving). If the worker is gone before it
    /// took the code, the figure runs cold instead.
    pub(super) fn run(mut self, ctx: &RunContext<'_>) -> FigureResult {
        (ctx.progress)(Stage::Starting);
        let out = self.run.path().join(ctx.valid.format.out_name());
        let payload = protocol::figure_request(&out, &ctx.source.0, ctx.valid.run_options());
        if self.worker.send_code(payload.as_bytes()).is_err() {
            // The code never reached a live worker: cold, as if no worker were kept.
            self.discard();
            return run_checked(ctx);
        }
        (ctx.progress)(Stage::Running);
        let WarmWorker { worker, run, .. } = self;
        let (outcome, over_cap) = worker.finish(&Watch {
            started: ctx.started,
            timeout: ctx.limits.timeout,
            cancel: ctx.cancel,
            disk: Some((run.path(), ctx.limits.run_dir_max_bytes)),
        });
        if !took_code(run.path(), &outcome.exit) {
            drop(run);
            return run_checked(ctx);
        }
        collect(ctx, &out, (Ok(outcome), over_cap), run)
    }
}
