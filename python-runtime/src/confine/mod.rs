//! Layer 2: the operating system's own confinement, applied by the worker to itself before
//! the interpreter starts, so no line of untrusted Python ever runs unconfined.
//! One module per OS behind this small interface:
//!
//! - Linux (`linux.rs`, which orders the layers; `capabilities.rs`, `landlock.rs`,
//!   `rlimits.rs`, `wall_clock.rs`, `seccomp/`): no capabilities, Landlock (files, TCP,
//!   scopes), a seccomp filter (`seccomp/table.rs` the reviewed list, `seccomp/bpf.rs` its
//!   generator: no sockets, no process creation, no `execve`), rlimits, and a kernel
//!   wall-clock timer that SIGKILLs the worker at its time-out whatever its code does (the
//!   filter keeps the code from touching it).
//! - macOS (`macos.rs`, `macos_profile.rs`, `macos.sb`): a Seatbelt profile via
//!   `sandbox_init`, rlimits (`rlimits.rs`, shared with Linux). No kernel wall clock (no
//!   POSIX timers): the worker's host-watch thread, signals blocked, ends it when its host
//!   dies (`worker.rs`).
//! - Windows (`windows/`): the worker is started again by itself inside an AppContainer
//!   (no capabilities: no network; files only where the host granted them) and a Job
//!   Object (no child processes, memory and CPU limits, killed with its launcher).
//!
//! Each OS's failures are its own error type ([`LinuxError`], [`MacosError`],
//! `windows::WindowsError`) inside the thin common [`ConfineError`]. The plan carries the
//! executable and runtime paths the host found once (`locate::InstallPaths`); no backend
//! looks them up again. The names host and worker share (`PDFAGENT_*`, exit statuses) are
//! in `crate::wire`.
//!
//! The report says exactly what took effect; it never claims more.

use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

#[cfg(target_os = "linux")]
mod capabilities;
#[cfg(target_os = "linux")]
mod landlock;
#[cfg(target_os = "linux")]
mod linux;
#[cfg(target_os = "macos")]
mod macos;
// The profile text is a pure function, unit-tested on every OS.
#[cfg(any(target_os = "macos", test))]
mod macos_profile;
#[cfg(unix)]
mod rlimits;
#[cfg(target_os = "linux")]
mod seccomp;
#[cfg(target_os = "linux")]
mod wall_clock;

#[cfg(target_os = "linux")]
pub use linux::LinuxError;
#[cfg(target_os = "macos")]
pub use macos::MacosError;
// The pure half (names, SIDs, grants, report) is unit-tested on every OS.
#[cfg(any(windows, test))]
pub mod windows;

