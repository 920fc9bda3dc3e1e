//! What identifies an unchanged file, read from an open handle: device, file id, size,
//! modification and change times — the key of the input-hash cache (`hashes.rs`). One file
//! per operating system: `unix.rs` (`fstat`, and `fstatfs` for the file system's kind),
//! `windows.rs` (`GetFileInformationByHandleEx`, `GetVolumeInformationByHandleW`).
//!
//! [`identify`] answers `None` when the file sits on a file system whose ids or times cannot
//! be trusted to change with the content (FAT, exFAT, network and FUSE file systems, and
//! anything not known): such files are hashed every time.

#[cfg(unix)]
mod unix;
#[cfg(windows)]
mod windows;

#[cfg(unix)]
use unix as os;
#[cfg(windows)]
use windows as os;

use serde::{Deserialize, Serialize};

/// A file as the operating system describes it. Two equal identities taken at different
/// moments mean the same, unchanged file only outside the racy window (`hashes.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Identity {
    /// `st_dev`; on Windows the volume serial number.
    pub device: u64,
    /// `st_ino` in the low half; on Windows the 128-bit file id.
    pub file_id: [u64; 2],
    pub size: u64,
    /// Nanoseconds since the Unix epoch.
    pub modified_ns: i64,
    /// The inode's change time (`st_ctime`; Windows' `ChangeTime`), in nanoseconds since the
    /// Unix epoch: it moves on every write, rename and metadata change, and cannot be set
    /// back by the user the way the modification time can.
    pub changed_ns: i64,
}

impl Identity {
    /// The later of the two times: what the racy-clean rule compares with.
    pub fn newest_ns(&self) -> i64 {
        self.modified_ns.max(self.changed_ns)
    }
}

/// The identity of the open `file`, or `None` when its file system is not one where an
/// unchanged identity means unchanged content.
pub fn identify(file: &std::fs::File) -> Option<Identity> {
    if !os::stable_file_system(file) {
        return None;
    }
    os::identity(file)
}
