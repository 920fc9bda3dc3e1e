//! The selftest's canaries: code that tries what Layer 2 must stop, run through the real
//! pipeline with Layer 1 bypassed (crate-private, see [`CheckedSource::unchecked_for_canary`]),
//! each judged by its effect as seen from outside the worker — the file outside not
//! created, the secret not in the output, the listener not reached — not by what the
//! worker says about itself.
//!
//! The canaries use the raw primitives (`posix` — `nt` on Windows —, `_socket`, `_winapi`)
//! so the preamble's Python-level guard is not what stops them: they prove the operating
//! system's confinement. They are the same on every OS (`canary_kernel.rs` has the two about
//! other processes and shared memory), and a canary counts as
//! contained only when its code was seen to make the attempt (the error it met is in its
//! output): a worker that never got to run it proves nothing and fails the canary.

use crate::pipeline::running::runner::CancelFlag;
use crate::pipeline::{
    CheckedSource, FigureResult, Limits, RunContext, run_checked, validate::ValidInput,
};
use std::io::Read as _;
use std::net::TcpListener;
use std::path::Path;
use std::time::{Duration, Instant};

/// One canary's verdict.
#[derive(Debug, Clone, serde::Serialize)]
pub struct CanaryReport {
    /// What the canary tried, e.g. "write outside the run directory".
    pub name: &'static str,
    pub contained: bool,
    /// What was observed, for a person to judge (the error the code met, what was checked).
    pub evidence: String,
}

#[derive(Debug, thiserror::Error)]
#[error("could not set up the canaries: {0}")]
pub struct CanarySetupError(#[from] std::io::Error);

/// Run every canary. Only the set-up (temporary folders, a local listener) can fail.
pub fn run_canaries(cancel: &CancelFlag) -> Result<Vec<CanaryReport>, CanarySetupError> {
    let outside = tempfile::tempdir()?;
    let src = tempfile::tempdir()?;
    let figures = tempfile::tempdir()?;
    std::fs::write(src.path().join("data.csv"), "x,y\n1,2\n")?;
    let secret_token = format!("pdfagent-canary-secret-{}", std::process::id());
    let secret = outside.path().join("secret.txt");
    std::fs::write(&secret, &secret_token)?;
    let valid = ValidInput {
        name: "canary".into(),
        src: src.path().canonicalize()?,
        figures: figures.path().canonicalize()?,
        format: crate::pipeline::FigureFormat::Png,
        preview: false,
    };
    let limits = Limits {
        timeout: Duration::from_secs(60),
        ..Limits::default()
    };
    let outside_dir = outside.path().canonicalize()?;
    // Each canary is its own worker in its own run directory, so they run side by side:
    // the selftest's wall time is the slowest canary, not the sum.
    let (v, l, o) = (&valid, &limits, outside_dir.as_path());
    std::thread::scope(|scope| {
        let write = scope.spawn(move || write_outside(v, l, cancel, o));
        let read = scope.spawn(|| read_outside(v, l, cancel, &secret, &secret_token));
        let tcp = scope.spawn(move || tcp_connect(v, l, cancel));
        let program = scope.spawn(move || start_program(v, l, cancel, o));
        let mem = scope.spawn(move || memory(v, l, cancel));
        let admin = scope.spawn(move || admin_rights(v, l, cancel));
        let inherited = scope.spawn(|| inherited_descriptor(v, l, cancel, &secret, &secret_token));
        let other = scope.spawn(move || super::canary_kernel::other_process(v, l, cancel));
        let shm = scope.spawn(move || super::canary_kernel::shared_memory(v, l, cancel));
        #[cfg(unix)]
        let orphan = scope.spawn(move || super::canary_orphan::outlive_host(&v.src, l));
        let join = |name: &'static str, handle: std::thread::ScopedJoinHandle<'_, CanaryReport>| {
            handle.join().unwrap_or_else(|_| CanaryReport {
                name,
                contained: false,
                evidence: "the canary's thread panicked".into(),
            })
        };
        let tcp = match tcp.join() {
            Ok(report) => report?,
            Err(_) => CanaryReport {
                name: "TCP connect to a local listener",
                contained: false,
                evidence: "the canary's thread panicked".into(),
            },
        };
        let mut reports = vec![
            join("write outside the run directory", write),
            join("read a file outside SRC", read),
            tcp,
            join("start a program", program),
            join("allocate twice the memory limit", mem),
            join("change another process's limits", other),
            join("leave a shared-memory object behind", shm),
        ];
        reports.push(join(ADMIN, admin));
        #[cfg(unix)]
        reports.push(join("keep running after the host is killed", orphan));
        reports.push(match inherited.join() {
            Ok(report) => report?,
            Err(_) => CanaryReport {
                name: INHERITED,
                contained: false,
                evidence: "the canary's thread panicked".into(),
            },
        });
        Ok(reports)
    })
}

/// Run one canary's code through the real pipeline, Layer 1 bypassed.
pub(super) fn run(
    code: String,
    valid: &ValidInput,
    limits: &Limits,
    cancel: &CancelFlag,
) -> FigureResult {
    run_checked(&RunContext {
        name: "canary",
        source: &CheckedSource::unchecked_for_canary(code),
        valid,
        limits,
        cancel,
        progress: &|_| {},
        started: Instant::now(),
    })
}

/// The last non-empty line of the worker's stderr: usually the error the code met.
fn last_line(result: &FigureResult) -> String {
    let line = result
        .stderr_tail
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("");
    line.trim().to_owned()
}

fn py(path: &Path) -> String {
    crate::pipeline::script::py_str_literal(&path.to_string_lossy())
}

/// The OS module under the name the canaries use (`posix` has no Windows build; `nt` offers
/// the same `open`/`read`/`write`/`system`).
const OS_IMPORT: &str = os_import(cfg!(windows));

const fn os_import(windows: bool) -> &'static str {
    if windows {
        "import nt as posix"
    } else {
        "import posix"
    }
}