/// What the worker may touch, decided by the parent and handed to the worker
/// (serialised as JSON in `PDFAGENT_CONFINE`). Build it with [`ConfinePlan::for_run`].
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct ConfinePlan {
    /// Read-only (read files, list folders, never execute): [`ConfinePlan::code`], SRC,
    /// system library folders, zoneinfo. Every path must exist.
    pub read_only: Vec<PathBuf>,
    /// Where the worker's code comes from, each also in `read_only`: the executable file
    /// itself, the runtime folder and, on Windows, the loader's DLLs beside the executable
    /// (no rpath there). Never the executable's folder: a user's file beside a portable
    /// install's executable is not the worker's to read. The macOS profile lets code be
    /// mapped from these only; the Windows host grants them to the AppContainer for good.
    /// Decided once, here, by [`ConfinePlan::for_run`]; no backend derives them again.
    pub code: Vec<PathBuf>,
    /// The executable file (resolved; the first of [`ConfinePlan::code`]): what the runner
    /// starts, what the Windows launcher starts again inside the AppContainer, and the
    /// worker's `sys.executable`. Found once by the host (`locate::InstallPaths`), carried
    /// here so no later step asks the system again.
    pub executable: PathBuf,
    /// The runtime folder (resolved; in [`ConfinePlan::code`]): Python's home in the worker.
    pub runtime: PathBuf,
    /// Read-write (never execute): the run directory only (plus `/dev/null`).
    pub read_write: Vec<PathBuf>,
    /// Address-space limit in bytes.
    pub memory_bytes: u64,
    /// CPU-time limit in seconds.
    pub cpu_seconds: u64,
    /// Largest file the worker may write, in bytes.
    pub file_size_bytes: u64,
    /// Linux: the wall-clock limit the kernel enforces with SIGKILL (a timer armed before
    /// the code runs, which the code cannot disarm: `wall_clock.rs`), in milliseconds; 0:
    /// none. Never a fork server's own (it waits for figures), each of its children's.
    #[serde(default)]
    pub wall_clock_ms: u64,
    /// Which process applies the plan: a worker (the default) or the fork server, whose
    /// seccomp filter still lets it fork (Linux; see `seccomp/`).
    #[serde(default)]
    pub role: ProcessRole,
    /// Linux: Landlock's scoping of signals and abstract UNIX sockets (ABI 6+). Always on,
    /// except in a host started with [`ENV_TEST_NO_SCOPES`]`=1`: a test knob, so one suite
    /// run proves that the seccomp filter alone keeps signals in. The plan is the host's;
    /// a worker's environment is built from scratch, so code in a worker cannot turn it off.
    #[serde(default = "scopes_on")]
    pub landlock_scopes: bool,
    /// macOS: the bytes of the library files under [`ConfinePlan::code`], which the
    /// address-space limit reserves for the imports to come (`rlimits.rs`). Counted by the
    /// host once per process (a walk of the runtime's ~3,800 files), not by every worker at
    /// its start; `None` elsewhere, or when the worker must count them itself.
    #[serde(default)]
    pub library_bytes: Option<u64>,
}

/// The host's test knob that turns Landlock's scoping off (see [`ConfinePlan::landlock_scopes`]).
pub const ENV_TEST_NO_SCOPES: &str = "PDFAGENT_TEST_LANDLOCK_NO_SCOPES";

fn scopes_on() -> bool {
    true
}

/// Who confines itself with a plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ProcessRole {
    /// Runs one script (or one figure's code): no process creation at all.
    #[default]
    Worker,
    /// Linux: warms up once, then forks one child per figure; never runs submitted code
    /// itself. Each child confines itself again as a [`ProcessRole::Worker`] before the
    /// code runs (`confine::apply` in the child, stacked on the server's confinement).
    ForkServer,
}

/// The resource limits of one run, as the operating system enforces them. No default of
/// its own: every run's come from the pipeline's limits (`pipeline::Limits::confine_limits`),
/// so a plan never carries other limits than the run it is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Limits {
    pub memory_bytes: u64,
    pub cpu_seconds: u64,
    pub file_size_bytes: u64,
    /// See [`ConfinePlan::wall_clock_ms`].
    pub wall_clock_ms: u64,
}

impl ConfinePlan {
    /// The plan for one worker run: the executable file, the runtime and `src` (if any)
    /// read-only, `run_dir` read-write, plus the system paths this OS's loader and the
    /// scientific stack need (those that exist on this machine). `executable` and
    /// `runtime_dir` are resolved (`canonicalize`) by the caller.
    pub fn for_run(
        executable: &Path,
        runtime_dir: &Path,
        src: Option<&Path>,
        run_dir: &Path,
        limits: Limits,
    ) -> ConfinePlan {
        let mut code = vec![executable.to_path_buf(), runtime_dir.to_path_buf()];
        if cfg!(windows) {
            code.extend(loader_files_beside(executable));
        }
        let mut read_only = code.clone();
        read_only.extend(src.map(Path::to_path_buf));
        read_only.extend(
            system_read_only()
                .iter()
                .map(PathBuf::from)
                .filter(|p| p.exists()),
        );
        let mut read_write = vec![run_dir.to_path_buf()];
        read_write.extend(
            system_read_write()
                .iter()
                .map(PathBuf::from)
                .filter(|p| p.exists()),
        );
        #[cfg(target_os = "macos")]
        let library_bytes = Some(rlimits::library_bytes_once(&code));
        #[cfg(not(target_os = "macos"))]
        let library_bytes = None;
        ConfinePlan {
            read_only,
            code,
            executable: executable.to_path_buf(),
            runtime: runtime_dir.to_path_buf(),
            read_write,
            memory_bytes: limits.memory_bytes,
            cpu_seconds: limits.cpu_seconds,
            file_size_bytes: limits.file_size_bytes,
            wall_clock_ms: limits.wall_clock_ms,
            role: ProcessRole::Worker,
            landlock_scopes: std::env::var_os(ENV_TEST_NO_SCOPES).is_none_or(|v| v != "1"),
            library_bytes,
        }
    }

