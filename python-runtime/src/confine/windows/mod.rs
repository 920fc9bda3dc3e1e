//! Windows: the worker runs inside an AppContainer and a Job Object.
//!
//! - **Host** (the runner, [`grant_for_run`]): creates the AppContainer profile once
//!   (`plan::PROFILE_NAME`, from the app identifier), then grants it exactly the plan's
//!   paths: read and execute on the executable, its loader DLLs and the runtime (the plan's
//!   `code`) to the container's SID
//!   (kept: the next run needs the same; skipped where `ALL APPLICATION PACKAGES` reads
//!   already, as under `Program Files`); read on `SRC` and full access plus a low mandatory
//!   label on the run directory, both to a capability of this run only, removed when the
//!   run ends (`acl.rs`; in a long-lived host, by the next run's grant of the same folder:
//!   `ended.rs`). The lasting grants are made at install time too (`grant_installation`,
//!   run by the NSIS installer's hook).
//! - **Launcher** (the first worker process, `launch.rs`): starts this executable again,
//!   suspended, in the AppContainer with that one capability and none of the network
//!   capabilities, its process, threads and default DACL closed to other workers
//!   (`objects.rs`, below), puts it in a kill-on-close job with the limits (`job.rs`),
//!   (or, when the launcher is itself inside a job that forbids breakaway, a nested job
//!   without UI restrictions: `nesting.rs`), resumes it, and waits for it, for the host to end, or for the host's stop event
//!   (`stop.rs`: a time-out or cancel ends the job and the launcher exits once the worker
//!   is gone).
//! - **Contained worker** ([`apply`]): reads back from its own token and job what holds,
//!   and reports it (`plan::describe`); a worker that is not in its AppContainer refuses
//!   to start Python.
//!
//! What this contains: files (an AppContainer token passes an access check only where the
//! object's DACL names the container, one of its capabilities or `ALL APPLICATION
//! PACKAGES` — the user's own files name none of them — and its low integrity blocks writes
//! to anything not labelled low); the network (no capability: the firewall's AppContainer
//! filters refuse every connection, loopback included); programs (the job's active-process
//! limit of 1); memory and CPU (the job's limits). Not covered: the file-size limit (no job
//! limit for it; the runner's watch on the run directory stops a run writing more than
//! 1 GiB).
//!
//! Other processes and the machine (issue 27). *Processes of the user* (the host, the
//! window): their DACL (the user's default DACL) names neither the container nor
//! `ALL APPLICATION PACKAGES`, so the AppContainer half of the access check refuses
//! `OpenProcess`/`OpenThread` on them — no handle, so no limit, memory or termination
//! there. *The clock, the host name, shutdown*: an AppContainer token is a low-integrity
//! token without `SeSystemtimePrivilege`, `SeShutdownPrivilege` or any other privilege
//! but `SeChangeNotifyPrivilege` (and the few the lowbox filter keeps), and the job's UI
//! limits refuse `ExitWindows` and system parameters. *Descriptors*: the launcher passes
//! only its three standard handles (`PROC_THREAD_ATTRIBUTE_HANDLE_LIST`).
//!
//! *Other workers* (`objects.rs`). Every worker runs in the one profile, so two at once (a
//! figure and the window's warm worker, or two hosts' figures) share its package SID, and
//! Windows puts that SID into an AppContainer process's default DACL — the DACL its threads
//! and unnamed objects get — so one worker could open another's threads (suspend, read or
//! redirect them) or objects. Same user, same integrity: the package SID was the only thing
//! between them. Closed by giving each worker's objects a DACL only its own run can
//! satisfy: SYSTEM and the user (the host and the launcher, medium-integrity processes of
//! the user, keep their access) plus **this run's capability** — the capability that
//! already carries the run's file grants, in the token from creation, derived from the
//! fresh run directory and so unique to one worker at a time (Windows has no fork server:
//! one process per run directory). An AppContainer token passes only where both halves of
//! the check pass, so the worker can still open itself by id (the user ACE for the user
//! half, its capability for the AppContainer half — `OpenProcess(GetCurrentProcessId())`,
//! as libraries do), and another worker, whose capability is another run's, cannot. `OWNER
//! RIGHTS` is limited to reading the descriptor, so the owner's implicit `WRITE_DAC` (the
//! owner is the user, whom every worker's token names) cannot be used to rewrite the DACL
//! first. Rejected: "user and SYSTEM only" (the worker could no longer open itself by id,
//! since nothing would satisfy its AppContainer half); a fresh random capability per run
//! (it would hold the same single process as the run's capability, for one more SID); a
//! profile per run (the runtime would need re-granting to a new SID every run). Where it is
//! set: the launcher passes the descriptor as `CreateProcessW`'s process and thread
//! attributes, then, while the worker is still suspended, sets it as the worker's token's
//! default DACL (`SetTokenInformation(TokenDefaultDacl)`), so the loader's first threads
//! already get it; a failure ends the run before the worker runs. The contained worker
//! reads back its process's, its thread's and its token's default DACLs, and the report
//! names any that would let another container in (`plan::open_to_other_containers`).
//!
//! Type-checked and unit-tested on Linux (`scripts/check-cross`, `plan.rs`'s tests); none
//! of it has run on Windows here. Should Windows add the package SID to the worker's
//! objects despite the descriptor, the selftest's confinement line says so ("NOT
//! enforced: other workers kept out (… lets in S-1-15-2-…)").

