//! The host's way to stop a run on Windows so that it is really over when the host's wait
//! returns: it sets the launcher's stop event (`plan::stop_event_name`); the launcher ends
//! the job and waits for the contained worker before exiting. Terminating the launcher
//! outright (the fallback) also ends the worker — the job is kill-on-close — but the kernel
//! finishes that a moment after the launcher is gone, while the worker may still hold files
//! in the run directory the host is about to remove.

use super::owned::{Handle, last_error, wide};
use std::ffi::OsStr;
use std::sync::Mutex;
use windows_sys::Win32::Foundation::{ERROR_ALREADY_EXISTS, GetLastError, HANDLE};
use windows_sys::Win32::System::Threading::{
    CreateEventW, OpenEventW, SYNCHRONIZATION_SYNCHRONIZE, SetEvent,
};

/// The stop events of this host's live workers, by the launcher's process id (the runner's
/// kill path knows only the `Child`). Handles are kept as integers: a HANDLE is a pointer
/// type and not `Send`.
static LIVE: Mutex<Vec<(u32, usize)>> = Mutex::new(Vec::new());

/// One run's stop event, owned by the host; dropping it forgets and closes it.
pub struct StopSignal {
    event: Handle,
    name: String,
    pid: Option<u32>,
}

// SAFETY: an event handle may be used and closed from any thread.
unsafe impl Send for StopSignal {}

impl StopSignal {
    /// Create the event. Fails when the name exists already: someone else made it, and a
    /// signal they hold could stop our runs.
    pub fn create(name: &str) -> std::io::Result<StopSignal> {
        let wide_name = wide(OsStr::new(name));
        // SAFETY: default security (this user only), manual reset, not set, a
        // NUL-terminated name.
        let raw = unsafe { CreateEventW(std::ptr::null(), 1, 0, wide_name.as_ptr()) };
        // SAFETY: read right after the call, on the same thread.
        let existed = unsafe { GetLastError() } == ERROR_ALREADY_EXISTS;
        let event = Handle::new(raw).ok_or_else(last_error)?;
        if existed {
            return Err(std::io::Error::other(format!(
                "the event `{name}` exists already"
            )));
        }
        Ok(StopSignal {
            event,
            name: name.to_owned(),
            pid: None,
        })
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// Remember which launcher this event stops.
    pub fn register(&mut self, launcher_pid: u32) {
        self.pid = Some(launcher_pid);
        let mut live = LIVE.lock().unwrap_or_else(|p| p.into_inner());
        live.push((launcher_pid, self.event.0 as usize));
    }
}

impl Drop for StopSignal {
    fn drop(&mut self) {
        if let Some(pid) = self.pid {
            let mut live = LIVE.lock().unwrap_or_else(|p| p.into_inner());
            live.retain(|(p, _)| *p != pid);
        }
    }
}

/// Ask the launcher with this process id to stop its run. `false` when this host holds
/// no stop event for it (the caller then terminates the launcher).
pub fn ask_to_stop(launcher_pid: u32) -> bool {
    let live = LIVE.lock().unwrap_or_else(|p| p.into_inner());
    let Some((_, event)) = live.iter().find(|(p, _)| *p == launcher_pid) else {
        return false;
    };
    // SAFETY: the handle is open while its StopSignal is registered (we hold the lock that
    // its drop takes before the handle is closed).
    unsafe { SetEvent(*event as HANDLE) != 0 }
}

/// The launcher's side: the stop event named in its environment, for waiting on.
pub(super) fn open(name: &str) -> Option<Handle> {
    let wide_name = wide(OsStr::new(name));
    // SAFETY: a NUL-terminated name; a null return is handled.
    Handle::new(unsafe { OpenEventW(SYNCHRONIZATION_SYNCHRONIZE, 0, wide_name.as_ptr()) })
}
