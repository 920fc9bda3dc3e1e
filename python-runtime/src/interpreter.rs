//! The embedded CPython: started from an explicit `PyConfig`, never from the environment.
//!
//! pyo3 is used without `auto-initialize` because its default start-up reads `PYTHONHOME`,
//! `PYTHONPATH`, the user site and the current directory — everything `python -I` turns off.
//! Here the worker builds the isolated configuration itself, with `home` = the bundled
//! runtime, so the frozen app keeps every guarantee of `python -I`.

use pyo3::exceptions::{PyRuntimeError, PySystemExit};
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyCFunction, PyDict};
use std::ffi::{CStr, OsStr};
use std::mem::MaybeUninit;
use std::path::{Path, PathBuf};

/// The exit status of a script that raised an uncaught exception (as `python script.py`).
pub const EXIT_EXCEPTION: i32 = 1;
/// CPython's status when flushing stdout/stderr failed at shutdown (as `python script.py`).
pub const EXIT_FLUSH_FAILED: i32 = 120;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(
        "the Python runtime at `{}` is incomplete: none of {} exists; rebuild it with \
         `scripts/build-runtime` (development) or reinstall PDFAgent",
        runtime.display(),
        landmarks.iter().map(|p| format!("`{}`", p.display())).collect::<Vec<_>>().join(", ")
    )]
    Incomplete {
        runtime: PathBuf,
        landmarks: Vec<PathBuf>,
    },
    #[error("the path `{}` contains a NUL byte and cannot be given to Python", .0.display())]
    NulInPath(PathBuf),
    #[error(
        "could not start the Python runtime at `{}`: {step} failed: {message}",
        runtime.display()
    )]
    Init {
        runtime: PathBuf,
        step: &'static str,
        message: String,
    },
}

/// What `getpath` needs to find the standard library under `home` (either suffices: `.py`
/// sources, or sources stripped to `.pyc` as the runtime builder ships them).
pub fn stdlib_landmarks(runtime: &Path) -> Vec<PathBuf> {
    let minor = env!("PDFAGENT_PYTHON_MINOR");
    if cfg!(windows) {
        vec![runtime.join("Lib/os.py"), runtime.join("Lib/os.pyc")]
    } else {
        vec![
            runtime.join(format!("lib/python3.{minor}/os.py")),
            runtime.join(format!("lib/python3.{minor}/os.pyc")),
        ]
    }
}

/// A Rust function handed to the script as a global (see [`run_script`]): called from
/// Python with a string and an integer, it returns a string or raises `RuntimeError` with
/// the error's message.
pub type ScriptFunction<E> = fn(&str, i64) -> Result<String, E>;

/// Start the interpreter from `runtime`, run `script` as `__main__` with `init_globals`
/// (string values) and `functions` pre-set, shut the interpreter down, and return the exit status:
/// 0, `SystemExit(n)` → n (`None` → 0, anything else → printed and 1), an uncaught
/// exception → its traceback on stderr and 1. `executable` becomes `sys.executable`
/// (taken by the caller before confinement, when `/proc/self/exe` may still be read).
///
/// Call at most once per process, from the main thread (signal handlers are installed
/// there), before any other thread exists.
pub fn run_script<E: std::fmt::Display + 'static>(
    runtime: &Path,
    executable: &Path,
    script: &Path,
    init_globals: &[(&str, &str)],
    functions: &[(&str, ScriptFunction<E>)],
) -> Result<i32, Error> {
    let landmarks = stdlib_landmarks(runtime);
    if !landmarks.iter().any(|p| p.exists()) {
        return Err(Error::Incomplete {
            runtime: runtime.to_path_buf(),
            landmarks,
        });
    }

    // Python's home, `sys.executable` and `sys.argv[0]` without Windows's verbatim `\\?\`
    // prefix: `sys.prefix`, `sys.path` and every `__file__` derive from them
    // (`plain_path`; `locate` already returns the runtime plain).
    let (runtime, executable, script) = (
        crate::plain_path::plain_ref(runtime),
        crate::plain_path::plain_ref(executable),
        crate::plain_path::plain_ref(script),
    );
    let (runtime, executable, script) = (runtime.as_path(), executable.as_path(), script.as_path());
    // SAFETY: called once, before Python exists in this process; every PyConfig is
    // initialised by CPython's own *_Init* function and cleared on drop.
    unsafe {
        pre_initialize(runtime)?;
        initialize(runtime, executable, script)?;
    }
    Ok(Python::attach(|py| {
        let code = run_main(py, script, init_globals, functions);
        let flushed = shut_down(py);
        if !flushed && code == 0 {
            EXIT_FLUSH_FAILED
        } else {
            code
        }
    }))
}

