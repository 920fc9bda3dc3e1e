//! File identity on Windows, from the open handle: `GetFileInformationByHandleEx` with
//! `FileIdInfo` (volume serial number and 128-bit file id) and `FileBasicInfo` (last write
//! and change times). Conservative about the file system: only local NTFS and ReFS volumes
//! (by `GetVolumeInformationByHandleW`'s name, and a handle for which Windows has no
//! remote-protocol information) are cached; FAT, exFAT and every network share are hashed
//! each time.

use super::Identity;
use std::os::windows::io::AsRawHandle;
use windows_sys::Win32::Foundation::HANDLE;
use windows_sys::Win32::Storage::FileSystem::{
    FILE_BASIC_INFO, FILE_ID_INFO, FILE_REMOTE_PROTOCOL_INFO, FileBasicInfo, FileIdInfo,
    FileRemoteProtocolInfo, GetFileInformationByHandleEx, GetVolumeInformationByHandleW,
};

/// 100-nanosecond intervals from 1601-01-01 to 1970-01-01.
const UNIX_EPOCH_AS_FILETIME: i64 = 116_444_736_000_000_000;

/// One `GetFileInformationByHandleEx` query of the fixed-size structure `T`.
fn query<T: Default>(handle: HANDLE, class: i32) -> Option<T> {
    let mut info = T::default();
    let size = u32::try_from(std::mem::size_of::<T>()).ok()?;
    // SAFETY: `handle` is open for the borrow of the file it came from; `info` is a
    // writable `T` of `size` bytes, the structure `class` fills.
    let ok = unsafe { GetFileInformationByHandleEx(handle, class, (&raw mut info).cast(), size) };
    (ok != 0).then_some(info)
}

fn unix_ns(filetime: i64) -> Option<i64> {
    filetime
        .checked_sub(UNIX_EPOCH_AS_FILETIME)?
        .checked_mul(100)
}

pub(super) fn identity(file: &std::fs::File) -> Option<Identity> {
    let handle = file.as_raw_handle() as HANDLE;
    let id: FILE_ID_INFO = query(handle, FileIdInfo)?;
    let basic: FILE_BASIC_INFO = query(handle, FileBasicInfo)?;
    let meta = file.metadata().ok()?;
    if !meta.is_file() {
        return None;
    }
    let bytes = id.FileId.Identifier;
    let mut low = [0u8; 8];
    let mut high = [0u8; 8];
    low.copy_from_slice(&bytes[..8]);
    high.copy_from_slice(&bytes[8..]);
    Some(Identity {
        device: id.VolumeSerialNumber,
        file_id: [u64::from_le_bytes(low), u64::from_le_bytes(high)],
        size: meta.len(),
        modified_ns: unix_ns(basic.LastWriteTime)?,
        changed_ns: unix_ns(basic.ChangeTime)?,
    })
}

pub(super) fn stable_file_system(file: &std::fs::File) -> bool {
    let handle = file.as_raw_handle() as HANDLE;
    // Only remote files have remote-protocol information (SMB shares name themselves NTFS).
    if query::<FILE_REMOTE_PROTOCOL_INFO>(handle, FileRemoteProtocolInfo).is_some() {
        return false;
    }
    let mut name = [0u16; 64];
    let len = name.len() as u32;
    // SAFETY: `handle` is open; `name` is a writable buffer of `len` UTF-16 units; every
    // other out-parameter is null, which the function allows.
    let ok = unsafe {
        GetVolumeInformationByHandleW(
            handle,
            std::ptr::null_mut(),
            0,
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            name.as_mut_ptr(),
            len,
        )
    };
    if ok == 0 {
        return false;
    }
    let end = name.iter().position(|&c| c == 0).unwrap_or(name.len());
    let name = String::from_utf16_lossy(&name[..end]);
    matches!(name.as_str(), "NTFS" | "ReFS")
}
