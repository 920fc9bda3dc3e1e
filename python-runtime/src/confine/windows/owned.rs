//! Small owners for what Win32 hands out (handles, `LocalAlloc`ed buffers, SIDs), so every
//! path out of a function frees them, and the conversions the other modules share.

use std::ffi::OsStr;
use std::os::windows::ffi::OsStrExt;
use windows_sys::Win32::Foundation::{CloseHandle, HANDLE, LocalFree};
use windows_sys::Win32::Security::Authorization::{ConvertSidToStringSidW, ConvertStringSidToSidW};
use windows_sys::Win32::Security::PSID;

/// `s` as a NUL-terminated UTF-16 string.
pub(super) fn wide(s: &OsStr) -> Vec<u16> {
    s.encode_wide().chain(std::iter::once(0)).collect()
}

pub(super) fn last_error() -> std::io::Error {
    std::io::Error::last_os_error()
}

/// A handle closed on drop.
pub(super) struct Handle(pub(super) HANDLE);

impl Handle {
    /// `None` for the null handle a failed call returns.
    pub(super) fn new(raw: HANDLE) -> Option<Handle> {
        (!raw.is_null()).then_some(Handle(raw))
    }
}

impl Drop for Handle {
    fn drop(&mut self) {
        // SAFETY: the handle was returned to us open and is closed exactly once, here.
        unsafe { CloseHandle(self.0) };
    }
}

/// Memory the system allocated for us with `LocalAlloc`, freed on drop.
pub(super) struct Local<T>(pub(super) *mut T);

impl<T> Drop for Local<T> {
    fn drop(&mut self) {
        if !self.0.is_null() {
            // SAFETY: the pointer came from an API documented to allocate with LocalAlloc,
            // and is freed exactly once, here.
            unsafe { LocalFree(self.0.cast()) };
        }
    }
}

/// A SID parsed from its string form (`S-1-…`), freed on drop.
pub(super) struct Sid(Local<core::ffi::c_void>);

impl Sid {
    pub(super) fn parse(text: &str) -> std::io::Result<Sid> {
        let text = wide(OsStr::new(text));
        let mut sid: PSID = std::ptr::null_mut();
        // SAFETY: NUL-terminated wide string; valid out-pointer, freed by `Local`.
        if unsafe { ConvertStringSidToSidW(text.as_ptr(), &mut sid) } == 0 {
            return Err(last_error());
        }
        Ok(Sid(Local(sid)))
    }

    pub(super) fn as_psid(&self) -> PSID {
        self.0.0
    }
}

/// The string form of a SID the system gave us.
///
/// # Safety
/// `sid` must point to a valid SID for the duration of the call.
pub(super) unsafe fn sid_string(sid: PSID) -> Option<String> {
    let mut text: *mut u16 = std::ptr::null_mut();
    // SAFETY: `sid` is valid (caller's contract); `text` is a valid out-pointer whose
    // buffer is freed by `Local` below.
    if unsafe { ConvertSidToStringSidW(sid, &mut text) } == 0 {
        return None;
    }
    let owned = Local(text);
    // SAFETY: on success `text` is a NUL-terminated wide string.
    Some(unsafe { wide_to_string(owned.0) })
}

/// A NUL-terminated wide string the system returned, as a Rust string.
///
/// # Safety
/// `text` must point to a NUL-terminated UTF-16 string.
pub(super) unsafe fn wide_to_string(text: *const u16) -> String {
    let mut len = 0;
    // SAFETY: the string is NUL-terminated (caller's contract), so every read up to and
    // including the NUL is in bounds.
    while unsafe { *text.add(len) } != 0 {
        len += 1;
    }
    // SAFETY: `len` elements were just read from this buffer.
    String::from_utf16_lossy(unsafe { std::slice::from_raw_parts(text, len) })
}
