//! File identity on Linux and macOS: `fstat` for the key, `fstatfs` for whether the file
//! system keeps stable inode numbers and fine times of its own (local disks; not FAT,
//! exFAT, network or FUSE file systems, whose inode numbers may be made up per mount and
//! whose times may be coarse or another machine's).

use super::Identity;
use std::os::fd::AsRawFd;
use std::os::unix::fs::MetadataExt;

pub(super) fn identity(file: &std::fs::File) -> Option<Identity> {
    let meta = file.metadata().ok()?;
    if !meta.is_file() {
        return None;
    }
    Some(Identity {
        device: meta.dev(),
        file_id: [meta.ino(), 0],
        size: meta.len(),
        modified_ns: nanos(meta.mtime(), meta.mtime_nsec())?,
        changed_ns: nanos(meta.ctime(), meta.ctime_nsec())?,
    })
}

fn nanos(secs: i64, nsec: i64) -> Option<i64> {
    secs.checked_mul(1_000_000_000)?.checked_add(nsec)
}

/// Linux: the file systems whose magic numbers (`statfs(2)`) say local disk or memory with
/// persistent inode numbers. ext2/3/4 share one magic; ext4 with small inodes keeps whole
/// seconds, which the cache's racy window (2 s) covers.
#[cfg(target_os = "linux")]
pub(super) fn stable_file_system(file: &std::fs::File) -> bool {
    const STABLE: [i64; 7] = [
        0xEF53,      // ext2/ext3/ext4
        0x9123_683E, // btrfs
        0x5846_5342, // xfs
        0x0102_1994, // tmpfs
        0xF2F5_2010, // f2fs
        0x2FC1_2FC1, // zfs
        0xCA45_1A4E, // bcachefs
    ];
    let mut stat = std::mem::MaybeUninit::<libc::statfs>::zeroed();
    // SAFETY: the descriptor is open for the borrow of `file`; `stat` is a writable statfs.
    let rc = unsafe { libc::fstatfs(file.as_raw_fd(), stat.as_mut_ptr()) };
    if rc != 0 {
        return false;
    }
    // SAFETY: fstatfs returned 0, so it filled `stat`.
    let stat = unsafe { stat.assume_init() };
    #[allow(clippy::unnecessary_cast)] // f_type is i64 on some targets, u32/i32 on others
    let kind = stat.f_type as i64;
    STABLE.contains(&kind)
}

/// macOS: APFS and HFS+ by name (`f_fstypename`), local volumes only (`MNT_LOCAL`). HFS+
/// keeps whole seconds, which the cache's racy window (2 s) covers.
#[cfg(target_os = "macos")]
pub(super) fn stable_file_system(file: &std::fs::File) -> bool {
    let mut stat = std::mem::MaybeUninit::<libc::statfs>::zeroed();
    // SAFETY: the descriptor is open for the borrow of `file`; `stat` is a writable statfs.
    let rc = unsafe { libc::fstatfs(file.as_raw_fd(), stat.as_mut_ptr()) };
    if rc != 0 {
        return false;
    }
    // SAFETY: fstatfs returned 0, so it filled `stat`.
    let stat = unsafe { stat.assume_init() };
    if stat.f_flags & (libc::MNT_LOCAL as u32) == 0 {
        return false;
    }
    let name: Vec<u8> = stat
        .f_fstypename
        .iter()
        .take_while(|&&c| c != 0)
        .map(|&c| c as u8)
        .collect();
    matches!(name.as_slice(), b"apfs" | b"hfs")
}

/// Other Unix systems: not known, so not cached.
#[cfg(not(any(target_os = "linux", target_os = "macos")))]
pub(super) fn stable_file_system(_file: &std::fs::File) -> bool {
    false
}