#[cfg(windows)]
use super::{ConfinePlan, ConfineReport, Entered};
#[cfg(windows)]
use std::path::Path;

/// What only the Windows confinement can fail at: the host's grants, the launcher's
/// AppContainer and job, the contained worker's check of its own token.
#[cfg(windows)]
#[derive(Debug, thiserror::Error)]
pub enum WindowsError {
    #[error(
        "could not hand the worker its confinement plan (a path that is not valid Unicode?): {0}"
    )]
    EncodePlan(#[source] serde_json::Error),
    #[error("could not confine the worker: the plan names no run directory to write in")]
    NoRunDir,
    #[error(
        "could not confine the worker: Windows gives the AppContainer `{profile}` the SID {given}, not the derived {derived}; the folder grants would name the wrong SID"
    )]
    ContainerSid {
        profile: &'static str,
        given: String,
        derived: String,
    },
    #[error(
        "this worker is not inside its AppContainer; it must be started by the worker launcher (a bug in PDFAgent: please report it)"
    )]
    NotContained,
    #[error("could not confine the worker: waiting for it returned {0}")]
    Wait(u32),
    #[error("could not set up the Windows job object: {step}")]
    Job {
        step: &'static str,
        #[source]
        source: std::io::Error,
    },
    #[error(
        "could not start the worker in its Windows AppContainer ({step}); the worker does not run unconfined"
    )]
    AppContainer {
        step: &'static str,
        #[source]
        source: std::io::Error,
    },
    #[error(
        "could not give the worker's sandbox {what} `{path}`; make sure your account may change the folder's permissions (it is yours, on an NTFS drive), or copy the data into such a folder"
    )]
    Grant {
        what: &'static str,
        path: std::path::PathBuf,
        #[source]
        source: std::io::Error,
    },
}

#[cfg_attr(not(windows), allow(dead_code))]
pub mod plan;

#[cfg_attr(not(windows), allow(dead_code))]
pub mod nesting;

#[cfg_attr(not(windows), allow(dead_code))]
pub mod firewall;

#[cfg_attr(not(windows), allow(dead_code))]
pub mod ended;

#[cfg(windows)]
mod acl;
#[cfg(windows)]
mod appcontainer;
#[cfg(windows)]
mod job;
#[cfg(windows)]
mod launch;
#[cfg(windows)]
mod objects;
#[cfg(windows)]
mod owned;
#[cfg(windows)]
mod stop;

#[cfg(windows)]
pub use acl::{NextRunRevokes, RunGrants, grant_for_run, grant_installation, revoke_with_next_run};
#[cfg(windows)]
pub use stop::{StopSignal, ask_to_stop};