/// Whether the canary's code reached its attempt and met an error there.
fn attempted(result: &FigureResult) -> bool {
    result.stderr_tail.contains("refused")
}

/// The verdict of a canary whose effect is one yes/no seen from outside the worker:
/// contained when the effect did not happen and the code was seen to make its attempt. The
/// evidence is `observed` unless the code never got that far (nothing happened because
/// nothing was tried: that proves nothing and says so).
fn verdict(
    name: &'static str,
    result: &FigureResult,
    happened: bool,
    observed: impl FnOnce() -> String,
) -> CanaryReport {
    let reached = attempted(result);
    CanaryReport {
        name,
        contained: !happened && reached,
        evidence: if !happened && !reached {
            not_attempted(result)
        } else {
            observed()
        },
    }
}

/// The evidence when the code never made its attempt.
pub(super) fn not_attempted(result: &FigureResult) -> String {
    format!(
        "the canary's code did not reach its attempt, so nothing was proven: {}",
        last_line(result)
    )
}

fn write_outside(
    valid: &ValidInput,
    limits: &Limits,
    cancel: &CancelFlag,
    outside: &Path,
) -> CanaryReport {
    let marker = outside.join("written-by-canary.txt");
    let in_src = valid.src.join("written-into-src.txt");
    let code = format!(
        "{OS_IMPORT}\n\
         for target in ({}, {}):\n\
         \x20   try:\n\
         \x20       fd = posix.open(target, posix.O_WRONLY | posix.O_CREAT, 0o644)\n\
         \x20       posix.write(fd, b'x')\n\
         \x20   except OSError as e:\n\
         \x20       print('refused:', e, file=__import__('sys').stderr)\n\
         raise SystemExit(3)\n",
        py(&marker),
        py(&in_src)
    );
    let result = run(code, valid, limits, cancel);
    let absent = !marker.exists() && !in_src.exists();
    verdict("write outside the run directory", &result, !absent, || {
        format!(
            "{} and {} {}: {}",
            marker.display(),
            in_src.display(),
            if absent { "absent" } else { "CREATED" },
            last_line(&result)
        )
    })
}

