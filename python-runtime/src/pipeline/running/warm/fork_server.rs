//! The warm worker on Linux: the pool's fork server (`running/fork_server`), shared by the
//! figures running on it, each in a fresh child. A discarded server lives until the last of
//! its figures has ended.

use super::Key;
use crate::pipeline::running::fork_server::ForkServer;
use crate::pipeline::running::job::JobError;
use std::sync::Arc;

/// The fork server kept for `key`.
pub(super) struct WarmWorker {
    pub(super) key: Key,
    pub(super) server: Arc<ForkServer>,
}

impl WarmWorker {
    pub(super) fn start(key: &Key) -> Result<WarmWorker, JobError> {
        let server = ForkServer::start(&key.src, &key.limits)?;
        Ok(WarmWorker {
            key: key.clone(),
            server: Arc::new(server),
        })
    }

    pub(super) fn is_ready(&self) -> bool {
        self.server.is_ready()
    }

    pub(super) fn has_exited(&mut self) -> bool {
        self.server.has_exited()
    }

    pub(super) fn id(&self) -> u32 {
        self.server.id()
    }

    /// Let go of the server: it ends when no figure uses it any more.
    pub(super) fn discard(self) {}
}