/// The parts of `Py_FinalizeEx` a one-shot worker needs — wait for Python threads, run
/// `atexit` handlers, flush stdout/stderr — without tearing down every module and object:
/// with numpy, scipy, pandas and matplotlib loaded that teardown measured ~0.4 s of a
/// ~1.3 s figure run here, and the process exits right after anyway. (What is lost: `__del__`
/// of objects still alive at exit; files the script left open are flushed by their
/// finalisers only — the worker's own output goes through `plt.savefig`, which closes.)
/// Returns false when flushing stdout/stderr failed, as `Py_FinalizeEx` would report.
fn shut_down(py: Python<'_>) -> bool {
    let steps = || -> PyResult<()> {
        let sys = py.import("sys")?;
        if sys.getattr("modules")?.contains("threading")? {
            py.import("threading")?.call_method0("_shutdown")?;
        }
        py.import("atexit")?.call_method0("_run_exitfuncs")?;
        Ok(())
    };
    if let Err(err) = steps() {
        err.print(py);
    }
    let mut flushed = true;
    for stream in ["stdout", "stderr"] {
        let result = py
            .import("sys")
            .and_then(|sys| sys.getattr(stream))
            .and_then(|s| {
                if s.is_none() {
                    Ok(s)
                } else {
                    s.call_method0("flush")
                }
            });
        if result.is_err() {
            flushed = false;
        }
    }
    flushed
}

/// UTF-8 mode first: under the empty environment the worker gets, the C locale would give
/// an ASCII filesystem encoding and every non-ASCII data path would fail to decode.
///
/// # Safety
/// Call once per process, before any other Python API call.
unsafe fn pre_initialize(runtime: &Path) -> Result<(), Error> {
    let mut pre = MaybeUninit::<ffi::PyPreConfig>::zeroed();
    // SAFETY: PyPreConfig_InitIsolatedConfig fills every field of the zeroed struct.
    let status = unsafe {
        ffi::PyPreConfig_InitIsolatedConfig(pre.as_mut_ptr());
        let mut pre = pre.assume_init();
        pre.utf8_mode = 1;
        ffi::Py_PreInitialize(&pre)
    };
    check(status, runtime, "Py_PreInitialize")
}

/// Start the interpreter from an isolated `PyConfig` with `home` = `runtime`.
///
/// # Safety
/// Call once per process, after [`pre_initialize`] succeeded and before Python exists, from
/// the thread that will run Python.
unsafe fn initialize(runtime: &Path, exe: &Path, script: &Path) -> Result<(), Error> {
    let mut config = Config::isolated();
    let c = config.as_mut_ptr();
    // SAFETY: `c` points at a live, initialised PyConfig owned by `config`.
    unsafe {
        // The isolated preset already sets these; spelled out because they are the point.
        (*c).isolated = 1;
        (*c).use_environment = 0;
        (*c).user_site_directory = 0;
        (*c).safe_path = 1;
        (*c).parse_argv = 0;
        (*c).site_import = 1;
        // The preset turns signal handlers off (right for a library, wrong for a worker:
        // SIGINT must become KeyboardInterrupt, SIGPIPE must not kill a print loop).
        (*c).install_signal_handlers = 1;
        // The runtime is read-only for the worker (and shipped with its own .pyc).
        (*c).write_bytecode = 0;
        // `python -OO`: the runtime's libraries are compiled without docstrings (an import
        // no longer unmarshals and formats them: measured ≈ a third of a cold worker's
        // start), and the flag tells them so — scipy, numpy and matplotlib then skip
        // building docstrings at import, as they are tested to under -OO. The figure code
        // itself is compiled with its asserts kept (`optimize=0` in preamble.py).
        (*c).optimization_level = 2;

        set_string(c, &raw mut (*c).home, runtime.as_os_str(), runtime, "home")?;
        set_string(
            c,
            &raw mut (*c).program_name,
            exe.as_os_str(),
            runtime,
            "program_name",
        )?;
        set_string(
            c,
            &raw mut (*c).executable,
            exe.as_os_str(),
            runtime,
            "executable",
        )?;
        set_argv(c, script, runtime)?;
        check(
            ffi::Py_InitializeFromConfig(c),
            runtime,
            "Py_InitializeFromConfig",
        )
    }
}