    /// Read the plan the parent put into [`crate::wire::ENV_CONFINE`].
    pub fn from_json(text: &str) -> Result<ConfinePlan, ConfineError> {
        serde_json::from_str(text).map_err(ConfineError::BadPlan)
    }

    /// The plan as the worker reads it from [`crate::wire::ENV_CONFINE`]. Fails only for a
    /// path JSON cannot carry (not valid Unicode).
    pub fn to_json(&self) -> Result<String, serde_json::Error> {
        serde_json::to_string(self)
    }
}

/// System paths the worker reads. Linux: the loader's library folders and cache (numpy's,
/// pandas' and matplotlib's extension modules are `dlopen`ed after confinement), time-zone
/// data (pandas), the random device, the CPU description OpenBLAS and `os.cpu_count` read,
/// and the process's own `/proc/self` (not all of `/proc`: other processes' command lines
/// may hold secrets). Deliberately absent: `/etc/passwd`, home folders, `/tmp`.
fn system_read_only() -> &'static [&'static str] {
    if cfg!(target_os = "linux") {
        &[
            "/lib",
            "/lib64",
            "/lib32",
            "/usr/lib",
            "/usr/lib64",
            "/usr/local/lib",
            "/etc/ld.so.cache",
            "/etc/localtime",
            "/usr/share/zoneinfo",
            "/dev/urandom",
            "/dev/random",
            "/dev/zero",
            "/proc/self",
            "/proc/cpuinfo",
            "/proc/meminfo",
            "/sys/devices/system/cpu",
        ]
    } else {
        // macOS: the Seatbelt profile (macos.sb) names the system paths itself.
        // Windows: the host grants the AppContainer its folders (windows/plan.rs), by path.
        &[]
    }
}

/// Windows has no rpath: the loader finds `python3XY.dll`, `python3.dll` and the VC runtime
/// beside the executable (`scripts/runtime_builder/pe.py` puts them there). Those files,
/// not the folder they are in.
fn loader_files_beside(executable: &Path) -> Vec<PathBuf> {
    let Some(Ok(entries)) = executable.parent().map(std::fs::read_dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_str().is_some_and(is_loader_dll))
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files
}

/// `python3XY.dll`, `python3.dll`, `vcruntime140.dll`, `vcruntime140_1.dll` (any case).
fn is_loader_dll(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    let Some(stem) = name.strip_suffix(".dll") else {
        return false;
    };
    let digits = |rest: &str| rest.chars().all(|c| c.is_ascii_digit());
    stem.strip_prefix("python3").is_some_and(digits)
        || stem
            .strip_prefix("vcruntime140")
            .is_some_and(|rest| rest.is_empty() || rest.strip_prefix('_').is_some_and(digits))
}

/// `/dev/null`: libraries open it for writing to silence output; writing there loses nothing.
fn system_read_write() -> &'static [&'static str] {
    if cfg!(unix) { &["/dev/null"] } else { &[] }
}

/// What confinement actually took effect, in words a person can read.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, ts_rs::TS)]
pub struct ConfineReport {
    /// One line, e.g. "confinement: landlock ABI 7 (files, TCP, scopes), seccomp (...), rlimits
    /// (...)" or "confinement: none — kernel without Landlock (...)".
    pub summary: String,
    /// True only when every layer this OS offers took full effect.
    pub fully_enforced: bool,
    /// Each layer that took effect, one entry each.
    pub enforced: Vec<String>,
    /// Each layer this OS offers that did not take effect, and why.
    pub missing: Vec<String>,
}

