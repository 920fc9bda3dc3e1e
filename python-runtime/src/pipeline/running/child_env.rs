//! The worker's environment, built from scratch: a pure function of the target OS, the
//! host's environment and the run directories, so every platform's result is unit-tested on
//! any machine.
//!
//! The runner clears the child's environment and sets exactly this map. Nothing of the
//! host's passes except a short, named list of non-secret variables the platform needs
//! (the Windows back-fill, two OpenBLAS workarounds). API keys, proxies, `PYTHON*`, `LD_*`
//! and `DYLD_*` can never reach the worker because nothing is copied by pattern.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TargetOs {
    Linux,
    MacOs,
    Windows,
}

impl TargetOs {
    pub fn current() -> Self {
        if cfg!(windows) {
            TargetOs::Windows
        } else if cfg!(target_os = "macos") {
            TargetOs::MacOs
        } else {
            TargetOs::Linux
        }
    }
}

/// The folders a worker's environment points into. Both lie inside `run_dir`, the only
/// place the confined worker may write.
#[derive(Debug, Clone)]
pub struct RunDirs {
    /// The fresh, private run directory: the worker's cwd, HOME and temporary folder
    /// (`TMPDIR`/`TEMP`/`TMP`; the whole directory is deleted after the run, so temporary
    /// files need no folder of their own).
    pub run_dir: PathBuf,
    /// A writable matplotlib config/cache folder inside the run directory.
    pub mpl_config_dir: PathBuf,
}

impl RunDirs {
    /// The standard layout: matplotlib's folder is `run_dir/mplconfig` (the caller creates it
    /// and may seed it with the runtime's prebuilt font cache).
    pub fn inside(run_dir: &Path) -> Self {
        RunDirs {
            run_dir: run_dir.to_path_buf(),
            mpl_config_dir: super::runner::mpl_config_dir(run_dir),
        }
    }
}

/// OpenBLAS/OpenMP/MKL/Accelerate thread caps. Every BLAS thread reserves its own buffers, so
/// a pool sized to the machine can exceed the worker's address-space limit on a many-core
/// host; two threads keep numpy fast enough for plotting and well inside 4 GiB.
const THREAD_CAP: &str = "2";
const THREAD_VARS: [&str; 4] = [
    "OPENBLAS_NUM_THREADS",
    "OMP_NUM_THREADS",
    "MKL_NUM_THREADS",
    "VECLIB_MAXIMUM_THREADS",
];

/// Passed through from the host when set, on every OS: older OpenBLAS builds crash on some
/// CPUs unless the core type / L2 size is forced, and the machines that need it set these
/// variables system-wide. They select a code path; they carry no secret.
const OPENBLAS_WORKAROUNDS: [&str; 2] = ["OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE"];

/// Non-secret Windows variables CPython and the scientific stack rely on. `SystemRoot` is
/// required by CPython's crypto RNG and for loading system DLLs; `WINDIR`/`SYSTEMDRIVE` by
/// various DLLs; the processor variables by `platform` (used by numpy's and pandas' imports).
const WINDOWS_BACKFILL: [(&str, Option<&str>); 5] = [
    ("SystemRoot", Some(r"C:\Windows")),
    ("WINDIR", Some(r"C:\Windows")),
    ("SYSTEMDRIVE", Some("C:")),
    ("PROCESSOR_ARCHITECTURE", None),
    ("NUMBER_OF_PROCESSORS", None),
];

