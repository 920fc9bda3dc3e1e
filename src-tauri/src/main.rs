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
    // The worker path comes first, before anything else starts (see ARCHITECTURE.md).
    if let Some(code) = python_runtime::worker::run_if_requested() {
        std::process::exit(code)
    }
    // No arguments: the double-click case opens the window.
    if std::env::args_os().len() <= 1 {
        std::process::exit(window::open(None));
    }
    windows_console::attach_parent_console();
    std::process::exit(cli::run());
}
