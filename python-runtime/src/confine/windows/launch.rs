//! The launcher: the first worker process on Windows. It starts this executable again,
//! suspended, inside the AppContainer with the run's capability (and no other), with its
//! process, threads and default DACL closed to other workers (`objects.rs`), puts it in
//! the [`Job`] before any of its code runs (out of the launcher's own job when that is
//! allowed, a nested job without UI restrictions when not: `nesting.rs`), resumes it, and
//! waits for it — or for the host.
//!
//! **Why a launcher.** An AppContainer is chosen when a process is created
//! (`PROC_THREAD_ATTRIBUTE_SECURITY_CAPABILITIES`), which `std::process::Command` cannot do
//! on stable Rust; a process cannot move itself into one. The runner's spawn code stays the
//! same on every OS, and its time-out kill of the launcher ends the contained worker too:
//! the launcher holds the job's only handle and the job is kill-on-close.
//!
//! **Host watch.** The launcher waits on the contained worker's handle, on the host's
//! (`PDFAGENT_HOST`, the runner's process id) and on the host's stop event (`stop.rs`) at
//! once: when the host ends in any way, or asks the run to stop, the wait returns, the job
//! is terminated and the launcher exits once the worker is gone. A host that is already gone
//! (its id free, or taken by a process created after this launcher) ends the run at once.

use super::WindowsError;
use super::job::Job;
use super::nesting;
use super::objects::{self, Descriptor};
use super::owned::{Handle, Sid, last_error, wide};
use super::plan;
use crate::confine::ConfinePlan;
use crate::wire::EXIT_HOST_GONE;
use std::ffi::{OsStr, c_void};
use std::path::Path;
use windows_sys::Win32::Foundation::{
    FILETIME, HANDLE, HANDLE_FLAG_INHERIT, INVALID_HANDLE_VALUE, SetHandleInformation, WAIT_FAILED,
    WAIT_OBJECT_0,
};
use windows_sys::Win32::Security::{SECURITY_CAPABILITIES, SID_AND_ATTRIBUTES};
use windows_sys::Win32::System::Console::{
    GetStdHandle, STD_ERROR_HANDLE, STD_INPUT_HANDLE, STD_OUTPUT_HANDLE,
};
use windows_sys::Win32::System::Threading::{
    CREATE_BREAKAWAY_FROM_JOB, CREATE_SUSPENDED, CREATE_UNICODE_ENVIRONMENT, CreateProcessW,
    DeleteProcThreadAttributeList, EXTENDED_STARTUPINFO_PRESENT, GetCurrentProcess,
    GetExitCodeProcess, GetProcessTimes, INFINITE, InitializeProcThreadAttributeList,
    LPPROC_THREAD_ATTRIBUTE_LIST, OpenProcess, PROC_THREAD_ATTRIBUTE_HANDLE_LIST,
    PROC_THREAD_ATTRIBUTE_SECURITY_CAPABILITIES, PROCESS_INFORMATION,
    PROCESS_QUERY_LIMITED_INFORMATION, PROCESS_SYNCHRONIZE, ResumeThread, STARTF_USESTDHANDLES,
    STARTUPINFOEXW, TerminateProcess, WaitForMultipleObjects, WaitForSingleObject,
};

/// How long a stopped launcher waits for its terminated worker to be gone.
const WORKER_EXIT_WAIT_MS: u32 = 5_000;

/// winnt.h; not worth the SystemServices feature for one constant.
const SE_GROUP_ENABLED: u32 = 0x4;

fn error(step: &'static str) -> WindowsError {
    WindowsError::AppContainer {
        step,
        source: last_error(),
    }
}

/// Start the contained worker for `plan` and `script`, wait for it, return its exit code.
/// Three steps: [`create`] it suspended in the AppContainer, [`assign`] it to its job and
/// let it run, [`wait`] for it, the host or the host's stop event.
pub(super) fn run_contained(
    plan: &ConfinePlan,
    script: &Path,
    host: Option<i64>,
) -> Result<i32, WindowsError> {
    let host = match host.and_then(|h| u32::try_from(h).ok()) {
        Some(pid) => match open_host(pid) {
            Some(handle) => Some(handle),
            None => {
                eprintln!(
                    "pdfagent worker: the process that started this worker is gone; not running"
                );
                return Ok(EXIT_HOST_GONE);
            }
        },
        None => None,
    };
    let run_dir = plan.read_write.first().ok_or(WindowsError::NoRunDir)?;
    let stop = std::env::var(plan::STOP_ENV)
        .ok()
        .and_then(|name| super::stop::open(&name));
    let suspended = create(plan, script, run_dir)?;
    let (process, job) = assign(plan, suspended)?;
    wait(&process, &job, host.as_ref(), stop.as_ref())
}