/// Owns a `PyConfig` and clears it on every path.
struct Config(Box<ffi::PyConfig>);

impl Config {
    fn isolated() -> Self {
        // SAFETY: zeroed then filled by CPython; the Box keeps the address stable.
        unsafe {
            let mut raw: Box<MaybeUninit<ffi::PyConfig>> = Box::new(MaybeUninit::zeroed());
            ffi::PyConfig_InitIsolatedConfig(raw.as_mut_ptr());
            Config(Box::from_raw(Box::into_raw(raw).cast::<ffi::PyConfig>()))
        }
    }

    fn as_mut_ptr(&mut self) -> *mut ffi::PyConfig {
        &mut *self.0
    }
}

impl Drop for Config {
    fn drop(&mut self) {
        // SAFETY: the config was initialised by PyConfig_InitIsolatedConfig.
        unsafe { ffi::PyConfig_Clear(self.as_mut_ptr()) }
    }
}

/// Set one string field of `config` to `value`.
///
/// # Safety
/// `config` points to a live, initialised `PyConfig` and `field` to one of its `wchar_t*`
/// fields; after [`pre_initialize`].
#[cfg(unix)]
unsafe fn set_string(
    config: *mut ffi::PyConfig,
    field: *mut *mut libc::wchar_t,
    value: &OsStr,
    runtime: &Path,
    name: &'static str,
) -> Result<(), Error> {
    use std::os::unix::ffi::OsStrExt;
    let value = std::ffi::CString::new(value.as_bytes())
        .map_err(|_| Error::NulInPath(PathBuf::from(value)))?;
    // SAFETY: after Py_PreInitialize (UTF-8 mode), CPython decodes the bytes as UTF-8
    // with surrogateescape, so any Unix path round-trips.
    let status = unsafe { ffi::PyConfig_SetBytesString(config, field, value.as_ptr()) };
    check(status, runtime, name)
}

/// Set one string field of `config` to `value`.
///
/// # Safety
/// `config` points to a live, initialised `PyConfig` and `field` to one of its `wchar_t*`
/// fields; after [`pre_initialize`].
#[cfg(windows)]
unsafe fn set_string(
    config: *mut ffi::PyConfig,
    field: *mut *mut libc::wchar_t,
    value: &OsStr,
    runtime: &Path,
    name: &'static str,
) -> Result<(), Error> {
    let wide = to_wide(value)?;
    // SAFETY: `wide` is NUL-terminated UTF-16, which is what wchar_t is on Windows.
    let status = unsafe { ffi::PyConfig_SetString(config, field, wide.as_ptr().cast()) };
    check(status, runtime, name)
}

#[cfg(windows)]
fn to_wide(value: &OsStr) -> Result<Vec<u16>, Error> {
    use std::os::windows::ffi::OsStrExt;
    let wide: Vec<u16> = value.encode_wide().collect();
    if wide.contains(&0) {
        return Err(Error::NulInPath(PathBuf::from(value)));
    }
    Ok(wide.into_iter().chain([0]).collect())
}

/// `sys.argv == [script]`, as `python script.py` would have it.
///
/// # Safety
/// `config` points to a live, initialised `PyConfig`; after [`pre_initialize`].
#[cfg(unix)]
unsafe fn set_argv(config: *mut ffi::PyConfig, script: &Path, runtime: &Path) -> Result<(), Error> {
    use std::os::unix::ffi::OsStrExt;
    let arg = std::ffi::CString::new(script.as_os_str().as_bytes())
        .map_err(|_| Error::NulInPath(script.to_path_buf()))?;
    let mut argv = [arg.as_ptr()];
    // SAFETY: one valid NUL-terminated string; CPython copies it.
    let status = unsafe { ffi::PyConfig_SetBytesArgv(config, 1, argv.as_mut_ptr()) };
    check(status, runtime, "argv")
}

/// `sys.argv == [script]`, as `python script.py` would have it.
///
/// # Safety
/// `config` points to a live, initialised `PyConfig`; after [`pre_initialize`].
#[cfg(windows)]
unsafe fn set_argv(config: *mut ffi::PyConfig, script: &Path, runtime: &Path) -> Result<(), Error> {
    let arg = to_wide(script.as_os_str())?;
    let mut argv = [arg.as_ptr().cast::<libc::wchar_t>()];
    // SAFETY: one valid NUL-terminated wide string; CPython copies it.
    let status = unsafe { ffi::PyConfig_SetArgv(config, 1, argv.as_mut_ptr()) };
    check(status, runtime, "argv")
}

