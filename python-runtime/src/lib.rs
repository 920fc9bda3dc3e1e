//! PDFAgent's engine. Everything that can be tested without a window lives here:
//! the policy (the allowlist), the Layer-1 checker, the embedded interpreter,
//! confinement per OS, the child environment, the runner and the selftest.
//!
//! The front ends (the window, the command line, the MCP server) see only what this file
//! re-exports: the modules are private, so a move inside the engine changes a line here,
//! not the front ends. `contract` (the JSON every front end shows), `selftest` (its report)
//! and `host` (what every host does when it starts) are public as they are. What only
//! tests use is behind the `test-support` feature (`test_support`), which the test crates
//! turn on.

mod check;
mod confine;
pub mod contract;
mod descriptors;
pub mod host;
mod install_identity;
mod interpreter;
mod locate;
mod pipeline;
mod plain_path;
mod policy;
pub mod selftest;
mod wire;
mod worker;

// Every host, first thing: the worker's entry, then the host's start (`host::init`).
pub use worker::run_if_requested;

// The running executable's path, asked of the system in this one place.
pub use locate::running_executable;

// Layer 1: the check, its policy and its answers.
pub use check::hint::render as render_hint;
pub use check::{Advice, Diagnostic, Rejection, RuleId, check};
pub use policy::Policy;

// Making figures: one request through the pipeline (cold) or the warm pool.
pub use pipeline::running::sweep_left_behind;
pub use pipeline::script::py_str_literal;
pub use pipeline::{
    CancelFlag, Captured, FigureFormat, FigureReport, FigureRequest, FigureResult, KeptFigureError,
    Limits, Outcome, OutputError, SavedFigure, Stage, WarmPool, make_figure, read_kept_figure,
    tail_chars,
};
pub use pipeline::{answer, prepared, progress, validate};

// The data folder (listing, inspection) and the figures folder (what is kept there).
pub use pipeline::data::{inspect, listing};
pub use pipeline::figures::{capture, default_folder, names, provenance, report, versions};

// Layer 2, as the front ends see it.
pub use confine::ConfineReport;
#[cfg(windows)]
pub use confine::windows::grant_installation;

/// What only tests reach: the confinement applied by hand, the fork server's wire and the
/// rule table. Off in the shipped builds; the test crates turn it on.
#[cfg(feature = "test-support")]
pub mod test_support {
    pub use crate::check::rules;
    pub use crate::confine::{ConfinePlan, Limits as ConfineLimits, apply};
    pub use crate::locate::runtime_dir;
    #[cfg(target_os = "linux")]
    pub use crate::pipeline::running::protocol::{ForkRequest, HostMessage, ServerReply};
    pub use crate::pipeline::running::warm::TAKEN_MARKER;
    pub use crate::pipeline::script::FORK_SERVER;
    pub use crate::wire::ENV_CONFINE;
}