/// The contained worker, created suspended: none of its code has run yet.
struct Suspended {
    process: Handle,
    thread: Handle,
    /// How it was created (out of the launcher's job, or inside it): its job follows.
    attempt: nesting::Attempt,
    /// The descriptor of its process and threads, which also becomes its token's default
    /// DACL before it runs ([`assign`]).
    descriptor: Descriptor,
}

/// Create this executable (the plan's) again, suspended, inside the AppContainer with the
/// run's capability and none other, its process and first thread closed to other workers,
/// only the three standard handles inherited.
fn create(plan: &ConfinePlan, script: &Path, run_dir: &Path) -> Result<Suspended, WindowsError> {
    let container = Sid::parse(&plan::app_container_sid(plan::PROFILE_NAME)).map_err(|source| {
        WindowsError::AppContainer {
            step: "parsing the AppContainer SID",
            source,
        }
    })?;
    let capabilities: Vec<Sid> = plan::capabilities(run_dir)
        .iter()
        .map(|sid| Sid::parse(sid))
        .collect::<Result<_, _>>()
        .map_err(|source| WindowsError::AppContainer {
            step: "parsing the run's capability SID",
            source,
        })?;
    let mut attributes: Vec<SID_AND_ATTRIBUTES> = capabilities
        .iter()
        .map(|sid| SID_AND_ATTRIBUTES {
            Sid: sid.as_psid(),
            Attributes: SE_GROUP_ENABLED,
        })
        .collect();
    // The worker's process and first thread, and (through its token's default DACL,
    // set by `assign` before it runs) everything it creates: the user, SYSTEM and this
    // run's capability only, so another worker cannot open them (plan::worker_object_sddl).
    let descriptor = Descriptor::parse(&plan::worker_object_sddl(&objects::user_sid()?, run_dir))?;
    let object_attributes = descriptor.attributes();
    let security = SECURITY_CAPABILITIES {
        AppContainerSid: container.as_psid(),
        Capabilities: attributes.as_mut_ptr(),
        CapabilityCount: attributes.len() as u32,
        Reserved: 0,
    };
    let std_handles = std_handles()?;
    let mut inherited: Vec<HANDLE> = Vec::new();
    for h in std_handles {
        if !h.is_null() && h != INVALID_HANDLE_VALUE && !inherited.contains(&h) {
            inherited.push(h);
        }
    }

    // The host's executable, as its plan grants it (`locate::InstallPaths`).
    let exe = &plan.executable;
    let exe_text = exe.to_string_lossy().into_owned();
    let mut command_line = wide(OsStr::new(&plan::command_line(&exe_text)));
    let exe_wide = wide(exe.as_os_str());
    let launcher_vars: Vec<(String, String)> = std::env::vars_os()
        .filter_map(|(k, v)| Some((k.into_string().ok()?, v.into_string().ok()?)))
        .collect();
    let vars = plan::contained_vars(
        launcher_vars,
        &script.to_string_lossy(),
        &plan.to_json().map_err(WindowsError::EncodePlan)?,
    );
    let environment = plan::environment_block(&vars);

    let list = AttributeList::new(2)?;
    list.set(
        PROC_THREAD_ATTRIBUTE_SECURITY_CAPABILITIES,
        (&raw const security).cast(),
        size_of::<SECURITY_CAPABILITIES>(),
    )?;
    if !inherited.is_empty() {
        list.set(
            PROC_THREAD_ATTRIBUTE_HANDLE_LIST,
            inherited.as_ptr().cast(),
            inherited.len() * size_of::<HANDLE>(),
        )?;
    }
    // SAFETY: all-zero is a valid value of this plain-data struct; the fields that matter
    // are set below.
    let mut startup: STARTUPINFOEXW = unsafe { std::mem::zeroed() };
    startup.StartupInfo.cb = size_of::<STARTUPINFOEXW>() as u32;
    startup.StartupInfo.dwFlags = STARTF_USESTDHANDLES;
    startup.StartupInfo.hStdInput = std_handles[0];
    startup.StartupInfo.hStdOutput = std_handles[1];
    startup.StartupInfo.hStdError = std_handles[2];
    startup.lpAttributeList = list.as_ptr();

    // Inside a job (Task Scheduler, SSH, a CI runner): break away first; when a job above
    // forbids it, stay in the launcher's job and nest a job without UI restrictions in it
    // (nesting.rs). The AppContainer and every other limit are the same either way.
    for attempt in nesting::attempts(super::job::launcher_in_job()) {
        let breakaway = if attempt.breakaway {
            CREATE_BREAKAWAY_FROM_JOB
        } else {
            0
        };
        // SAFETY: all-zero is a valid out-value.
        let mut info: PROCESS_INFORMATION = unsafe { std::mem::zeroed() };
        // SAFETY: NUL-terminated application name; a mutable NUL-terminated command line;
        // the environment block is NUL-NUL terminated UTF-16 (CREATE_UNICODE_ENVIRONMENT); a
        // null current directory keeps the launcher's; `startup` and the attribute list it
        // points to (and the SIDs and handles those point to) stay alive for the call.
        // Handle inheritance is on, restricted by the HANDLE_LIST attribute to the three
        // standard handles. The process and thread attributes point to `descriptor`,
        // alive for the call.
        let ok = unsafe {
            CreateProcessW(
                exe_wide.as_ptr(),
                command_line.as_mut_ptr(),
                &object_attributes,
                &object_attributes,
                1,
                EXTENDED_STARTUPINFO_PRESENT
                    | CREATE_SUSPENDED
                    | CREATE_UNICODE_ENVIRONMENT
                    | breakaway,
                environment.as_ptr().cast::<c_void>(),
                std::ptr::null(),
                &startup.StartupInfo,
                &mut info,
            )
        };
        if ok != 0 {
            // The attribute list, the SIDs and the handles it names were read by the call
            // and are freed as this returns.
            return Ok(Suspended {
                process: Handle(info.hProcess),
                thread: Handle(info.hThread),
                attempt,
                descriptor,
            });
        }
        let source = last_error();
        if !nesting::try_next(attempt, source.raw_os_error()) {
            return Err(WindowsError::AppContainer {
                step: "CreateProcessW with the AppContainer",
                source,
            });
        }
    }
    // `attempts` ends with one that never moves on, so the loop returned.
    Err(error("CreateProcessW with the AppContainer"))
}