fn read_outside(
    valid: &ValidInput,
    limits: &Limits,
    cancel: &CancelFlag,
    secret: &Path,
    token: &str,
) -> CanaryReport {
    let code = format!(
        "{OS_IMPORT}, sys\n\
         try:\n\
         \x20   fd = posix.open({}, posix.O_RDONLY)\n\
         \x20   sys.stderr.write(posix.read(fd, 4096).decode())\n\
         except OSError as e:\n\
         \x20   print('refused:', e, file=sys.stderr)\n\
         raise SystemExit(3)\n",
        py(secret)
    );
    let result = run(code, valid, limits, cancel);
    let leaked = result.stderr_tail.contains(token) || result.to_json().contains(token);
    verdict("read a file outside SRC", &result, leaked, || {
        format!(
            "secret {}: {}",
            if leaked {
                "LEAKED"
            } else {
                "not in the output"
            },
            last_line(&result)
        )
    })
}

fn tcp_connect(
    valid: &ValidInput,
    limits: &Limits,
    cancel: &CancelFlag,
) -> Result<CanaryReport, CanarySetupError> {
    let listener = TcpListener::bind("127.0.0.1:0")?;
    listener.set_nonblocking(true)?;
    let port = listener.local_addr()?.port();
    let code = format!(
        "import _socket, sys\n\
         try:\n\
         \x20   s = _socket.socket(_socket.AF_INET, _socket.SOCK_STREAM)\n\
         \x20   s.settimeout(5)\n\
         \x20   s.connect(('127.0.0.1', {port}))\n\
         \x20   s.send(b'canary')\n\
         except OSError as e:\n\
         \x20   print('refused:', e, file=sys.stderr)\n\
         raise SystemExit(3)\n"
    );
    let result = run(code, valid, limits, cancel);
    let connected = match listener.accept() {
        Ok((mut stream, _)) => {
            let mut buf = [0u8; 16];
            let _ = stream.read(&mut buf);
            true
        }
        Err(_) => false,
    };
    Ok(verdict(
        "TCP connect to a local listener",
        &result,
        connected,
        || {
            format!(
                "listener on 127.0.0.1:{port} {}: {}",
                if connected {
                    "WAS REACHED"
                } else {
                    "got no connection"
                },
                last_line(&result)
            )
        },
    ))
}

fn start_program(
    valid: &ValidInput,
    limits: &Limits,
    cancel: &CancelFlag,
    outside: &Path,
) -> CanaryReport {
    // The program would write a marker into `outside`; the worker itself cannot, so the
    // marker's presence could only come from a program that escaped confinement or from
    // the worker having started it unconfined. Inside the worker, each way to start a
    // program is tried and its error recorded.
    let marker = outside.join("started-by-canary.txt");
    let code = program_code(&marker, cfg!(windows));
    let result = run(code, valid, limits, cancel);
    let started = marker.exists();
    let attempts: Vec<&str> = result
        .stderr_tail
        .lines()
        .filter(|l| l.contains("refused") || l.contains("returned"))
        .collect();
    // `system` reports a failed start as status 127 (32512) on Linux and -1 on Windows; a 0
    // (the Windows command exits 0 whenever cmd.exe ran, even if the AppContainer refused
    // its write), a `waitpid` or `CreateProcess` tuple, or `startfile`'s None would mean a
    // program ran.
    let ran = attempts.iter().any(|l| {
        l.ends_with("returned 0") || l.contains("returned (") || l.ends_with("returned None")
    });
    CanaryReport {
        name: "start a program",
        contained: !started && !ran && !attempts.is_empty(),
        evidence: if attempts.is_empty() {
            not_attempted(&result)
        } else {
            format!(
                "marker {} {}; {}",
                marker.display(),
                if started { "WRITTEN" } else { "absent" },
                attempts.join("; ")
            )
        },
    }
}

