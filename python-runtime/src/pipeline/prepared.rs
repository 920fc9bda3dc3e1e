//! Layer-2 test support: a worker run prepared exactly as [`super::make_figure`] prepares
//! it — the same worker script (preamble + code), the same confinement plan, the same
//! environment — but neither checked nor started.
//!
//! The black-box security suites use it (through the hidden `pdfagent internal-prepare-run`)
//! to start the real executable in worker mode themselves, so Layer 2 is tested on its own
//! without any switch that turns Layer 1 off: preparing runs nothing, and starting a worker
//! takes a shell that can set `PDFAGENT_PYRUN` — from which any program could be run anyway.
//! No window, MCP or `make-figure` path reaches this module.

use super::{Limits, confine_plan, script};
use crate::runner::{self, WorkerRequest};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A worker ready to start: run `env -i <env> <current_exe>` in the run directory.
#[derive(Debug, Clone, serde::Serialize)]
pub struct PreparedRun {
    pub run_dir: PathBuf,
    pub script: PathBuf,
    /// The code's `OUT`.
    pub out: PathBuf,
    /// The worker's complete environment, `PDFAGENT_PYRUN` and `PDFAGENT_CONFINE` included.
    pub env: BTreeMap<String, String>,
}

/// Prepare `code` (unchecked) to run with `src` as `SRC` in the existing folder `run_dir`.
pub fn prepare_unchecked_run(
    src: &Path,
    run_dir: &Path,
    code: &str,
    limits: &Limits,
) -> Result<PreparedRun, String> {
    let canonical = |p: &Path| {
        p.canonicalize()
            .map_err(|e| format!("`{}` is not an existing folder: {e}", p.display()))
    };
    let src = canonical(src)?;
    let run_dir = canonical(run_dir)?;
    let out = run_dir.join(script::OUT_NAME);
    let script_path = run_dir.join(script::SCRIPT_NAME);
    let options = script::RunOptions::new(super::FigureFormat::Png);
    std::fs::write(&script_path, script::render(&src, &out, code, options))
        .map_err(|e| format!("could not write `{}`: {e}", script_path.display()))?;
    let request = WorkerRequest {
        script: script_path.clone(),
        run_dir: run_dir.clone(),
        confine: confine_plan(&src, &run_dir, limits)?,
        timeout: limits.timeout,
        output_cap: limits.output_cap,
    };
    let runtime = crate::locate::runtime_dir().map_err(|e| e.to_string())?;
    runner::prepare_run_dir(&run_dir, Some(&runtime)).map_err(|e| e.to_string())?;
    let env = runner::worker_env(&request).map_err(|e| e.to_string())?;
    Ok(PreparedRun {
        run_dir,
        script: script_path,
        out,
        env,
    })
}