impl ConfineReport {
    fn new(enforced: Vec<String>, missing: Vec<String>, headline: Option<&str>) -> Self {
        let body = enforced.join(", ");
        let summary = match headline {
            Some(h) => format!("confinement: {h} (applied: {body})"),
            None if missing.is_empty() => format!("confinement: {body}"),
            None => format!("confinement: {body}; NOT enforced: {}", missing.join(", ")),
        };
        ConfineReport {
            fully_enforced: missing.is_empty() && headline.is_none(),
            summary,
            enforced,
            missing,
        }
    }
}

/// Why the worker could not be confined: the few failures every OS shares, and each OS's
/// own ([`LinuxError`], [`MacosError`], [`windows::WindowsError`]), whose messages pass
/// through unchanged.
#[derive(Debug, thiserror::Error)]
#[cfg_attr(
    not(any(windows, feature = "test-support")),
    expect(dead_code, reason = "some variants are the Windows launcher's")
)]
pub enum ConfineError {
    #[error(
        "the confinement plan in `PDFAGENT_CONFINE` is not valid JSON; the parent must build it with `ConfinePlan::for_run`"
    )]
    BadPlan(#[source] serde_json::Error),
    /// Landlock and Seatbelt name the plan's paths themselves.
    #[cfg(unix)]
    #[error("cannot open `{path}` for the confinement rules; every path in the plan must exist")]
    MissingPath {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[cfg(unix)]
    #[error("could not set the {resource} limit to {value}")]
    Rlimit {
        resource: &'static str,
        value: u64,
        #[source]
        source: std::io::Error,
    },
    #[cfg(target_os = "linux")]
    #[error(transparent)]
    Linux(#[from] LinuxError),
    #[cfg(target_os = "macos")]
    #[error(transparent)]
    Macos(#[from] MacosError),
    #[cfg(windows)]
    #[error(transparent)]
    Windows(#[from] windows::WindowsError),
}

/// What [`enter`] did with the calling process.
#[derive(Debug)]
pub enum Entered {
    /// The calling process is confined: start the interpreter.
    Confined(ConfineReport),
    /// Windows: this process was the launcher; the confined worker it started has ended
    /// with this exit code, which the launcher passes on. The interpreter must not start.
    #[cfg_attr(
        not(windows),
        expect(dead_code, reason = "only the Windows launcher relaunches")
    )]
    Relaunched { exit_code: i32 },
}

/// Confine the worker: on Linux and macOS [`apply`] to this process. On Windows an
/// AppContainer can only be chosen when a process is created, so the first call starts
/// this executable again inside one (`script` and `plan` passed on, `host` watched) and
/// returns its exit code; in that second process it reports what its token and job enforce.
pub fn enter(
    plan: &ConfinePlan,
    script: &Path,
    host: Option<i64>,
) -> Result<Entered, ConfineError> {
    #[cfg(windows)]
    return Ok(windows::enter(plan, script, host)?);
    #[cfg(not(windows))]
    {
        let _ = (script, host);
        apply(plan).map(Entered::Confined)
    }
}

/// Confine the calling process according to `plan`. Irreversible.
///
/// Call it from the worker's main thread before any other thread exists and before the
/// interpreter starts: Landlock restricts the calling thread and the threads it starts later
/// (the seccomp filter is synchronised to all threads).
pub fn apply(plan: &ConfinePlan) -> Result<ConfineReport, ConfineError> {
    #[cfg(target_os = "linux")]
    return linux::apply(plan, linux::Arm::Now);
    #[cfg(target_os = "macos")]
    return macos::apply(plan);
    #[cfg(windows)]
    return Ok(windows::apply(plan)?);
    #[cfg(not(any(target_os = "linux", target_os = "macos", windows)))]
    {
        let _ = plan;
        Ok(ConfineReport::new(
            Vec::new(),
            vec!["no confinement for this operating system".into()],
            Some("none — unsupported operating system"),
        ))
    }
}

/// Linux: confine a fork server's child forked ahead of its figure as [`apply`] does, except
/// that its wall-clock timer is armed only when its figure starts ([`arm_wall_clock`]).
#[cfg(target_os = "linux")]
pub fn apply_forked_child(plan: &ConfinePlan) -> Result<ConfineReport, ConfineError> {
    linux::apply(plan, linux::Arm::AtStart)
}

/// Linux: a fork server's child whose figure starts now: arm its wall-clock timer and lock
/// the timer calls away. Once; an error afterwards. The report's words for the limit.
#[cfg(target_os = "linux")]
pub fn arm_wall_clock() -> Result<String, ConfineError> {
    Ok(wall_clock::arm_pending()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plan_round_trips_through_json() {
        let plan = ConfinePlan::for_run(
            Path::new("/opt/app/pdfagent"),
            Path::new("/opt/app/runtime"),
            Some(Path::new("/data")),
            Path::new("/tmp/run"),
            crate::pipeline::Limits::default().confine_limits(),
        );
        assert_eq!(
            ConfinePlan::from_json(&plan.to_json().expect("a plan of UTF-8 paths")).ok(),
            Some(plan)
        );
    }

    #[test]
    fn for_run_reads_bundle_and_src_and_writes_only_the_run_dir() {
        let plan = ConfinePlan::for_run(
            Path::new("/opt/app/pdfagent"),
            Path::new("/opt/app/runtime"),
            Some(Path::new("/data")),
            Path::new("/tmp/run"),
            crate::pipeline::Limits::default().confine_limits(),
        );
        assert_eq!(
            &plan.read_only[..3],
            &[
                PathBuf::from("/opt/app/pdfagent"),
                PathBuf::from("/opt/app/runtime"),
                PathBuf::from("/data")
            ]
        );
        // The executable file, not its folder: a user's file beside it is not readable.
        assert!(!plan.read_only.iter().any(|p| p == Path::new("/opt/app")));
        assert_eq!(
            plan.code,
            [
                PathBuf::from("/opt/app/pdfagent"),
                PathBuf::from("/opt/app/runtime")
            ]
        );
        assert_eq!(plan.read_write[0], PathBuf::from("/tmp/run"));
        let others: Vec<_> = plan.read_write[1..].iter().collect();
        assert!(
            others.iter().all(|p| *p == Path::new("/dev/null")),
            "only the run dir and /dev/null are writable: {others:?}"
        );
        for secret in ["/etc", "/home", "/root", "/tmp", "/proc", "/etc/passwd"] {
            assert!(
                !plan.read_only.iter().any(|p| p == Path::new(secret)),
                "`{secret}` must not be readable"
            );
        }
        assert_eq!(plan.memory_bytes, 4 << 30);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn linux_plan_has_the_loader_and_zoneinfo() {
        let plan = ConfinePlan::for_run(
            Path::new("/opt/app/pdfagent"),
            Path::new("/opt/app/runtime"),
            None,
            Path::new("/tmp/run"),
            crate::pipeline::Limits::default().confine_limits(),
        );
        for needed in ["/usr/lib", "/etc/ld.so.cache", "/usr/share/zoneinfo"] {
            assert!(
                plan.read_only.iter().any(|p| p == Path::new(needed)),
                "`{needed}` missing from {:?}",
                plan.read_only
            );
        }
    }

    #[test]
    fn the_windows_loader_dlls_are_named_one_by_one() {
        for dll in [
            "python311.dll",
            "python3.dll",
            "PYTHON312.DLL",
            "vcruntime140.dll",
            "vcruntime140_1.dll",
        ] {
            assert!(is_loader_dll(dll), "{dll}");
        }
        for other in [
            "python3.exe",
            "python311.dll.txt",
            "python3x.dll",
            "secret.csv",
            "vcruntime140_x.dll",
            "pdfagent.exe",
            "evil.dll",
        ] {
            assert!(!is_loader_dll(other), "{other}");
        }
    }

    #[test]
    fn only_the_loader_dlls_beside_the_executable_are_listed() {
        let dir = tempfile::tempdir().unwrap();
        for name in [
            "pdfagent.exe",
            "python311.dll",
            "vcruntime140.dll",
            "secret.csv",
        ] {
            std::fs::write(dir.path().join(name), "x").unwrap();
        }
        let found = loader_files_beside(&dir.path().join("pdfagent.exe"));
        assert_eq!(
            found,
            [
                dir.path().join("python311.dll"),
                dir.path().join("vcruntime140.dll")
            ]
        );
    }
}
