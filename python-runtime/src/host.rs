//! What every host — the command line, the MCP server, the window — does when it starts,
//! in one place: the process globals the engine keeps, and the clean-up of what hosts that
//! died mid-save left in the figures folder. (The window's library calls it too: on Linux
//! it is loaded into the window's process with its own copy of the engine's state.)

use crate::install_identity;
use crate::pipeline::figures::{provenance::hashes, temp};
use std::path::Path;

pub use crate::install_identity::Host;

/// Start a host: call it first thing, before any figure is made, with the figures folder
/// the host starts on when it knows one. Sets this process's globals (later calls change
/// none of them):
/// - the input-hash cache's folder, `<data dir>/pdfagent/hashes`, so figures made from the
///   command line, the MCP server and the window share the hashes of unchanged data;
/// - for the long-lived hosts (the window, the MCP server), the installation they started
///   from ([`install_identity::remember`]): an update while they run is then told apart from
///   a broken installation. The one-shot command line is taken to start at its first worker.
///
/// Then removes from `figures` the temporary files of hosts that are no longer running
/// (killed mid-save on a system or file system without unnamed files), never a live
/// host's: it may be saving into the same folder now.
pub fn init(host: Host, figures: Option<&Path>) {
    hashes::use_host_dir(dirs::data_local_dir().map(hashes::dir_in));
    if host != Host::CommandLine {
        install_identity::remember(host);
    }
    if let Some(figures) = figures {
        use_figures_folder(figures);
    }
}

/// A host starts saving into `figures` (at start, or when the window's Settings or a newly
/// opened data folder name another one): remove the temporary files hosts that are no
/// longer running left there, never a live host's.
pub fn use_figures_folder(figures: &Path) {
    temp::remove_dead_hosts_temporaries(figures);
}
