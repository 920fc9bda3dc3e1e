//! Windows: the worker joins a new Job Object of its own, then drops to low integrity.
//!
//! **Why the worker assigns itself** rather than the parent assigning it between
//! `CREATE_SUSPENDED` and `ResumeThread`: the worker runs this before the interpreter starts,
//! so no untrusted code runs outside the job either way, and it keeps the runner's spawn
//! code the same on every OS. A process may join a job at any time and nested jobs are
//! allowed since Windows 8; once in a job a process cannot leave it, and the limits below
//! cannot be lifted from inside (changing them needs `JOB_OBJECT_SET_ATTRIBUTES` on the job
//! handle, and closing the only handle kills the job because of `KILL_ON_JOB_CLOSE`).
//!
//! The job: `KILL_ON_JOB_CLOSE` (the handle is kept open for the process's life, so the job
//! ends with the worker and nothing outlives it), `ACTIVE_PROCESS_LIMIT = 1` (the worker
//! itself: `CreateProcess` fails, no program can be started), a per-process memory limit,
//! a per-process CPU-time limit, `DIE_ON_UNHANDLED_EXCEPTION` (no error dialog waits for a
//! click) and every UI restriction (no clipboard, desktop, global atoms, other processes'
//! windows, system parameters, logoff).
//!
//! **Low integrity.** The run directories get a low mandatory label first (so they stay
//! writable), then the process token is lowered to low integrity: mandatory integrity
//! control then denies writes to everything else the user owns (medium-integrity files),
//! and to other processes. Best effort: on a volume without ACLs (FAT, some network shares)
//! labelling fails, the token stays at medium integrity and the report says so.
//!
//! **Not covered on Windows** (reported in `missing`): reading files outside `SRC` (low
//! integrity blocks write-up, not read-up) and the network. Both need an AppContainer, which
//! the *parent* must set up at `CreateProcess` time (`PROC_THREAD_ATTRIBUTE_SECURITY_CAPABILITIES`,
//! plus ACLs granting the container SID read access to the runtime and `SRC`) — a runner
//! change, left for a follow-up. Compiled with `cargo check --target x86_64-pc-windows-msvc`;
//! not exercised on the Linux build machine.

use super::{ConfineError, ConfinePlan, ConfineReport};
use std::ffi::c_void;
use std::os::windows::ffi::OsStrExt;
use std::path::Path;
use windows_sys::Win32::Foundation::{CloseHandle, ERROR_SUCCESS, HANDLE, LocalFree};
use windows_sys::Win32::Security::Authorization::{
    ConvertStringSecurityDescriptorToSecurityDescriptorW, ConvertStringSidToSidW, SDDL_REVISION_1,
    SE_FILE_OBJECT, SetNamedSecurityInfoW,
};
use windows_sys::Win32::Security::{
    ACL, GetLengthSid, GetSecurityDescriptorSacl, LABEL_SECURITY_INFORMATION, PSECURITY_DESCRIPTOR,
    PSID, SID_AND_ATTRIBUTES, SetTokenInformation, TOKEN_ADJUST_DEFAULT, TOKEN_MANDATORY_LABEL,
    TOKEN_QUERY, TokenIntegrityLevel,
};
use windows_sys::Win32::System::JobObjects::{
    AssignProcessToJobObject, CreateJobObjectW, JOB_OBJECT_LIMIT_ACTIVE_PROCESS,
    JOB_OBJECT_LIMIT_DIE_ON_UNHANDLED_EXCEPTION, JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE,
    JOB_OBJECT_LIMIT_PROCESS_MEMORY, JOB_OBJECT_LIMIT_PROCESS_TIME, JOB_OBJECT_UILIMIT_DESKTOP,
    JOB_OBJECT_UILIMIT_DISPLAYSETTINGS, JOB_OBJECT_UILIMIT_EXITWINDOWS,
    JOB_OBJECT_UILIMIT_GLOBALATOMS, JOB_OBJECT_UILIMIT_HANDLES, JOB_OBJECT_UILIMIT_READCLIPBOARD,
    JOB_OBJECT_UILIMIT_SYSTEMPARAMETERS, JOB_OBJECT_UILIMIT_WRITECLIPBOARD,
    JOBOBJECT_BASIC_UI_RESTRICTIONS, JOBOBJECT_EXTENDED_LIMIT_INFORMATION,
    JobObjectBasicUIRestrictions, JobObjectExtendedLimitInformation, SetInformationJobObject,
};
use windows_sys::Win32::System::Threading::{GetCurrentProcess, OpenProcessToken};

