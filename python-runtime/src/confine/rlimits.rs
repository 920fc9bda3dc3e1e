//! Resource limits shared by Linux and macOS. Soft and hard limits are set to the same value
//! so the worker cannot raise them again.

use super::{ConfineError, ConfinePlan};

/// Set the address-space, CPU, file-size and core-dump limits, and ignore `SIGXFSZ`.
///
/// A write past the file-size limit would otherwise kill the worker with `SIGXFSZ` and no
/// message; ignored, the write fails with `EFBIG` ("File too large"), which Python reports as
/// an `OSError` in the script's own traceback. (CPython ignores `SIGXFSZ` itself at start-up
/// only when it installs its signal handlers; an embedded interpreter may not.)
///
/// `RLIMIT_NPROC` is not used: it is not enforced for root and counts every thread of the
/// user, so it would break thread pools; the seccomp filter denies process creation instead.
///
/// Returns the descriptions of the limits set and of the ones this OS does not enforce.
pub(super) fn apply(plan: &ConfinePlan) -> Result<(Vec<String>, Vec<String>), ConfineError> {
    let mut set = Vec::new();
    // Only macOS can find a limit it cannot set.
    #[cfg_attr(not(target_os = "macos"), allow(unused_mut))]
    let mut missing = Vec::new();
    #[cfg(not(target_os = "macos"))]
    {
        limit(libc::RLIMIT_AS, "address-space", plan.memory_bytes)?;
        set.push(format!("memory {} MiB", plan.memory_bytes >> 20));
    }
    // XNU does enforce RLIMIT_AS (`dosetrlimit` hands it to `vm_map_set_size_limit`, and
    // `vm_map_enter` fails past it, since macOS 13 at least), but it counts everything
    // mapped — the dyld shared cache, malloc's reservations — and refuses a limit below what
    // is mapped already. So the limit is what is mapped now plus the plan's bytes: the
    // worker's own allocations get `memory_bytes`, and a bomb of twice that fails.
    #[cfg(target_os = "macos")]
    match mapped_bytes() {
        Some(mapped) => {
            limit(
                libc::RLIMIT_AS,
                "address-space",
                mapped.saturating_add(plan.memory_bytes),
            )?;
            set.push(format!(
                "memory {} MiB beyond the {} MiB mapped at start",
                plan.memory_bytes >> 20,
                mapped >> 20
            ));
        }
        None => missing.push("memory limit (the task's mapped size could not be read)".to_owned()),
    }
    limit(libc::RLIMIT_CPU, "CPU-time", plan.cpu_seconds)?;
    set.push(format!("cpu {} s", plan.cpu_seconds));
    limit(libc::RLIMIT_FSIZE, "file-size", plan.file_size_bytes)?;
    set.push(format!("file size {} MiB", plan.file_size_bytes >> 20));
    limit(libc::RLIMIT_CORE, "core-dump", 0)?;
    set.push("no core dumps".to_owned());
    // SAFETY: installing SIG_IGN for SIGXFSZ has no preconditions.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
    Ok((set, missing))
}

/// `mach_task_basic_info` (`<mach/task_info.h>`, packed to 4 like every task_info struct).
#[cfg(target_os = "macos")]
#[repr(C, packed(4))]
#[derive(Default)]
struct TaskBasicInfo {
    virtual_size: u64,
    resident_size: u64,
    resident_size_max: u64,
    user_time: [i32; 2],
    system_time: [i32; 2],
    policy: i32,
    suspend_count: i32,
}

#[cfg(target_os = "macos")]
const MACH_TASK_BASIC_INFO: u32 = 20;

// Declared here: the libc crate deprecates its Mach bindings in favour of another crate, for
// two symbols that have not changed in decades.
#[cfg(target_os = "macos")]
unsafe extern "C" {
    static mach_task_self_: u32;
    fn task_info(task: u32, flavor: u32, info: *mut i32, count: *mut u32) -> i32;
}

/// The bytes mapped into this task now (`MACH_TASK_BASIC_INFO.virtual_size`, the VM map's
/// size that RLIMIT_AS is checked against).
#[cfg(target_os = "macos")]
fn mapped_bytes() -> Option<u64> {
    let mut info = TaskBasicInfo::default();
    let mut count = (size_of::<TaskBasicInfo>() / size_of::<i32>()) as u32;
    // SAFETY: `info` is a writable buffer of `count` 32-bit words, the layout this flavor
    // fills; `mach_task_self_` is the port naming this task, set before `main`.
    let rc = unsafe {
        task_info(
            mach_task_self_,
            MACH_TASK_BASIC_INFO,
            (&raw mut info).cast(),
            &mut count,
        )
    };
    let size = info.virtual_size;
    (rc == 0).then_some(size)
}

#[cfg(target_os = "linux")]
type Resource = libc::__rlimit_resource_t;
#[cfg(not(target_os = "linux"))]
type Resource = libc::c_int;

/// Lower both limits to `value`, or to the current hard limit if that is lower already
/// (raising a hard limit is not allowed and not wanted).
fn limit(resource: Resource, name: &'static str, value: u64) -> Result<(), ConfineError> {
    let error = |source| ConfineError::Rlimit {
        resource: name,
        value,
        source,
    };
    let mut current = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: `current` is a valid, writable struct that outlives the call.
    if unsafe { libc::getrlimit(resource, &mut current) } != 0 {
        return Err(error(std::io::Error::last_os_error()));
    }
    let value = (value as libc::rlim_t).min(current.rlim_max);
    let rlim = libc::rlimit {
        rlim_cur: value,
        rlim_max: value,
    };
    // SAFETY: `rlim` is a valid, initialised struct that outlives the call.
    if unsafe { libc::setrlimit(resource, &rlim) } == 0 {
        Ok(())
    } else {
        Err(error(std::io::Error::last_os_error()))
    }
}