/// The exact variables the worker gets. Nothing else of the host's leaks through.
///
/// `PATH` is deliberately absent on Linux and macOS: no program can be started by the
/// confined worker, and an absent `PATH` makes look-ups such as `shutil.which('latex')`
/// answer "not found" instead of pointing at a program the worker then fails to run. On
/// Windows it is `%SystemRoot%\System32;%SystemRoot%`, the system DLL folders only.
pub fn child_env(
    target: TargetOs,
    host: &BTreeMap<String, String>,
    dirs: &RunDirs,
) -> BTreeMap<String, String> {
    // Never a verbatim `\\?\` path in a variable Python reads (`plain_path`).
    let text = |p: &Path| crate::plain_path::plain_ref(p).display().to_string();
    let mut env = BTreeMap::new();
    env.insert("HOME".into(), text(&dirs.run_dir));
    env.insert("MPLBACKEND".into(), "Agg".into());
    env.insert("MPLCONFIGDIR".into(), text(&dirs.mpl_config_dir));
    for var in THREAD_VARS {
        env.insert(var.into(), THREAD_CAP.into());
    }
    for var in OPENBLAS_WORKAROUNDS {
        if let Some(value) = lookup(target, host, var) {
            env.insert(var.into(), value.clone());
        }
    }
    match target {
        TargetOs::Linux => {
            env.insert("LANG".into(), "C.UTF-8".into());
            // The executable links WebKitGTK for the window; a static constructor in it
            // starts libpas's scavenger thread before `main` — and confinement refuses to
            // run with a second thread alive. `Malloc=1` makes WebKit's allocator use the
            // system malloc, so no thread starts (the worker never uses WebKit).
            env.insert("Malloc".into(), "1".into());
            env.insert("TMPDIR".into(), text(&dirs.run_dir));
        }
        TargetOs::MacOs => {
            // macOS has no C.UTF-8 locale; en_US.UTF-8 always exists.
            env.insert("LANG".into(), "en_US.UTF-8".into());
            env.insert("TMPDIR".into(), text(&dirs.run_dir));
        }
        TargetOs::Windows => {
            for (var, fallback) in WINDOWS_BACKFILL {
                let value = lookup(target, host, var)
                    .cloned()
                    .or_else(|| fallback.map(str::to_owned));
                if let Some(value) = value {
                    env.insert(var.into(), value);
                }
            }
            let system_root = env
                .get("SystemRoot")
                .cloned()
                .unwrap_or_else(|| r"C:\Windows".into());
            env.insert(
                "PATH".into(),
                format!(r"{system_root}\System32;{system_root}"),
            );
            env.insert("TEMP".into(), text(&dirs.run_dir));
            env.insert("TMP".into(), text(&dirs.run_dir));
            // Python's `expanduser` and matplotlib's home look-up use USERPROFILE on Windows.
            env.insert("USERPROFILE".into(), text(&dirs.run_dir));
            env.insert("LANG".into(), "en_US.UTF-8".into());
        }
    }
    env
}

