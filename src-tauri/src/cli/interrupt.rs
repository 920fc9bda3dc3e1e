//! Ctrl-C and SIGTERM cancel a running worker instead of orphaning it: the worker runs in
//! its own process group, so the terminal's interrupt does not reach it directly.

use python_runtime::CancelFlag;
use std::sync::OnceLock;
use std::sync::atomic::Ordering;

static FLAG: OnceLock<CancelFlag> = OnceLock::new();

/// From now on, SIGINT and SIGTERM set `cancel` (the runner then kills the worker tree and
/// the command returns its result normally).
pub fn cancel_on_interrupt(cancel: &CancelFlag) {
    if FLAG.set(cancel.clone()).is_err() {
        return;
    }
    #[cfg(unix)]
    {
        extern "C" fn on_signal(_sig: libc::c_int) {
            // Only an atomic store: async-signal-safe.
            if let Some(flag) = FLAG.get() {
                flag.store(true, Ordering::SeqCst);
            }
        }
        let handler: extern "C" fn(libc::c_int) = on_signal;
        for sig in [libc::SIGINT, libc::SIGTERM] {
            // SAFETY: installing a handler that only performs an atomic store.
            unsafe {
                libc::signal(sig, handler as libc::sighandler_t);
            }
        }
    }
    #[cfg(not(unix))]
    let _ = Ordering::SeqCst;
}