/// The start-a-program canary's code: every way this OS's Python offers to start a program,
/// each asked to write `marker`, each attempt's result or error printed.
fn program_code(marker: &Path, windows: bool) -> String {
    if windows {
        // cmd.exe's `&` runs `exit 0` whatever the redirection met, so a started cmd.exe
        // shows as "returned 0" even when the AppContainer refused its write.
        format!(
            "import nt as posix, sys, _winapi\n\
             cmd = 'echo started > \"' + {m} + '\" & exit 0'\n\
             comspec = posix.environ.get('SystemRoot', 'C:\\\\Windows') + '\\\\System32\\\\cmd.exe'\n\
             def attempt(what, fn):\n\
             \x20   try:\n\
             \x20       r = fn()\n\
             \x20       print(what, 'returned', r, file=sys.stderr)\n\
             \x20   except OSError as e:\n\
             \x20       print(what, 'refused:', e, file=sys.stderr)\n\
             \x20   except Exception as e:\n\
             \x20       print(what, 'could not try:', repr(e), file=sys.stderr)\n\
             attempt('system', lambda: posix.system(cmd))\n\
             attempt('spawnv', lambda: posix.spawnv(posix.P_WAIT, comspec, ['cmd', '/c', cmd]))\n\
             attempt('CreateProcess', lambda: _winapi.CreateProcess(comspec, 'cmd /c ' + cmd, None, None, False, 0, None, None, type('StartupInfo', (), {{}})()))\n\
             attempt('startfile', lambda: posix.startfile(comspec))\n\
             raise SystemExit(3)\n",
            m = py(marker)
        )
    } else {
        format!(
            "import posix, sys\n\
             cmd = 'echo started > ' + {m}\n\
             def attempt(what, fn):\n\
             \x20   try:\n\
             \x20       r = fn()\n\
             \x20       print(what, 'returned', r, file=sys.stderr)\n\
             \x20   except OSError as e:\n\
             \x20       print(what, 'refused:', e, file=sys.stderr)\n\
             attempt('system', lambda: posix.system(cmd))\n\
             attempt('posix_spawn', lambda: posix.waitpid(posix.posix_spawn('/bin/sh', ['sh', '-c', cmd], {{}}), 0))\n\
             def forked():\n\
             \x20   pid = posix.fork()\n\
             \x20   if pid == 0:\n\
             \x20       posix.execv('/bin/sh', ['sh', '-c', cmd])\n\
             \x20   return posix.waitpid(pid, 0)\n\
             attempt('fork+exec', forked)\n\
             attempt('exec', lambda: posix.execv('/bin/sh', ['sh', '-c', cmd]))\n\
             raise SystemExit(3)\n",
            m = py(marker)
        )
    }
}

fn memory(valid: &ValidInput, limits: &Limits, cancel: &CancelFlag) -> CanaryReport {
    let twice = limits.memory_bytes.saturating_mul(2);
    let code = format!(
        "import sys\n\
         try:\n\
         \x20   block = bytearray({twice})\n\
         \x20   print('allocated', len(block), file=sys.stderr)\n\
         except MemoryError:\n\
         \x20   print('refused: MemoryError', file=sys.stderr)\n\
         raise SystemExit(3)\n"
    );
    let result = run(code, valid, limits, cancel);
    let allocated = result.stderr_tail.contains("allocated");
    verdict(
        "allocate twice the memory limit",
        &result,
        allocated,
        || {
            format!(
                "{} MB requested under a {} MB limit: {}",
                twice >> 20,
                limits.memory_bytes >> 20,
                last_line(&result)
            )
        },
    )
}

const ADMIN: &str = "keep administrator rights";