/// Put the suspended worker in its kill-on-close job (with the UI restrictions its
/// creation allows) with its token's default DACL set, then let it run. The worker's
/// process and the job, whose only handle the launcher holds from then on.
fn assign(plan: &ConfinePlan, worker: Suspended) -> Result<(Handle, Job), WindowsError> {
    let Suspended {
        process,
        thread,
        attempt,
        descriptor,
    } = worker;
    let contained = Job::create(plan, attempt.ui_restrictions).and_then(|job| {
        objects::set_default_dacl(process.0, &descriptor)?;
        job.assign(process.0)?;
        Ok(job)
    });
    let job = match contained {
        Ok(job) => job,
        Err(e) => {
            // SAFETY: a live process handle of the suspended child, which never ran: it
            // ends before this returns.
            unsafe { TerminateProcess(process.0, 1) };
            return Err(e);
        }
    };
    // SAFETY: a live thread handle of the suspended child.
    if unsafe { ResumeThread(thread.0) } == u32::MAX {
        let e = error("ResumeThread");
        job.terminate(1);
        return Err(e);
    }
    Ok((process, job))
}

/// What ended the launcher's wait.
#[derive(Clone, Copy, PartialEq)]
enum Woke {
    WorkerEnded,
    HostGone,
    Stopped,
}

/// Wait for the worker to end, the host to go or the host's stop event; the exit code to
/// pass on. When the host goes or asks to stop, the job is terminated and the launcher
/// returns once the worker is gone, so its files are closed (see stop.rs).
fn wait(
    process: &Handle,
    job: &Job,
    host: Option<&Handle>,
    stop: Option<&Handle>,
) -> Result<i32, WindowsError> {
    let mut waits = vec![(process.0, Woke::WorkerEnded)];
    waits.extend(host.map(|h| (h.0, Woke::HostGone)));
    waits.extend(stop.map(|s| (s.0, Woke::Stopped)));
    let handles: Vec<HANDLE> = waits.iter().map(|(h, _)| *h).collect();
    // SAFETY: an array of live handles of the length passed.
    let which =
        unsafe { WaitForMultipleObjects(handles.len() as u32, handles.as_ptr(), 0, INFINITE) };
    let woke = which
        .checked_sub(WAIT_OBJECT_0)
        .and_then(|i| waits.get(i as usize))
        .map(|(_, why)| *why);
    if woke == Some(Woke::WorkerEnded) {
        let mut code = 0u32;
        // SAFETY: a live process handle; valid out-pointer.
        if unsafe { GetExitCodeProcess(process.0, &mut code) } == 0 {
            return Err(error("GetExitCodeProcess"));
        }
        // Exit codes are u32 on Windows; NTSTATUS values (a crash) come out negative.
        Ok(code as i32)
    } else if let Some(why) = woke {
        let code = if why == Woke::HostGone {
            EXIT_HOST_GONE
        } else {
            1
        };
        job.terminate(code as u32);
        // SAFETY: a live process handle.
        unsafe { WaitForSingleObject(process.0, WORKER_EXIT_WAIT_MS) };
        Ok(code)
    } else if which == WAIT_FAILED {
        job.terminate(1);
        Err(error("WaitForMultipleObjects"))
    } else {
        job.terminate(1);
        Err(WindowsError::Wait(which))
    }
}