/// winnt.h; not worth a windows-sys feature for one constant.
const SE_GROUP_INTEGRITY: u32 = 0x20;
/// The low mandatory level SID.
const LOW_INTEGRITY_SID: &str = "S-1-16-4096";
/// A SACL holding one low mandatory label, no-write-up, inherited by files and folders.
const LOW_LABEL_SDDL: &str = "S:(ML;OICI;NW;;;LW)";

pub(super) fn apply(plan: &ConfinePlan) -> Result<ConfineReport, ConfineError> {
    join_new_job(plan)?;
    let mut enforced = vec![format!(
        "job object (no child processes, memory {} MiB, cpu {} s, UI restricted, killed with the worker)",
        plan.memory_bytes >> 20,
        plan.cpu_seconds
    )];
    let mut missing = vec![
        "reads outside SRC (needs an AppContainer set up by the parent)".to_owned(),
        "network (needs an AppContainer set up by the parent)".to_owned(),
        format!(
            "file-size limit ({} MiB not enforceable by a job object)",
            plan.file_size_bytes >> 20
        ),
    ];
    match lower_integrity(&plan.read_write) {
        Ok(()) => enforced.push("low integrity (no writes outside the run directory)".into()),
        Err(why) => missing.push(format!("low integrity ({why})")),
    }
    Ok(ConfineReport::new(enforced, missing, None))
}

fn job_error(step: &'static str) -> ConfineError {
    ConfineError::Job {
        step,
        source: std::io::Error::last_os_error(),
    }
}

fn join_new_job(plan: &ConfinePlan) -> Result<(), ConfineError> {
    // SAFETY: null attributes and name create an anonymous job with default security.
    let job: HANDLE = unsafe { CreateJobObjectW(std::ptr::null(), std::ptr::null()) };
    if job.is_null() {
        return Err(job_error("CreateJobObjectW"));
    }
    // SAFETY: an all-zero JOBOBJECT_EXTENDED_LIMIT_INFORMATION is a valid "no limits" value.
    let mut limits: JOBOBJECT_EXTENDED_LIMIT_INFORMATION = unsafe { std::mem::zeroed() };
    let basic = &mut limits.BasicLimitInformation;
    basic.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
        | JOB_OBJECT_LIMIT_ACTIVE_PROCESS
        | JOB_OBJECT_LIMIT_PROCESS_MEMORY
        | JOB_OBJECT_LIMIT_PROCESS_TIME
        | JOB_OBJECT_LIMIT_DIE_ON_UNHANDLED_EXCEPTION;
    basic.ActiveProcessLimit = 1;
    // User-mode CPU time in 100-nanosecond ticks.
    basic.PerProcessUserTimeLimit =
        i64::try_from(plan.cpu_seconds.saturating_mul(10_000_000)).unwrap_or(i64::MAX);
    limits.ProcessMemoryLimit = usize::try_from(plan.memory_bytes).unwrap_or(usize::MAX);
    // SAFETY: `limits` is a valid struct of the size passed, alive for the call.
    let ok = unsafe {
        SetInformationJobObject(
            job,
            JobObjectExtendedLimitInformation,
            (&raw const limits).cast::<c_void>(),
            size_of::<JOBOBJECT_EXTENDED_LIMIT_INFORMATION>() as u32,
        )
    };
    if ok == 0 {
        return Err(job_error("SetInformationJobObject (limits)"));
    }
    let ui = JOBOBJECT_BASIC_UI_RESTRICTIONS {
        UIRestrictionsClass: JOB_OBJECT_UILIMIT_DESKTOP
            | JOB_OBJECT_UILIMIT_DISPLAYSETTINGS
            | JOB_OBJECT_UILIMIT_EXITWINDOWS
            | JOB_OBJECT_UILIMIT_GLOBALATOMS
            | JOB_OBJECT_UILIMIT_HANDLES
            | JOB_OBJECT_UILIMIT_READCLIPBOARD
            | JOB_OBJECT_UILIMIT_SYSTEMPARAMETERS
            | JOB_OBJECT_UILIMIT_WRITECLIPBOARD,
    };
    // SAFETY: as above.
    let ok = unsafe {
        SetInformationJobObject(
            job,
            JobObjectBasicUIRestrictions,
            (&raw const ui).cast::<c_void>(),
            size_of::<JOBOBJECT_BASIC_UI_RESTRICTIONS>() as u32,
        )
    };
    if ok == 0 {
        return Err(job_error("SetInformationJobObject (UI restrictions)"));
    }
    // SAFETY: `job` is a live job handle; GetCurrentProcess returns a pseudo-handle.
    if unsafe { AssignProcessToJobObject(job, GetCurrentProcess()) } == 0 {
        return Err(job_error("AssignProcessToJobObject"));
    }
    // The handle is deliberately never closed: KILL_ON_JOB_CLOSE ends the job when the
    // worker exits and the system closes it.
    Ok(())
}

