//! Layer 2: the operating system's own confinement, applied by the worker to itself before
//! the interpreter starts. One file per OS behind this small interface.
//! (Interface stub — the confinement work fills this in.)

use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// What the worker may touch, decided by the parent and handed to the worker
/// (serialised as JSON in `PDFAGENT_CONFINE`).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct ConfinePlan {
    /// Read-only: the executable's folder, the runtime, system library folders, zoneinfo, SRC.
    pub read_only: Vec<PathBuf>,
    /// Read-write: the run directory only.
    pub read_write: Vec<PathBuf>,
    /// Address-space limit in bytes.
    pub memory_bytes: u64,
    /// CPU-time limit in seconds.
    pub cpu_seconds: u64,
    /// Largest file the worker may write, in bytes.
    pub file_size_bytes: u64,
}

/// What confinement actually took effect, in words a person can read
/// (e.g. "landlock ABI 7, seccomp, rlimits" or "none — kernel without Landlock").
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct ConfineReport {
    pub summary: String,
    pub fully_enforced: bool,
}

#[derive(Debug, thiserror::Error)]
pub enum ConfineError {
    #[error("could not confine the worker: {0}")]
    Failed(String),
}

/// Confine the calling process according to `plan`. Irreversible.
pub fn apply(plan: &ConfinePlan) -> Result<ConfineReport, ConfineError> {
    let _ = plan;
    Ok(ConfineReport {
        summary: "none — not implemented yet".into(),
        fully_enforced: false,
    })
}
