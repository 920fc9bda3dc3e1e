//! The one PDFAgent executable: worker (PDFAGENT_PYRUN), command line, or window (the
//! `pdfagent_window` library of this package; on Linux loaded only to open a window, see
//! window.rs).

// A double-clicked release build on Windows must not open a console window; the command line
// attaches to the terminal it was started from instead (windows_console.rs).
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

mod cli;
mod mcp;
mod signals;
mod window;
mod windows_console;

fn main() {
    // The worker path comes first, before anything else starts (see docs/architecture.md).
    if let Some(code) = python_runtime::run_if_requested() {
        std::process::exit(code)
    }
    ignore_file_size_signal();
    // No arguments: the double-click case opens the window.
    if std::env::args_os().len() <= 1 {
        std::process::exit(window::open(None));
    }
    windows_console::attach_parent_console();
    std::process::exit(cli::run());
}

/// Every host (the window, the MCP server, the command line, the selftest) ignores SIGXFSZ:
/// a write past a file-size limit — one the host was started under, or one a worker got
/// around its filter to set on its host — then fails with EFBIG, which reaches the user as
/// an error with a sentence, instead of killing the host halfway through writing a figure.
/// Workers inherit the ignored disposition across `execve`, as Python would set it anyway:
/// a worker's write past its own limit is an `OSError` its code sees.
#[cfg(unix)]
fn ignore_file_size_signal() {
    // SAFETY: SIG_IGN for SIGXFSZ installs no handler code; called from `main` before any
    // thread starts.
    unsafe { libc::signal(libc::SIGXFSZ, libc::SIG_IGN) };
}

#[cfg(not(unix))]
fn ignore_file_size_signal() {}
