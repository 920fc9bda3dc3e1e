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
    let mut missing = Vec::new();
    // macOS accepts RLIMIT_AS but does not enforce it; say so rather than claim it.
    if cfg!(target_os = "macos") {
        missing.push("memory limit (macOS does not enforce RLIMIT_AS)".to_owned());
    } else {
        limit(libc::RLIMIT_AS, "address-space", plan.memory_bytes)?;
        set.push(format!("memory {} MiB", plan.memory_bytes >> 20));
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
