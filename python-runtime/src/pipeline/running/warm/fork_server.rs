//! The warm process on Linux: a fork server (`running/fork_server`), shared by the figures
//! running on it, each in a fresh child. A discarded server lives until the last of its
//! figures has ended.

use crate::pipeline::running::Backend;
use crate::pipeline::running::fork_server::ForkServer;
use crate::pipeline::running::job::JobError;
use crate::pipeline::running::limits::Limits;
use std::path::Path;
use std::sync::Arc;

/// A started fork server.
pub(crate) struct WarmWorker {
    server: Arc<ForkServer>,
}

impl WarmWorker {
    /// Start a fork server confined to `src` under `limits`, running `script` (the
    /// pipeline's `script::render_fork_server`).
    pub(crate) fn start(src: &Path, limits: &Limits, script: &str) -> Result<WarmWorker, JobError> {
        let server = ForkServer::start(src, limits, script)?;
        Ok(WarmWorker {
            server: Arc::new(server),
        })
    }

    pub(crate) fn is_ready(&self) -> bool {
        self.server.is_ready()
    }

    pub(crate) fn has_exited(&mut self) -> bool {
        self.server.has_exited()
    }

    pub(crate) fn id(&self) -> u32 {
        self.server.id()
    }

    /// The backend that runs one figure in a fresh child; the server stays for the next.
    pub(crate) fn backend(&self) -> Backend {
        Backend::ForkServer(Arc::clone(&self.server))
    }

    /// Let go of the server: it ends when no figure uses it any more.
    pub(crate) fn discard(self) {}
}
