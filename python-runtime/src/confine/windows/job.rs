//! The Job Object the launcher puts the contained worker in while it is still suspended,
//! and what the worker reads back about its own job.
//!
//! `KILL_ON_JOB_CLOSE`: the launcher holds the only handle, so the worker dies with the
//! launcher however the launcher ends (its own exit, the runner's time-out kill, its host
//! gone). `ACTIVE_PROCESS_LIMIT = 1`: the worker itself, so `CreateProcess` fails and no
//! program can be started. A per-process memory (committed bytes) and user-mode CPU-time
//! limit. `DIE_ON_UNHANDLED_EXCEPTION`: no error dialog waits for a click. Every UI
//! restriction (no clipboard, desktop switch, global atoms, other processes' windows,
//! system parameters, logoff) — unless the worker's job is nested in the launcher's (see
//! `nesting.rs`: a nested job may not have them). The worker cannot lift any of it: changing a job needs
//! `JOB_OBJECT_SET_ATTRIBUTES` on a handle to it, and it has none.

use super::WindowsError;
use super::nesting;
use super::owned::{Handle, last_error};
use super::plan::JobFacts;
use crate::confine::ConfinePlan;
use std::ffi::c_void;
use windows_sys::Win32::Foundation::HANDLE;
use windows_sys::Win32::System::JobObjects::{
    AssignProcessToJobObject, CreateJobObjectW, IsProcessInJob, JOB_OBJECT_LIMIT_ACTIVE_PROCESS,
    JOB_OBJECT_LIMIT_DIE_ON_UNHANDLED_EXCEPTION, JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE,
    JOB_OBJECT_LIMIT_PROCESS_MEMORY, JOB_OBJECT_LIMIT_PROCESS_TIME, JOB_OBJECT_UILIMIT_DESKTOP,
    JOB_OBJECT_UILIMIT_DISPLAYSETTINGS, JOB_OBJECT_UILIMIT_EXITWINDOWS,
    JOB_OBJECT_UILIMIT_GLOBALATOMS, JOB_OBJECT_UILIMIT_HANDLES, JOB_OBJECT_UILIMIT_READCLIPBOARD,
    JOB_OBJECT_UILIMIT_SYSTEMPARAMETERS, JOB_OBJECT_UILIMIT_WRITECLIPBOARD,
    JOBOBJECT_BASIC_UI_RESTRICTIONS, JOBOBJECT_EXTENDED_LIMIT_INFORMATION,
    JobObjectBasicUIRestrictions, JobObjectExtendedLimitInformation, QueryInformationJobObject,
    SetInformationJobObject, TerminateJobObject,
};
use windows_sys::Win32::System::Threading::GetCurrentProcess;

/// 100-nanosecond ticks per second (the unit of the job's CPU-time limit).
const TICKS_PER_SECOND: u64 = 10_000_000;

fn job_error(step: &'static str) -> WindowsError {
    WindowsError::Job {
        step,
        source: last_error(),
    }
}

// The report's names (`nesting::UI_LIMITS`) cover exactly the restrictions set here.
const _: () = assert!(
    nesting::all_ui_limits()
        == JOB_OBJECT_UILIMIT_DESKTOP
            | JOB_OBJECT_UILIMIT_DISPLAYSETTINGS
            | JOB_OBJECT_UILIMIT_EXITWINDOWS
            | JOB_OBJECT_UILIMIT_GLOBALATOMS
            | JOB_OBJECT_UILIMIT_HANDLES
            | JOB_OBJECT_UILIMIT_READCLIPBOARD
            | JOB_OBJECT_UILIMIT_SYSTEMPARAMETERS
            | JOB_OBJECT_UILIMIT_WRITECLIPBOARD
);

/// Whether this process (the launcher) runs inside a job; when that cannot be told, the
/// careful answer is yes (the launcher then tries breakaway first and falls back).
pub(super) fn launcher_in_job() -> bool {
    let mut in_job = 0;
    // SAFETY: pseudo-handle for this process; a null job handle asks about any job.
    let ok = unsafe { IsProcessInJob(GetCurrentProcess(), std::ptr::null_mut(), &mut in_job) };
    ok == 0 || in_job != 0
}

/// A job with the plan's limits; closing it (drop) kills whatever is in it.
pub(super) struct Job(Handle);

