//! The worker side of self-dispatch: `PDFAGENT_PYRUN=<script> pdfagent` confines itself and
//! runs the script in the embedded interpreter instead of starting the app.

use crate::confine::{self, ConfinePlan};
use crate::{interpreter, locate};
use std::path::{Path, PathBuf};

/// The script to run; its presence is what makes this process a worker.
pub const ENV_PYRUN: &str = "PDFAGENT_PYRUN";
/// The JSON `ConfinePlan` the worker applies to itself before Python starts (optional).
pub const ENV_CONFINE: &str = "PDFAGENT_CONFINE";
/// The worker could not start the script at all (bad request, no runtime, confinement
/// failed) — as `env`/`nice` use 125 for "the wrapper itself failed".
pub const EXIT_WORKER_FAILED: i32 = 125;
/// The global the script finds the confinement report in (a JSON string, or `"null"`).
pub const CONFINEMENT_GLOBAL: &str = "__pdfagent_confinement__";

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
/// continues), otherwise the exit status to end the process with.
///
/// Must be the first thing `main` does, while the process has a single thread: it edits the
/// process environment.
pub fn run_if_requested() -> Option<i32> {
    let script = std::env::var_os(ENV_PYRUN)?;
    let plan = std::env::var(ENV_CONFINE).ok();
    // SAFETY: called first thing in `main`, before any other thread exists. Removing the
    // variables means nothing the script starts can re-enter the worker path.
    unsafe {
        std::env::remove_var(ENV_PYRUN);
        std::env::remove_var(ENV_CONFINE);
    }
    Some(match run(Path::new(&script), plan.as_deref()) {
        Ok(code) => code,
        Err(err) => {
            eprintln!("pdfagent worker: {err}");
            EXIT_WORKER_FAILED
        }
    })
}

fn run(script: &Path, plan: Option<&str>) -> Result<i32, Error> {
    let plan: Option<ConfinePlan> = plan
        .map(serde_json::from_str)
        .transpose()
        .map_err(Error::BadPlan)?;
    // Found before confinement: the locator may have to look at folders the plan leaves out.
    let runtime = locate::runtime_dir()?;
    let executable = std::env::current_exe().map_err(locate::Error::CurrentExe)?;
    if !script.is_file() {
        return Err(Error::NoScript(script.to_path_buf()));
    }
    let report = plan.as_ref().map(confine::apply).transpose()?;
    let report = serde_json::to_string(&report).unwrap_or_else(|_| "null".into());
    Ok(interpreter::run_script(
        &runtime,
        &executable,
        script,
        &[(CONFINEMENT_GLOBAL, report.as_str())],
    )?)
}
