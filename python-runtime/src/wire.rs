//! The names the host and a worker agree on: the environment variables a host starts a
//! worker with, the exit statuses a worker ends with, and the globals the worker's script
//! finds. A leaf: it imports nothing, so the runner, the worker and the confinement (whose
//! Windows launcher passes the variables on and ends with the statuses) all name the same
//! constants without importing each other.

/// The script to run; its presence is what makes this process a worker.
pub const ENV_PYRUN: &str = "PDFAGENT_PYRUN";
/// The JSON `ConfinePlan` the worker applies to itself before Python starts (optional).
pub const ENV_CONFINE: &str = "PDFAGENT_CONFINE";
/// The process id of the host that started the worker (the runner sets it): the worker ends
/// when that process is gone (see `worker::end_with_host`).
pub const ENV_HOST: &str = "PDFAGENT_HOST";

/// The worker could not start the script at all (bad request, no runtime, confinement
/// failed) — as `env`/`nice` use 125 for "the wrapper itself failed".
pub const EXIT_WORKER_FAILED: i32 = 125;
/// The status a worker ends with when the process that started it has gone.
pub const EXIT_HOST_GONE: i32 = 124;

/// The global the script finds the confinement report in (a JSON string, or `"null"`).
pub const CONFINEMENT_GLOBAL: &str = "__pdfagent_confinement__";
/// The global the fork server's script calls in each child it forks, before anything else
/// happens there: `confine_child(plan_json, server_pid) -> report_json`.
pub const CONFINE_CHILD_FUNCTION: &str = "__pdfagent_confine_child__";
/// The global a fork server's child calls when its figure starts, before the figure's code
/// runs: `arm_wall_clock("", 0) -> description`. Arms the kernel timer that kills the child
/// at its figure's time-out and locks the timer calls away (`confine::arm_wall_clock`).
pub const ARM_WALL_CLOCK_FUNCTION: &str = "__pdfagent_arm_wall_clock__";
