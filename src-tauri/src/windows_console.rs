//! Windows only: let the command-line subcommands print when started from a terminal.
//!
//! The release executable is a GUI-subsystem program (no console window flashes up when the
//! app is double-clicked), and such a program starts with no console: `pdfagent selftest`
//! typed in PowerShell would print nothing. When there are arguments we attach to the
//! console of the process that started us, if it has one. Redirected handles (`> out.json`,
//! pipes in CI) are inherited as they are and keep working either way. The worker's stderr
//! is a pipe the parent reads (python_runtime::runner), so it needs no console.

/// Attach to the parent's console when started with arguments (no-op elsewhere).
pub fn attach_parent_console() {
    #[cfg(windows)]
    {
        // kernel32 (always linked on Windows); no extra crate for one call.
        unsafe extern "system" {
            fn AttachConsole(process_id: u32) -> i32;
        }
        /// `ATTACH_PARENT_PROCESS` ((DWORD)-1) in wincon.h.
        const ATTACH_PARENT_PROCESS: u32 = u32::MAX;
        if std::env::args_os().len() > 1 {
            // Fails when the parent has no console (Explorer) or we already have one
            // (debug builds are console programs): nothing to do then.
            // SAFETY: a plain Win32 call with a constant argument.
            let _ = unsafe { AttachConsole(ATTACH_PARENT_PROCESS) };
        }
    }
}
