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
    // is mapped already. The mapping is measured here, before the interpreter starts (the
    // limit must be set before any submitted code runs, and this is the last point the
    // worker's Rust code has): Python's own library is mapped already, but the extension
    // modules the preamble and the figure import (numpy, matplotlib, PIL, scipy: ≈ 170 MiB
    // of libraries) are not. Their mappings would come out of the code's headroom (issue
    // 45), so the limit also reserves the runtime's library files, whole — an upper bound of
    // what the imports can map ([`address_space_limit`]): the worker's own allocations get
    // at least `memory_bytes` after every library is loaded, and a bomb of twice that fails.
    #[cfg(target_os = "macos")]
    match mapped_bytes() {
        Some(mapped) => {
            // Counted by the host once per process (`ConfinePlan::library_bytes`); a plan
            // without the count (made elsewhere) has the worker walk the runtime itself.
            let libraries = plan
                .library_bytes
                .unwrap_or_else(|| library_bytes(&plan.code));
            limit(
                libc::RLIMIT_AS,
                "address-space",
                address_space_limit(mapped, libraries, plan.memory_bytes),
            )?;
            set.push(format!(
                "memory {} MiB beyond the {} MiB mapped at start and the runtime's {} MiB of \
                 libraries",
                plan.memory_bytes >> 20,
                mapped >> 20,
                libraries >> 20
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

/// The address-space limit that leaves `headroom` bytes to the worker's own allocations:
/// what is mapped when it is measured, plus what the runtime's libraries will map when
/// imported, plus the headroom. Saturating: a huge plan means no limit, not a tiny one.
#[cfg_attr(not(target_os = "macos"), allow(dead_code))]
pub(super) fn address_space_limit(mapped_now: u64, libraries: u64, headroom: u64) -> u64 {
    mapped_now
        .saturating_add(libraries)
        .saturating_add(headroom)
}

/// Whether a file name is a loadable library Python maps on import: an extension module
/// (`.so`, also on macOS) or a shared library (`.dylib`, `.so.N` as Linux names them).
#[cfg_attr(not(target_os = "macos"), allow(dead_code))]
fn is_library(name: &str) -> bool {
    name.ends_with(".so") || name.ends_with(".dylib") || name.contains(".so.")
}

/// The bytes of every library file under the plan's code folders (the runtime), each
/// counted once: symbolic links are not followed, so `libfoo.dylib → libfoo.1.dylib` is not
/// counted twice. Unreadable folders count as empty (the limit is then tighter, not
/// looser).
#[cfg_attr(not(target_os = "macos"), allow(dead_code))]
pub(super) fn library_bytes(roots: &[std::path::PathBuf]) -> u64 {
    let mut total = 0u64;
    let mut pending: Vec<std::path::PathBuf> =
        roots.iter().filter(|r| r.is_dir()).cloned().collect();
    while let Some(dir) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let Ok(meta) = entry.path().symlink_metadata() else {
                continue;
            };
            if meta.is_dir() {
                pending.push(entry.path());
            } else if meta.is_file() && entry.file_name().to_str().is_some_and(is_library) {
                total = total.saturating_add(meta.len());
            }
        }
    }
    total
}

/// [`library_bytes`] of `roots`, walked once per process and remembered (the host makes a
/// plan per run; the runtime does not change under it — an update is refused before any
/// worker starts, `install_identity`).
#[cfg(target_os = "macos")]
pub(super) fn library_bytes_once(roots: &[std::path::PathBuf]) -> u64 {
    use std::sync::Mutex;
    static COUNTED: Mutex<Vec<(Vec<std::path::PathBuf>, u64)>> = Mutex::new(Vec::new());
    let mut counted = COUNTED.lock().unwrap_or_else(|p| p.into_inner());
    if let Some((_, bytes)) = counted.iter().find(|(r, _)| r.as_slice() == roots) {
        return *bytes;
    }
    let bytes = library_bytes(roots);
    counted.push((roots.to_vec(), bytes));
    bytes
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_limit_leaves_the_headroom_after_the_libraries() {
        let mib = 1u64 << 20;
        // 1.2 GiB mapped at start, 170 MiB of libraries to come, 4 GiB for the code.
        let limit = address_space_limit(1229 * mib, 170 * mib, 4096 * mib);
        assert_eq!(limit, (1229 + 170 + 4096) * mib);
        // Once every library is mapped, exactly the headroom is left.
        assert_eq!(limit - (1229 * mib + 170 * mib), 4096 * mib);
        // Without libraries it is the old rule: mapped + headroom.
        assert_eq!(address_space_limit(10, 0, 5), 15);
        // No overflow into a tiny limit.
        assert_eq!(address_space_limit(u64::MAX - 1, 10, 10), u64::MAX);
    }

    #[test]
    fn libraries_are_counted_once_and_nothing_else_is() {
        let tmp = tempfile::tempdir().unwrap();
        let site = tmp.path().join("lib/python3.11/site-packages/numpy/core");
        std::fs::create_dir_all(&site).unwrap();
        std::fs::write(
            site.join("_multiarray_umath.cpython-311-darwin.so"),
            vec![0u8; 3000],
        )
        .unwrap();
        std::fs::write(tmp.path().join("lib/libpython3.11.dylib"), vec![0u8; 500]).unwrap();
        std::fs::write(tmp.path().join("lib/libffi.so.8"), vec![0u8; 20]).unwrap();
        // Not libraries: sources, data, bytecode.
        std::fs::write(site.join("__init__.pyc"), vec![0u8; 7000]).unwrap();
        std::fs::write(site.join("so_what.txt"), vec![0u8; 7000]).unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(
            tmp.path().join("lib/libpython3.11.dylib"),
            tmp.path().join("lib/libpython3.dylib"),
        )
        .unwrap();
        // A file among the roots (the executable) is not walked.
        let exe = tmp.path().join("pdfagent");
        std::fs::write(&exe, vec![0u8; 90_000]).unwrap();
        assert_eq!(library_bytes(&[exe, tmp.path().to_path_buf()]), 3520);
        assert_eq!(library_bytes(&[tmp.path().join("missing")]), 0);
    }

    /// A measurement, not a check (no time is asserted): what the walk the macOS host makes
    /// once per process costs on the built runtime. Run with
    /// `cargo test --release -p python-runtime walk_of_the_built_runtime -- --ignored --nocapture`.
    #[test]
    #[ignore = "a measurement: prints the walk's median time over the built runtime"]
    fn walk_of_the_built_runtime() {
        // The build output (scripts/build-runtime), as a development build finds it.
        let runtime = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("dist");
        assert!(
            runtime.join(crate::locate::MARKER).is_file(),
            "no built runtime at `{}`: run scripts/build-runtime",
            runtime.display()
        );
        let roots = [runtime.clone()];
        let mut times: Vec<std::time::Duration> = (0..9)
            .map(|_| {
                let started = std::time::Instant::now();
                std::hint::black_box(library_bytes(&roots));
                started.elapsed()
            })
            .collect();
        times.sort();
        let files = walkdir_count(&runtime);
        println!(
            "library walk of `{}`: {files} files, {} MiB of libraries, median {:.1} ms \
             (min {:.1}, max {:.1}) over {} walks",
            runtime.display(),
            library_bytes(&roots) >> 20,
            times[times.len() / 2].as_secs_f64() * 1e3,
            times[0].as_secs_f64() * 1e3,
            times[times.len() - 1].as_secs_f64() * 1e3,
            times.len()
        );
    }

    fn walkdir_count(root: &std::path::Path) -> usize {
        let mut count = 0;
        let mut pending = vec![root.to_path_buf()];
        while let Some(dir) = pending.pop() {
            for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
                match entry.file_type() {
                    Ok(t) if t.is_dir() => pending.push(entry.path()),
                    Ok(_) => count += 1,
                    Err(_) => {}
                }
            }
        }
        count
    }

    #[test]
    fn library_names() {
        assert!(is_library("_imaging.cpython-311-darwin.so"));
        assert!(is_library("libopenblas.0.dylib"));
        assert!(is_library("libgfortran.so.5"));
        assert!(!is_library("sochi.py"));
        assert!(!is_library("resolve.json"));
    }
}