/// Started by an administrator (root, CI, a container), the worker must not keep its
/// powers. Linux: the kernel's own account of the worker's capabilities (`CapEff`,
/// `CapPrm`, … from `/proc/self/status`) must be all zero, and giving a file of its own run
/// directory away (`chown` to another user, which needs `CAP_CHOWN`) must be refused. macOS: the same
/// `chown`. Windows: opening the System process with all access (needs
/// `SeDebugPrivilege`, an administrator's right) must be refused.
fn admin_rights(valid: &ValidInput, limits: &Limits, cancel: &CancelFlag) -> CanaryReport {
    let result = run(admin_code(cfg!(windows)), valid, limits, cancel);
    let caps: Vec<&str> = result
        .stderr_tail
        .lines()
        .filter_map(|l| l.strip_prefix("capability "))
        .collect();
    let held: Vec<&str> = caps
        .iter()
        .copied()
        .filter(|c| {
            c.split_once('=')
                .is_some_and(|(_, v)| v.trim_start_matches('0').trim() != "")
        })
        // The bounding set of a process that never had capabilities is full (a plain
        // user's): it limits only what an `execve` could gain, and `execve` is denied.
        .filter(|c| running_as_root() || !c.starts_with("CapBnd"))
        .collect();
    let granted = result.stderr_tail.contains("returned");
    let linux_read = !cfg!(target_os = "linux") || caps.iter().any(|c| c.starts_with("CapEff"));
    let contained = held.is_empty() && !granted && attempted(&result) && linux_read;
    CanaryReport {
        name: ADMIN,
        contained,
        evidence: if !attempted(&result) || !linux_read {
            not_attempted(&result)
        } else {
            format!(
                "{}{}: {}",
                if caps.is_empty() {
                    String::new()
                } else {
                    format!("{}; ", caps.join(" "))
                },
                if granted {
                    "the privileged call SUCCEEDED"
                } else {
                    "the privileged call was refused"
                },
                last_line(&result)
            )
        },
    }
}

#[cfg(unix)]
fn running_as_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

#[cfg(not(unix))]
fn running_as_root() -> bool {
    false
}

/// The administrator canary's code for Windows or for the Unix systems.
fn admin_code(windows: bool) -> String {
    if windows {
        // PROCESS_ALL_ACCESS on the System process (id 4).
        "import _winapi, sys\n\
         try:\n\
         \x20   h = _winapi.OpenProcess(0x1F0FFF, False, 4)\n\
         \x20   print('OpenProcess(System) returned', h, file=sys.stderr)\n\
         except OSError as e:\n\
         \x20   print('refused:', e, file=sys.stderr)\n\
         raise SystemExit(3)\n"
            .into()
    } else {
        "import posix, sys\n\
         try:\n\
         \x20   fd = posix.open('/proc/self/status', posix.O_RDONLY)\n\
         \x20   status = posix.read(fd, 1 << 16).decode()\n\
         \x20   for line in status.splitlines():\n\
         \x20       if line.startswith('Cap'):\n\
         \x20           name, value = line.split(':', 1)\n\
         \x20           print('capability ' + name + '=' + value.strip(), file=sys.stderr)\n\
         except OSError as e:\n\
         \x20   print('no /proc/self/status:', e, file=sys.stderr)\n\
         mine = posix.environ[b'TMPDIR'].decode() + '/owned-by-canary.txt'\n\
         posix.close(posix.open(mine, posix.O_WRONLY | posix.O_CREAT, 0o600))\n\
         try:\n\
         \x20   posix.chown(mine, 1, 1)\n\
         \x20   print('chown to another user returned', file=sys.stderr)\n\
         except OSError as e:\n\
         \x20   print('refused:', e, file=sys.stderr)\n\
         raise SystemExit(3)\n"
            .into()
    }
}

const INHERITED: &str = "read an inherited descriptor";

/// The host holds the secret open without close-on-exec while the worker starts (as a
/// shell's redirection or an IDE's pipe would), numbered high so that nothing the worker
/// opens itself takes its number; the worker tries to read it by that number. Contained
/// when the read fails and the secret is not in the output.
fn inherited_descriptor(
    valid: &ValidInput,
    limits: &Limits,
    cancel: &CancelFlag,
    secret: &Path,
    token: &str,
) -> Result<CanaryReport, CanarySetupError> {
    let file = std::fs::File::open(secret)?;
    let (inherited, number) = inheritable(&file)?;
    let code = inherited_code(number, cfg!(windows));
    let result = run(code, valid, limits, cancel);
    drop(inherited);
    let leaked = result.stderr_tail.contains(token) || result.to_json().contains(token);
    Ok(verdict(INHERITED, &result, leaked, || {
        format!(
            "descriptor {number}, held open by the host: secret {}: {}",
            if leaked {
                "LEAKED"
            } else {
                "not in the output"
            },
            last_line(&result)
        )
    }))
}

