//! The limits of one run: what every backend starts its process under and the pipeline
//! judges the run by. Here, in the process layer, because a worker is started under them;
//! the pipeline re-exports them (`pipeline::Limits`) for the front ends.

use std::time::Duration;

/// The limits of one run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Wall-clock time from spawn; the whole worker tree is killed after it.
    pub timeout: Duration,
    /// Address space of the worker.
    pub memory_bytes: u64,
    /// Largest file the worker may write (its run directory is the only place it can).
    pub file_size_bytes: u64,
    /// Largest figure accepted.
    pub figure_max_bytes: u64,
    /// Bytes kept of each of stdout and stderr (the tail).
    pub output_cap: usize,
    /// Most disk space the run directory may take (all files together).
    pub run_dir_max_bytes: u64,
}

impl Limits {
    pub const MIN_MEMORY_MIB: u64 = 512;
    pub const MAX_MEMORY_MIB: u64 = 64 * 1024;

    /// CPU seconds for the worker: a backstop behind the wall clock, set so the wall clock
    /// normally fires first even when BLAS threads burn CPU time faster than it runs.
    pub fn cpu_seconds(&self) -> u64 {
        self.timeout.as_secs().saturating_mul(2).saturating_add(10)
    }

    /// What the operating system enforces of these limits (the worker's rlimits, the
    /// Windows job's memory and CPU time).
    pub fn confine_limits(&self) -> crate::confine::Limits {
        crate::confine::Limits {
            memory_bytes: self.memory_bytes,
            cpu_seconds: self.cpu_seconds(),
            file_size_bytes: self.file_size_bytes,
            wall_clock_ms: self.kernel_timeout_ms(),
        }
    }

    /// The kernel's wall-clock limit (Linux: a SIGKILL timer the code cannot disarm), in
    /// milliseconds: the time-out plus a grace, so the host's own time-out — which says
    /// what happened in a sentence — normally ends the run first; the timer ends a worker
    /// whose host is gone (or stuck) on time anyway.
    pub fn kernel_timeout_ms(&self) -> u64 {
        let ms = u64::try_from(self.timeout.as_millis()).unwrap_or(u64::MAX);
        ms.saturating_add(KERNEL_TIMER_GRACE_MS)
    }
}

/// See [`Limits::kernel_timeout_ms`].
const KERNEL_TIMER_GRACE_MS: u64 = 2_000;

impl Default for Limits {
    fn default() -> Self {
        Limits {
            timeout: Duration::from_secs(90),
            memory_bytes: 4 << 30,
            file_size_bytes: 256 << 20,
            figure_max_bytes: 50 << 20,
            output_cap: 64 << 10,
            run_dir_max_bytes: 1 << 30,
        }
    }
}