impl Job {
    /// `ui_restrictions`: false for a job that will be nested in the launcher's
    /// (`nesting::attempts`).
    pub(super) fn create(plan: &ConfinePlan, ui_restrictions: bool) -> Result<Job, WindowsError> {
        // SAFETY: null attributes and name create an anonymous job with default security.
        let raw = unsafe { CreateJobObjectW(std::ptr::null(), std::ptr::null()) };
        let job = Handle::new(raw).ok_or_else(|| job_error("CreateJobObjectW"))?;
        // SAFETY: an all-zero JOBOBJECT_EXTENDED_LIMIT_INFORMATION is a valid "no limits" value.
        let mut limits: JOBOBJECT_EXTENDED_LIMIT_INFORMATION = unsafe { std::mem::zeroed() };
        let basic = &mut limits.BasicLimitInformation;
        basic.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
            | JOB_OBJECT_LIMIT_ACTIVE_PROCESS
            | JOB_OBJECT_LIMIT_PROCESS_MEMORY
            | JOB_OBJECT_LIMIT_PROCESS_TIME
            | JOB_OBJECT_LIMIT_DIE_ON_UNHANDLED_EXCEPTION;
        basic.ActiveProcessLimit = 1;
        basic.PerProcessUserTimeLimit =
            i64::try_from(plan.cpu_seconds.saturating_mul(TICKS_PER_SECOND)).unwrap_or(i64::MAX);
        limits.ProcessMemoryLimit = usize::try_from(plan.memory_bytes).unwrap_or(usize::MAX);
        // SAFETY: `limits` is a valid struct of the size passed, alive for the call.
        let ok = unsafe {
            SetInformationJobObject(
                job.0,
                JobObjectExtendedLimitInformation,
                (&raw const limits).cast::<c_void>(),
                size_of::<JOBOBJECT_EXTENDED_LIMIT_INFORMATION>() as u32,
            )
        };
        if ok == 0 {
            return Err(job_error("SetInformationJobObject (limits)"));
        }
        if !ui_restrictions {
            return Ok(Job(job));
        }
        let ui = JOBOBJECT_BASIC_UI_RESTRICTIONS {
            UIRestrictionsClass: nesting::all_ui_limits(),
        };
        // SAFETY: as above.
        let ok = unsafe {
            SetInformationJobObject(
                job.0,
                JobObjectBasicUIRestrictions,
                (&raw const ui).cast::<c_void>(),
                size_of::<JOBOBJECT_BASIC_UI_RESTRICTIONS>() as u32,
            )
        };
        if ok == 0 {
            return Err(job_error("SetInformationJobObject (UI restrictions)"));
        }
        Ok(Job(job))
    }

    /// Put a (suspended) process into the job, before any of its code runs.
    pub(super) fn assign(&self, process: HANDLE) -> Result<(), WindowsError> {
        // SAFETY: both handles are live for the call.
        if unsafe { AssignProcessToJobObject(self.0.0, process) } == 0 {
            return Err(job_error("AssignProcessToJobObject"));
        }
        Ok(())
    }

    /// Kill everything in the job now.
    pub(super) fn terminate(&self, exit_code: u32) {
        // SAFETY: a live job handle.
        unsafe { TerminateJobObject(self.0.0, exit_code) };
    }
}

/// The limits of the job this process is in (the innermost one), as the kernel reports them.
pub(super) fn observe() -> Option<JobFacts> {
    let mut in_job = 0;
    // SAFETY: pseudo-handle for this process; a null job handle asks about any job.
    let ok = unsafe { IsProcessInJob(GetCurrentProcess(), std::ptr::null_mut(), &mut in_job) };
    if ok == 0 || in_job == 0 {
        return None;
    }
    // SAFETY: all-zero is a valid value of this plain-data struct.
    let mut limits: JOBOBJECT_EXTENDED_LIMIT_INFORMATION = unsafe { std::mem::zeroed() };
    // SAFETY: a null job handle queries the calling process's own (innermost) job; the
    // buffer has the size passed.
    let ok = unsafe {
        QueryInformationJobObject(
            std::ptr::null_mut(),
            JobObjectExtendedLimitInformation,
            (&raw mut limits).cast::<c_void>(),
            size_of::<JOBOBJECT_EXTENDED_LIMIT_INFORMATION>() as u32,
            std::ptr::null_mut(),
        )
    };
    if ok == 0 {
        return None;
    }
    let mut ui = JOBOBJECT_BASIC_UI_RESTRICTIONS {
        UIRestrictionsClass: 0,
    };
    // SAFETY: as above; the buffer has the size passed.
    let ui_ok = unsafe {
        QueryInformationJobObject(
            std::ptr::null_mut(),
            JobObjectBasicUIRestrictions,
            (&raw mut ui).cast::<c_void>(),
            size_of::<JOBOBJECT_BASIC_UI_RESTRICTIONS>() as u32,
            std::ptr::null_mut(),
        )
    };
    let basic = &limits.BasicLimitInformation;
    let flags = basic.LimitFlags;
    Some(JobFacts {
        ui_restrictions: (ui_ok != 0).then_some(ui.UIRestrictionsClass),
        kill_on_close: flags & JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE != 0,
        active_process_limit: (flags & JOB_OBJECT_LIMIT_ACTIVE_PROCESS != 0)
            .then_some(basic.ActiveProcessLimit),
        memory_bytes: (flags & JOB_OBJECT_LIMIT_PROCESS_MEMORY != 0)
            .then_some(limits.ProcessMemoryLimit as u64),
        cpu_seconds: (flags & JOB_OBJECT_LIMIT_PROCESS_TIME != 0)
            .then(|| u64::try_from(basic.PerProcessUserTimeLimit).unwrap_or(0) / TICKS_PER_SECOND),
    })
}
