//! `pdfagent grant-runtime` (hidden): the Windows installer's post-install step
//! (`src-tauri/windows/hooks.nsh`). Gives the worker's AppContainer its lasting read access
//! to this installation (the executable, its loader DLLs, `runtime\`) now, so the first
//! figure's start does not wait on Windows rewriting the permissions of every runtime file
//! (issue 45). A start that finds the grant unfinished (no completion marker: the installer
//! was interrupted, or this step failed) makes it then, before the run's timer starts.
//! Elsewhere there is nothing to grant.

#[derive(Debug, clap::Args)]
pub struct GrantRuntimeArgs {}

/// Exit status when the grant could not be made (the first start will try again).
#[cfg(windows)]
pub const EXIT_FAILED: i32 = 1;

pub fn run(_args: GrantRuntimeArgs) -> i32 {
    #[cfg(windows)]
    {
        match python_runtime::grant_installation() {
            Ok(lines) => {
                for line in lines {
                    outln!("{line}");
                }
                0
            }
            Err(why) => {
                eprintln!(
                    "pdfagent grant-runtime: {why}; the first figure will make the grant instead"
                );
                EXIT_FAILED
            }
        }
    }
    #[cfg(not(windows))]
    {
        outln!("nothing to grant on this system: only Windows grants the worker its runtime");
        0
    }
}