/// The three standard handles, made inheritable (they must be, to be in the handle list).
fn std_handles() -> Result<[HANDLE; 3], WindowsError> {
    let mut out = [std::ptr::null_mut(); 3];
    for (slot, which) in out
        .iter_mut()
        .zip([STD_INPUT_HANDLE, STD_OUTPUT_HANDLE, STD_ERROR_HANDLE])
    {
        // SAFETY: no preconditions; may return null or INVALID_HANDLE_VALUE.
        let h = unsafe { GetStdHandle(which) };
        if !h.is_null() && h != INVALID_HANDLE_VALUE {
            // SAFETY: a live handle of this process.
            if unsafe { SetHandleInformation(h, HANDLE_FLAG_INHERIT, HANDLE_FLAG_INHERIT) } == 0 {
                return Err(error("SetHandleInformation (standard handles)"));
            }
        }
        *slot = h;
    }
    Ok(out)
}

/// The host's process handle for waiting on, or `None` when the host is gone: no process
/// has its id, or the one that has it was created after this launcher (the id was reused).
fn open_host(pid: u32) -> Option<Handle> {
    // SAFETY: plain call; a null return is handled.
    let raw = unsafe {
        OpenProcess(
            PROCESS_SYNCHRONIZE | PROCESS_QUERY_LIMITED_INFORMATION,
            0,
            pid,
        )
    };
    let host = Handle::new(raw)?;
    // SAFETY: pseudo-handle for this process.
    let me = unsafe { GetCurrentProcess() };
    match (created(host.0), created(me)) {
        (Some(host_at), Some(me_at)) if plan::is_the_host(host_at, me_at) => Some(host),
        // Times unknown: watch what we have rather than refuse to run.
        (None, _) | (_, None) => Some(host),
        _ => None,
    }
}

fn created(process: HANDLE) -> Option<u64> {
    let zero = FILETIME {
        dwLowDateTime: 0,
        dwHighDateTime: 0,
    };
    let (mut creation, mut exit, mut kernel, mut user) = (zero, zero, zero, zero);
    // SAFETY: a live process handle opened with PROCESS_QUERY_LIMITED_INFORMATION (or the
    // pseudo-handle); valid out-pointers.
    let ok = unsafe { GetProcessTimes(process, &mut creation, &mut exit, &mut kernel, &mut user) };
    (ok != 0)
        .then(|| (u64::from(creation.dwHighDateTime) << 32) | u64::from(creation.dwLowDateTime))
}

/// A `PROC_THREAD_ATTRIBUTE_LIST` in memory of the size Windows asks for.
struct AttributeList {
    // usize elements keep the buffer pointer-aligned.
    buf: Vec<usize>,
}

impl AttributeList {
    fn new(count: u32) -> Result<AttributeList, WindowsError> {
        let mut size = 0usize;
        // SAFETY: a size query (null list); it "fails" with ERROR_INSUFFICIENT_BUFFER and
        // sets `size`.
        unsafe { InitializeProcThreadAttributeList(std::ptr::null_mut(), count, 0, &mut size) };
        if size == 0 {
            return Err(error("InitializeProcThreadAttributeList (size)"));
        }
        let mut list = AttributeList {
            buf: vec![0usize; size.div_ceil(size_of::<usize>())],
        };
        // SAFETY: the buffer has at least `size` bytes.
        if unsafe { InitializeProcThreadAttributeList(list.as_ptr(), count, 0, &mut size) } == 0 {
            // Not initialised: forget it so drop does not delete it.
            list.buf.clear();
            return Err(error("InitializeProcThreadAttributeList"));
        }
        Ok(list)
    }

    fn as_ptr(&self) -> LPPROC_THREAD_ATTRIBUTE_LIST {
        self.buf.as_ptr().cast_mut().cast()
    }

    /// Set one attribute. The value is read by CreateProcessW, not copied here: it must
    /// outlive the process creation (the caller keeps it on its stack until then).
    fn set(&self, attribute: u32, value: *const c_void, size: usize) -> Result<(), WindowsError> {
        // SAFETY: an initialised list; `value` points to `size` bytes that outlive the
        // CreateProcessW call (caller's duty, documented above).
        let ok = unsafe {
            windows_sys::Win32::System::Threading::UpdateProcThreadAttribute(
                self.as_ptr(),
                0,
                attribute as usize,
                value,
                size,
                std::ptr::null_mut(),
                std::ptr::null(),
            )
        };
        if ok == 0 {
            return Err(error("UpdateProcThreadAttribute"));
        }
        Ok(())
    }
}

impl Drop for AttributeList {
    fn drop(&mut self) {
        if !self.buf.is_empty() {
            // SAFETY: an initialised list, deleted once.
            unsafe { DeleteProcThreadAttributeList(self.as_ptr()) };
        }
    }
}
