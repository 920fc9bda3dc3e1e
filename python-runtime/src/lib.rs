//! PDFAgent's engine. Everything that can be tested without a window lives here:
//! the policy (the allowlist), the Layer-1 checker, the embedded interpreter,
//! confinement per OS, the child environment, the runner and the selftest.

pub mod check;
pub mod confine;
pub mod contract;
pub mod descriptors;
pub mod host;
pub mod install_identity;
pub mod interpreter;
pub mod locate;
pub mod pipeline;
pub mod plain_path;
pub mod policy;
pub mod selftest;
pub mod worker;