/// A copy of `file` that a started process inherits: without close-on-exec, at 900 or
/// above.
#[cfg(unix)]
fn inheritable(file: &std::fs::File) -> std::io::Result<(std::fs::File, usize)> {
    use std::os::fd::{AsRawFd, FromRawFd};
    // SAFETY: F_DUPFD on a descriptor we own returns a new one (or -1), which the File
    // below then owns alone.
    let fd = unsafe { libc::fcntl(file.as_raw_fd(), libc::F_DUPFD, 900) };
    if fd < 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: `fd` was just created and nothing else owns it.
    let copy = unsafe { std::fs::File::from_raw_fd(fd) };
    Ok((copy, fd as usize))
}

/// A copy of `file` whose handle is inheritable (the runner's `CreateProcess` inherits
/// handles; the AppContainer worker's launcher passes only its standard three).
#[cfg(windows)]
fn inheritable(file: &std::fs::File) -> std::io::Result<(std::fs::File, usize)> {
    use std::os::windows::io::AsRawHandle;
    use windows_sys::Win32::Foundation::{HANDLE_FLAG_INHERIT, SetHandleInformation};
    let copy = file.try_clone()?;
    // SAFETY: a valid handle owned by `copy`, which outlives the call.
    if unsafe {
        SetHandleInformation(
            copy.as_raw_handle(),
            HANDLE_FLAG_INHERIT,
            HANDLE_FLAG_INHERIT,
        )
    } == 0
    {
        return Err(std::io::Error::last_os_error());
    }
    let number = copy.as_raw_handle() as usize;
    Ok((copy, number))
}

/// The inherited-descriptor canary's code: read descriptor (Windows: handle) `number`.
fn inherited_code(number: usize, windows: bool) -> String {
    let open = if windows {
        format!("import msvcrt, nt as posix\nfd = msvcrt.open_osfhandle({number}, 0)\n")
    } else {
        format!("import posix\nfd = {number}\n")
    };
    format!(
        "import sys\n\
         try:\n\
         {}\
         \x20   sys.stderr.write('read: ' + posix.read(fd, 4096).decode(errors='replace') + '\\n')\n\
         except OSError as e:\n\
         \x20   print('refused:', e, file=sys.stderr)\n\
         raise SystemExit(3)\n",
        open.lines()
            .map(|l| format!("    {l}\n"))
            .collect::<String>()
    )
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    pub(in crate::selftest) fn parses(code: &str) {
        if let Err(e) = rustpython_parser::parse(code, rustpython_parser::Mode::Module, "<canary>")
        {
            panic!("canary code does not parse: {e}\n{code}");
        }
    }

    #[test]
    fn the_program_canary_is_valid_python_on_every_os_and_tries_every_way() {
        let marker = Path::new(r"C:\Users\u\AppData\Local\Temp\x y\started-by-canary.txt");
        let windows = program_code(marker, true);
        parses(&windows);
        assert!(windows.starts_with("import nt as posix"));
        for way in ["'system'", "'spawnv'", "'CreateProcess'", "'startfile'"] {
            assert!(windows.contains(&format!("attempt({way}")), "{way}");
        }
        assert!(
            windows.contains(&py(marker)),
            "the marker path reaches the code intact"
        );
        let linux = program_code(Path::new("/tmp/x/started-by-canary.txt"), false);
        parses(&linux);
        for way in ["'system'", "'posix_spawn'", "'fork+exec'", "'exec'"] {
            assert!(linux.contains(&format!("attempt({way}")), "{way}");
        }
        assert!(linux.starts_with("import posix, sys\n"), "{linux}");
    }

    #[test]
    fn the_os_module_line_parses_on_every_os() {
        for windows in [true, false] {
            parses(&format!("{}, sys\nposix.open\n", os_import(windows)));
        }
        assert_eq!(os_import(false), "import posix");
    }

    #[test]
    fn the_two_host_canaries_are_valid_python_on_every_os() {
        for windows in [true, false] {
            parses(&admin_code(windows));
            let code = inherited_code(901, windows);
            parses(&code);
            assert!(code.contains("901"), "{code}");
        }
        assert!(admin_code(false).contains("posix.chown"));
        assert!(admin_code(true).contains("OpenProcess"));
    }
}