fn wide(s: &std::ffi::OsStr) -> Vec<u16> {
    s.encode_wide().chain(std::iter::once(0)).collect()
}

fn last_error(step: &str) -> String {
    format!("{step}: {}", std::io::Error::last_os_error())
}

/// Label the writable folders low, then lower this process's token to low integrity.
fn lower_integrity(writable: &[std::path::PathBuf]) -> Result<(), String> {
    for dir in writable {
        label_low(dir)?;
    }
    let mut token: HANDLE = std::ptr::null_mut();
    // SAFETY: valid out-pointer; pseudo-handle for the current process.
    if unsafe {
        OpenProcessToken(
            GetCurrentProcess(),
            TOKEN_ADJUST_DEFAULT | TOKEN_QUERY,
            &mut token,
        )
    } == 0
    {
        return Err(last_error("OpenProcessToken"));
    }
    let mut sid: PSID = std::ptr::null_mut();
    let sid_text = wide(std::ffi::OsStr::new(LOW_INTEGRITY_SID));
    // SAFETY: NUL-terminated wide string; valid out-pointer, freed with LocalFree below.
    if unsafe { ConvertStringSidToSidW(sid_text.as_ptr(), &mut sid) } == 0 {
        let e = last_error("ConvertStringSidToSidW");
        // SAFETY: closing the token handle we opened.
        unsafe { CloseHandle(token) };
        return Err(e);
    }
    let label = TOKEN_MANDATORY_LABEL {
        Label: SID_AND_ATTRIBUTES {
            Sid: sid,
            Attributes: SE_GROUP_INTEGRITY,
        },
    };
    // SAFETY: `sid` is a valid SID from ConvertStringSidToSidW.
    let size = size_of::<TOKEN_MANDATORY_LABEL>() as u32 + unsafe { GetLengthSid(sid) };
    // SAFETY: `label` and the SID it points to are alive for the call.
    let ok = unsafe {
        SetTokenInformation(
            token,
            TokenIntegrityLevel,
            (&raw const label).cast::<c_void>(),
            size,
        )
    };
    let result = if ok == 0 {
        Err(last_error("SetTokenInformation(TokenIntegrityLevel)"))
    } else {
        Ok(())
    };
    // SAFETY: freeing what the system allocated for us, closing what we opened.
    unsafe {
        LocalFree(sid);
        CloseHandle(token);
    }
    result
}

/// Give `dir` (and, by inheritance, everything in it) a low mandatory label.
fn label_low(dir: &Path) -> Result<(), String> {
    let sddl = wide(std::ffi::OsStr::new(LOW_LABEL_SDDL));
    let mut descriptor: PSECURITY_DESCRIPTOR = std::ptr::null_mut();
    // SAFETY: NUL-terminated wide string; valid out-pointer, freed with LocalFree below.
    let ok = unsafe {
        ConvertStringSecurityDescriptorToSecurityDescriptorW(
            sddl.as_ptr(),
            SDDL_REVISION_1,
            &mut descriptor,
            std::ptr::null_mut(),
        )
    };
    if ok == 0 {
        return Err(last_error(
            "ConvertStringSecurityDescriptorToSecurityDescriptorW",
        ));
    }
    let mut present = 0;
    let mut defaulted = 0;
    let mut sacl: *mut ACL = std::ptr::null_mut();
    // SAFETY: `descriptor` is valid; out-pointers are valid.
    let ok =
        unsafe { GetSecurityDescriptorSacl(descriptor, &mut present, &mut sacl, &mut defaulted) };
    let result = if ok == 0 || present == 0 {
        Err(last_error("GetSecurityDescriptorSacl"))
    } else {
        let path = wide(dir.as_os_str());
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
            Err(format!(
                "labelling `{}` low: {}",
                dir.display(),
                std::io::Error::from_raw_os_error(rc as i32)
            ))
        }
    };
    // SAFETY: freeing the descriptor the system allocated for us.
    unsafe { LocalFree(descriptor) };
    result
}
