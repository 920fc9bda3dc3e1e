//! The cold backend: a worker started for one figure in a fresh run directory, with the
//! whole script (preamble and code) written before it starts.

use super::job::{JobError, WorkerJob};
use super::{FigureRun, FinishedRun, Step};

/// Set the run up, start the worker and watch it to its end (time limit, cancel, the run
/// directory's size).
pub(super) fn run(figure: &FigureRun<'_>) -> Result<FinishedRun, JobError> {
    (figure.progress)(Step::Starting);
    let job = WorkerJob::new(Some(figure.src), figure.limits)?;
    let out = job.path().join(figure.out_name);
    job.write_script(&figure.text.script(&out))?;
    (figure.progress)(Step::Running);
    let (outcome, over_cap) = job.run_watching_disk(figure.cancel, figure.limits.run_dir_max_bytes);
    Ok(FinishedRun {
        outcome,
        over_cap,
        out,
        run: job.into_run_dir(),
    })
}