/// Windows variable names are case-insensitive (`SystemRoot` is often `SYSTEMROOT`);
/// elsewhere they are exact.
fn lookup<'a>(
    target: TargetOs,
    host: &'a BTreeMap<String, String>,
    name: &str,
) -> Option<&'a String> {
    match target {
        TargetOs::Windows => host
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v),
        TargetOs::Linux | TargetOs::MacOs => host.get(name),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dirs(root: &str) -> RunDirs {
        RunDirs::inside(Path::new(root))
    }

    fn host(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect()
    }

    /// A host environment full of things that must never reach the worker.
    fn hostile_host() -> BTreeMap<String, String> {
        host(&[
            ("OPENAI_API_KEY", "sk-secret-openai"),
            ("ANTHROPIC_API_KEY", "sk-ant-secret"),
            ("AWS_SECRET_ACCESS_KEY", "aws-secret"),
            ("GITHUB_TOKEN", "ghp_secret"),
            ("HTTPS_PROXY", "http://proxy.secret:8080"),
            ("HTTP_PROXY", "http://proxy.secret:8080"),
            ("https_proxy", "http://proxy.secret:8080"),
            ("ALL_PROXY", "socks5://proxy.secret"),
            ("NO_PROXY", "localhost"),
            ("PYTHONPATH", "/evil/site"),
            ("PYTHONHOME", "/evil/home"),
            ("PYTHONSTARTUP", "/evil/startup.py"),
            ("PYTHONINSPECT", "1"),
            ("LD_PRELOAD", "/evil/preload.so"),
            ("LD_LIBRARY_PATH", "/evil/lib"),
            ("LD_AUDIT", "/evil/audit.so"),
            ("DYLD_INSERT_LIBRARIES", "/evil/inject.dylib"),
            ("DYLD_LIBRARY_PATH", "/evil/lib"),
            ("MPLBACKEND", "/evil/backend"),
            ("MPLCONFIGDIR", "/evil/mpl"),
            ("HOME", "/home/user"),
            ("TMPDIR", "/tmp"),
            ("PATH", "/evil/bin:/usr/bin"),
            ("COMSPEC", r"C:\Windows\system32\cmd.exe"),
            ("APPDATA", r"C:\Users\u\AppData\Roaming"),
            ("SSH_AUTH_SOCK", "/run/user/0/ssh-agent"),
            ("DISPLAY", ":0"),
            ("OPENBLAS_NUM_THREADS", "64"),
        ])
    }

    const SECRET_MARKERS: [&str; 8] = [
        "secret",
        "evil",
        "sk-",
        "ghp_",
        "proxy",
        "/home/user",
        "ssh-agent",
        "cmd.exe",
    ];

    fn assert_nothing_leaks(target: TargetOs, root: &str) {
        let env = child_env(target, &hostile_host(), &dirs(root));
        for (k, v) in &env {
            for marker in SECRET_MARKERS {
                assert!(
                    !v.contains(marker) && !k.contains(marker),
                    "{target:?}: `{k}={v}` leaks `{marker}`"
                );
            }
            let upper = k.to_ascii_uppercase();
            for prefix in ["PYTHON", "LD_", "DYLD_"] {
                assert!(
                    !upper.starts_with(prefix),
                    "{target:?}: `{k}` must not be set"
                );
            }
            assert!(
                !upper.contains("PROXY") && !upper.contains("KEY") && !upper.contains("TOKEN"),
                "{target:?}: `{k}` must not be set"
            );
        }
        for banned in ["COMSPEC", "APPDATA", "SSH_AUTH_SOCK", "DISPLAY"] {
            assert!(!env.contains_key(banned), "{target:?}: `{banned}` leaked");
        }
        assert_eq!(env["OPENBLAS_NUM_THREADS"], "2", "{target:?}: thread cap");
    }

    #[test]
    fn hostile_host_leaks_nothing_on_any_target() {
        assert_nothing_leaks(TargetOs::Linux, "/tmp/run-1");
        assert_nothing_leaks(TargetOs::MacOs, "/private/var/folders/x/run-1");
        assert_nothing_leaks(TargetOs::Windows, r"C:\Users\u\AppData\Local\Temp\run-1");
    }

    #[test]
    fn linux_gets_exactly_the_worker_variables() {
        let env = child_env(TargetOs::Linux, &host(&[]), &dirs("/tmp/run-1"));
        let expected = host(&[
            ("HOME", "/tmp/run-1"),
            ("LANG", "C.UTF-8"),
            ("MKL_NUM_THREADS", "2"),
            ("Malloc", "1"),
            ("MPLBACKEND", "Agg"),
            ("MPLCONFIGDIR", "/tmp/run-1/mplconfig"),
            ("OMP_NUM_THREADS", "2"),
            ("OPENBLAS_NUM_THREADS", "2"),
            ("TMPDIR", "/tmp/run-1"),
            ("VECLIB_MAXIMUM_THREADS", "2"),
        ]);
        assert_eq!(env, expected);
    }

    #[test]
    fn macos_uses_an_existing_utf8_locale_and_run_dir_tmp() {
        let env = child_env(TargetOs::MacOs, &host(&[]), &dirs("/private/tmp/r"));
        assert_eq!(env["LANG"], "en_US.UTF-8");
        assert_eq!(env["TMPDIR"], "/private/tmp/r");
        assert_eq!(env["HOME"], "/private/tmp/r");
        assert!(!env.contains_key("PATH"));
    }

    #[test]
    fn windows_back_fills_system_variables_case_insensitively() {
        let h = host(&[
            ("SYSTEMROOT", r"D:\Win"),
            ("windir", r"D:\Win"),
            ("SystemDrive", "D:"),
            ("PROCESSOR_ARCHITECTURE", "AMD64"),
            ("NUMBER_OF_PROCESSORS", "8"),
        ]);
        let root = r"C:\Temp\run-1";
        let d = RunDirs {
            run_dir: root.into(),
            mpl_config_dir: format!(r"{root}\mplconfig").into(),
        };
        let env = child_env(TargetOs::Windows, &h, &d);
        assert_eq!(env["SystemRoot"], r"D:\Win");
        assert_eq!(env["WINDIR"], r"D:\Win");
        assert_eq!(env["SYSTEMDRIVE"], "D:");
        assert_eq!(env["PATH"], r"D:\Win\System32;D:\Win");
        assert_eq!(env["TEMP"], root);
        assert_eq!(env["TMP"], root);
        assert_eq!(env["USERPROFILE"], root);
        assert_eq!(env["MPLCONFIGDIR"], r"C:\Temp\run-1\mplconfig");
        assert_eq!(env["PROCESSOR_ARCHITECTURE"], "AMD64");
        assert!(!env.contains_key("TMPDIR"));
    }

    #[test]
    fn windows_back_fill_has_defaults_when_the_host_lacks_them() {
        let env = child_env(TargetOs::Windows, &host(&[]), &dirs(r"C:\r"));
        assert_eq!(env["SystemRoot"], r"C:\Windows");
        assert_eq!(env["WINDIR"], r"C:\Windows");
        assert_eq!(env["SYSTEMDRIVE"], "C:");
        assert!(!env.contains_key("NUMBER_OF_PROCESSORS"));
    }

    #[test]
    fn openblas_workarounds_pass_through_when_set() {
        let h = host(&[
            ("OPENBLAS_CORETYPE", "Haswell"),
            ("OPENBLAS_L2_SIZE", "512"),
        ]);
        for target in [TargetOs::Linux, TargetOs::MacOs, TargetOs::Windows] {
            let env = child_env(target, &h, &dirs("/r"));
            assert_eq!(env["OPENBLAS_CORETYPE"], "Haswell", "{target:?}");
            assert_eq!(env["OPENBLAS_L2_SIZE"], "512", "{target:?}");
        }
        let env = child_env(TargetOs::Linux, &host(&[]), &dirs("/r"));
        assert!(!env.contains_key("OPENBLAS_CORETYPE"));
    }
}