/// The worker side: the launcher starts the contained worker and returns its exit code;
/// the contained worker (marked by the launcher, verified from its token) reports.
#[cfg(windows)]
pub(super) fn enter(
    plan: &ConfinePlan,
    script: &Path,
    host: Option<i64>,
) -> Result<Entered, WindowsError> {
    if std::env::var_os(plan::CONTAINED_ENV).is_some() {
        return apply(plan).map(Entered::Confined);
    }
    launch::run_contained(plan, script, host).map(|exit_code| Entered::Relaunched { exit_code })
}

/// The contained worker: what its token and job enforce. Fails (the worker does not start
/// Python) when it is not in the AppContainer at all.
#[cfg(windows)]
pub(super) fn apply(plan: &ConfinePlan) -> Result<ConfineReport, WindowsError> {
    let (app_container, capabilities) = appcontainer::observe_token();
    let (process_dacl, thread_dacl, default_dacl) = objects::observe();
    let observed = plan::Observed {
        app_container,
        capabilities,
        job: job::observe(),
        process_dacl,
        thread_dacl,
        default_dacl,
    };
    if observed.app_container.is_none() {
        return Err(WindowsError::NotContained);
    }
    Ok(plan::describe(&observed, plan))
}

#[cfg(windows)]
use windows_sys::Win32::Foundation::ERROR_SUCCESS;
#[cfg(windows)]
use windows_sys::Win32::Security::Authorization::{
    ConvertStringSecurityDescriptorToSecurityDescriptorW, SDDL_REVISION_1, SE_FILE_OBJECT,
    SetNamedSecurityInfoW,
};
#[cfg(windows)]
use windows_sys::Win32::Security::{
    ACL, GetSecurityDescriptorSacl, LABEL_SECURITY_INFORMATION, PSECURITY_DESCRIPTOR,
};

/// Why a folder could not be labelled low: the call that failed and the system's error.
#[cfg(windows)]
#[derive(Debug, thiserror::Error)]
pub(super) enum LabelError {
    #[error("ConvertStringSecurityDescriptorToSecurityDescriptorW: {0}")]
    Descriptor(#[source] std::io::Error),
    #[error("GetSecurityDescriptorSacl: {0}")]
    Sacl(#[source] std::io::Error),
    #[error("labelling `{}` low: {source}", path.display())]
    Label {
        path: std::path::PathBuf,
        #[source]
        source: std::io::Error,
    },
}

#[cfg(windows)]
/// Give `dir` (and, by inheritance, everything in it) a low mandatory label.
pub(super) fn label_low(dir: &Path) -> Result<(), LabelError> {
    let sddl = owned::wide(std::ffi::OsStr::new(plan::LOW_LABEL_SDDL));
    let mut descriptor: PSECURITY_DESCRIPTOR = std::ptr::null_mut();
    // SAFETY: NUL-terminated wide string; valid out-pointer, freed by `Local` below.
    let ok = unsafe {
        ConvertStringSecurityDescriptorToSecurityDescriptorW(
            sddl.as_ptr(),
            SDDL_REVISION_1,
            &mut descriptor,
            std::ptr::null_mut(),
        )
    };
    if ok == 0 {
        return Err(LabelError::Descriptor(owned::last_error()));
    }
    let mut present = 0;
    let mut defaulted = 0;
    let mut sacl: *mut ACL = std::ptr::null_mut();
    // SAFETY: `descriptor` is valid; out-pointers are valid.
    let ok =
        unsafe { GetSecurityDescriptorSacl(descriptor, &mut present, &mut sacl, &mut defaulted) };
    let result = if ok == 0 || present == 0 {
        Err(LabelError::Sacl(owned::last_error()))
    } else {
        let path = owned::wide(dir.as_os_str());
        // SAFETY: NUL-terminated path; `sacl` points into `descriptor`, alive for the call.
        let rc = unsafe {
            SetNamedSecurityInfoW(
                path.as_ptr(),
                SE_FILE_OBJECT,
                LABEL_SECURITY_INFORMATION,
                std::ptr::null_mut(),
                std::ptr::null_mut(),
                std::ptr::null(),
                sacl,
            )
        };
        if rc == ERROR_SUCCESS {
            Ok(())
        } else {
            Err(LabelError::Label {
                path: dir.to_path_buf(),
                source: std::io::Error::from_raw_os_error(rc as i32),
            })
        }
    };
    drop(owned::Local(descriptor));
    result
}
