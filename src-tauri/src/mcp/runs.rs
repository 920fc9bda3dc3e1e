//! Every confined run the server has in flight, so that a closed connection or a signal can
//! cancel all of them and wait until each worker tree is gone before the process exits.

use python_runtime::CancelFlag;
use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

#[derive(Default)]
pub struct Runs {
    inner: Mutex<Inner>,
    idle: Condvar,
}

#[derive(Default)]
struct Inner {
    next_id: u64,
    flags: HashMap<u64, CancelFlag>,
    closing: bool,
}

/// One registered run. Moved into the blocking job, so it is dropped when the worker has
/// been reaped — not when the request's future is.
pub struct RunGuard {
    runs: Arc<Runs>,
    id: u64,
    pub cancel: CancelFlag,
}

impl Runs {
    fn lock(&self) -> MutexGuard<'_, Inner> {
        // A panic while holding this lock leaves plain data behind; keep going.
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Register a new run, or `None` when the server is shutting down.
    pub fn start(self: &Arc<Self>) -> Option<RunGuard> {
        let mut inner = self.lock();
        if inner.closing {
            return None;
        }
        inner.next_id += 1;
        let id = inner.next_id;
        let cancel = CancelFlag::default();
        inner.flags.insert(id, cancel.clone());
        Some(RunGuard {
            runs: Arc::clone(self),
            id,
            cancel,
        })
    }

    /// Refuse new runs and cancel every run in flight (their workers are killed as trees).
    pub fn cancel_all(&self) {
        let mut inner = self.lock();
        inner.closing = true;
        for flag in inner.flags.values() {
            flag.store(true, Ordering::SeqCst);
        }
    }

    pub fn in_flight(&self) -> usize {
        self.lock().flags.len()
    }

    /// Wait until no run is left, at most `timeout`; whether that happened.
    pub fn wait_idle(&self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        let mut inner = self.lock();
        while !inner.flags.is_empty() {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return false;
            }
            inner = match self.idle.wait_timeout(inner, left) {
                Ok((guard, _)) => guard,
                Err(p) => p.into_inner().0,
            };
        }
        true
    }
}

impl Drop for RunGuard {
    fn drop(&mut self) {
        let mut inner = self.runs.lock();
        inner.flags.remove(&self.id);
        if inner.flags.is_empty() {
            self.runs.idle.notify_all();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cancel_all_sets_every_flag_and_refuses_new_runs() {
        let runs = Arc::new(Runs::default());
        let a = runs.start().unwrap();
        let b = runs.start().unwrap();
        assert_eq!(runs.in_flight(), 2);
        runs.cancel_all();
        assert!(a.cancel.load(Ordering::SeqCst) && b.cancel.load(Ordering::SeqCst));
        assert!(runs.start().is_none());
        let waiter = {
            let runs = Arc::clone(&runs);
            std::thread::spawn(move || runs.wait_idle(Duration::from_secs(30)))
        };
        drop(a);
        drop(b);
        assert!(waiter.join().unwrap());
        assert_eq!(runs.in_flight(), 0);
    }
}
