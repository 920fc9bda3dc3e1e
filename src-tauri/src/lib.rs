//! The window, as a library of its own (`pdfagent_window`).
//!
//! On Linux it is built as `libpdfagent_window.so` and loaded by the executable only when it
//! opens a window (`src/window.rs`): WebKitGTK, GTK and the ~170 libraries they pull in are
//! then mapped into the window's process alone. The worker, the command line and the MCP
//! server — the same executable — start without them (≈ 77 ms less per process start, a
//! smaller worker, none of their constructors running before the worker confines itself),
//! and run on a machine without a desktop stack. On Windows and macOS the executable links
//! this library as before (their web views are the system's and load lazily).
//!
//! The one entry point across the library boundary is [`pdfagent_window_run`] (plain C ABI:
//! the executable and this library each carry their own copy of the Rust code they use, so
//! nothing but bytes and integers crosses it), guarded by [`pdfagent_window_version`].

mod app;
mod signals;
mod mcp {
    pub mod config;
}

use std::ffi::c_char;
use std::path::PathBuf;

/// Open the window; `folder` (from `--open DIR`) replaces the remembered data folder.
/// Returns the process exit status. (Called directly where the window is linked.)
pub fn run(folder: Option<PathBuf>) -> i32 {
    app::run(folder)
}

/// `VERSION` as a NUL-terminated string, for [`pdfagent_window_version`].
const VERSION_C: &str = concat!(env!("CARGO_PKG_VERSION"), "\0");

/// This library's version. The executable loads a library only of its own version: an old
/// `libpdfagent_window.so` left next to a newer executable is refused in words instead of
/// being called.
#[unsafe(no_mangle)]
pub extern "C" fn pdfagent_window_version() -> *const c_char {
    VERSION_C.as_ptr().cast()
}

/// Open the window. `folder`/`folder_len` are the bytes of the `--open` folder's path (as the
/// OS gave them; `folder` null: none). Returns the process exit status; a panic in the
/// window is reported as status 101, as it would be in the executable, instead of unwinding
/// across the C boundary.
///
/// # Safety
/// `folder` is null or points to `folder_len` readable bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pdfagent_window_run(folder: *const u8, folder_len: usize) -> i32 {
    let folder = (!folder.is_null()).then(|| {
        // SAFETY: the caller passes a valid (pointer, length) pair, per this function's contract.
        let bytes = unsafe { std::slice::from_raw_parts(folder, folder_len) };
        path_from_bytes(bytes)
    });
    std::panic::catch_unwind(|| run(folder)).unwrap_or(101)
}

#[cfg(unix)]
fn path_from_bytes(bytes: &[u8]) -> PathBuf {
    use std::os::unix::ffi::OsStrExt;
    PathBuf::from(std::ffi::OsStr::from_bytes(bytes))
}

// Only Linux loads the library through the C entry point; elsewhere `run` is called
// directly and this is never reached with a non-UTF-8 path.
#[cfg(not(unix))]
fn path_from_bytes(bytes: &[u8]) -> PathBuf {
    PathBuf::from(String::from_utf8_lossy(bytes).into_owned())
}