fn check(status: ffi::PyStatus, runtime: &Path, step: &'static str) -> Result<(), Error> {
    // SAFETY: PyStatus is a plain value; its strings are static C strings or NULL.
    unsafe {
        if ffi::PyStatus_Exception(status) == 0 {
            return Ok(());
        }
        let text = |p: *const std::ffi::c_char| {
            (!p.is_null()).then(|| CStr::from_ptr(p).to_string_lossy().into_owned())
        };
        let message = if ffi::PyStatus_IsExit(status) != 0 {
            format!("Python asked to exit with status {}", status.exitcode)
        } else {
            match (text(status.func), text(status.err_msg)) {
                (Some(func), Some(msg)) => format!("{func}: {msg}"),
                (None, Some(msg)) => msg,
                (Some(func), None) => func,
                (None, None) => "no reason given".into(),
            }
        };
        Err(Error::Init {
            runtime: runtime.to_path_buf(),
            step,
            message,
        })
    }
}

fn run_main<E: std::fmt::Display + 'static>(
    py: Python<'_>,
    script: &Path,
    init_globals: &[(&str, &str)],
    functions: &[(&str, ScriptFunction<E>)],
) -> i32 {
    let result = (|| -> PyResult<()> {
        let globals = PyDict::new(py);
        for (name, value) in init_globals {
            globals.set_item(name, value)?;
        }
        for (name, function) in functions {
            let function = *function;
            let callable = PyCFunction::new_closure(py, None, None, move |args, _kwargs| {
                let (text, number): (String, i64) = args.extract()?;
                function(&text, number).map_err(|e| PyRuntimeError::new_err(e.to_string()))
            })?;
            globals.set_item(name, callable)?;
        }
        let kwargs = PyDict::new(py);
        kwargs.set_item("init_globals", globals)?;
        kwargs.set_item("run_name", "__main__")?;
        py.import("runpy")?
            .call_method("run_path", (script.as_os_str(),), Some(&kwargs))?;
        Ok(())
    })();
    match result {
        Ok(()) => 0,
        Err(err) => exit_status(py, err),
    }
}

/// Map what the script raised to an exit status the way `python script.py` does.
fn exit_status(py: Python<'_>, err: PyErr) -> i32 {
    if !err.is_instance_of::<PySystemExit>(py) {
        without_runpy_frames(py, err).print(py);
        return EXIT_EXCEPTION;
    }
    let code = match err.value(py).getattr("code") {
        Ok(code) => code,
        Err(_) => return EXIT_EXCEPTION,
    };
    if code.is_none() {
        return 0;
    }
    if let Ok(n) = code.extract::<i32>() {
        return n;
    }
    // `sys.exit("message")`: the message goes to stderr and the status is 1.
    let printed = (|| -> PyResult<()> {
        let kwargs = PyDict::new(py);
        kwargs.set_item("file", py.import("sys")?.getattr("stderr")?)?;
        py.import("builtins")?
            .getattr("print")?
            .call((code,), Some(&kwargs))?;
        Ok(())
    })();
    if let Err(e) = printed {
        e.print(py);
    }
    EXIT_EXCEPTION
}

/// The traceback as `python script.py` shows it: the first frames are runpy's own
/// (`<frozen runpy>`), which say nothing to whoever fixes the script and eat into the
/// capped stderr tail that goes back to the model.
fn without_runpy_frames(py: Python<'_>, err: PyErr) -> PyErr {
    let trimmed = (|| -> PyResult<()> {
        let mut tb = err.value(py).getattr("__traceback__")?;
        while !tb.is_none() {
            let file: String = tb
                .getattr("tb_frame")?
                .getattr("f_code")?
                .getattr("co_filename")?
                .extract()?;
            if file != "<frozen runpy>" {
                break;
            }
            tb = tb.getattr("tb_next")?;
        }
        if !tb.is_none() {
            err.value(py).setattr("__traceback__", tb)?;
        }
        Ok(())
    })();
    // Trimming is cosmetic: on any surprise, keep the full traceback. A new PyErr, because
    // on Python < 3.12 pyo3 keeps the traceback beside the value, not in it.
    match trimmed {
        Ok(()) => PyErr::from_value(err.value(py).clone().into_any()),
        Err(_) => err,
    }
}
