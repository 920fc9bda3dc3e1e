//! The AppContainer profile (created once by the host, reused by every run) and what the
//! worker's own token says about it.

use super::WindowsError;
use super::owned::{Handle, last_error, sid_string, wide};
use super::plan::{PROFILE_DESCRIPTION, PROFILE_DISPLAY_NAME, PROFILE_NAME};
use std::ffi::{OsStr, c_void};
use windows_sys::Win32::Foundation::{ERROR_ALREADY_EXISTS, HANDLE};
use windows_sys::Win32::Security::Isolation::{
    CreateAppContainerProfile, DeriveAppContainerSidFromAppContainerName,
};
use windows_sys::Win32::Security::{
    FreeSid, GetTokenInformation, PSID, TOKEN_APPCONTAINER_INFORMATION, TOKEN_GROUPS, TOKEN_QUERY,
    TokenAppContainerSid, TokenCapabilities, TokenIsAppContainer,
};
use windows_sys::Win32::System::Threading::{GetCurrentProcess, OpenProcessToken};

/// `HRESULT_FROM_WIN32(ERROR_ALREADY_EXISTS)`: the profile is there from an earlier run.
const ALREADY_EXISTS: i32 = (0x8007_0000u32 | ERROR_ALREADY_EXISTS) as i32;

fn app_container_error(step: &'static str, source: std::io::Error) -> WindowsError {
    WindowsError::AppContainer { step, source }
}

/// Create the worker's AppContainer profile if it does not exist yet, and return its SID as
/// Windows knows it.
pub(super) fn ensure_profile() -> Result<String, WindowsError> {
    let name = wide(OsStr::new(PROFILE_NAME));
    let display = wide(OsStr::new(PROFILE_DISPLAY_NAME));
    let description = wide(OsStr::new(PROFILE_DESCRIPTION));
    let mut sid: PSID = std::ptr::null_mut();
    // SAFETY: NUL-terminated wide strings; no capabilities (null, 0): the profile itself
    // grants nothing; valid out-pointer, freed with FreeSid below.
    let hr = unsafe {
        CreateAppContainerProfile(
            name.as_ptr(),
            display.as_ptr(),
            description.as_ptr(),
            std::ptr::null(),
            0,
            &mut sid,
        )
    };
    if hr == ALREADY_EXISTS {
        // SAFETY: as above.
        let hr = unsafe { DeriveAppContainerSidFromAppContainerName(name.as_ptr(), &mut sid) };
        if hr < 0 {
            return Err(app_container_error(
                "DeriveAppContainerSidFromAppContainerName",
                std::io::Error::from_raw_os_error(hr),
            ));
        }
    } else if hr < 0 {
        return Err(app_container_error(
            "CreateAppContainerProfile",
            std::io::Error::from_raw_os_error(hr),
        ));
    }
    // SAFETY: `sid` is a valid SID from one of the two calls above.
    let text = unsafe { sid_string(sid) };
    // SAFETY: both calls allocate the SID for the caller to free with FreeSid.
    unsafe { FreeSid(sid) };
    text.ok_or_else(|| app_container_error("ConvertSidToStringSidW", last_error()))
}

/// The AppContainer SID and the capability SIDs of this process's token (`None` and empty
/// when the token is not an AppContainer token).
pub(super) fn observe_token() -> (Option<String>, Vec<String>) {
    let mut raw: HANDLE = std::ptr::null_mut();
    // SAFETY: valid out-pointer; pseudo-handle for the current process.
    if unsafe { OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY, &mut raw) } == 0 {
        return (None, Vec::new());
    }
    let Some(token) = Handle::new(raw) else {
        return (None, Vec::new());
    };
    let mut is_container = 0u32;
    let mut len = 0u32;
    // SAFETY: a u32 out-buffer of the size passed.
    let ok = unsafe {
        GetTokenInformation(
            token.0,
            TokenIsAppContainer,
            (&raw mut is_container).cast::<c_void>(),
            size_of::<u32>() as u32,
            &mut len,
        )
    };
    if ok == 0 || is_container == 0 {
        return (None, Vec::new());
    }
    let container = token_info(&token, TokenAppContainerSid).and_then(|buf| {
        // SAFETY: the buffer holds a TOKEN_APPCONTAINER_INFORMATION followed by its SID,
        // as GetTokenInformation filled it; read unaligned since a Vec<u8> is byte-aligned.
        let info: TOKEN_APPCONTAINER_INFORMATION =
            unsafe { std::ptr::read_unaligned(buf.as_ptr().cast()) };
        // SAFETY: the SID pointer points into `buf`, alive here.
        unsafe { sid_string(info.TokenAppContainer) }
    });
    let capabilities = token_info(&token, TokenCapabilities)
        .map(|buf| {
            // SAFETY: the buffer holds a TOKEN_GROUPS header followed by `GroupCount`
            // SID_AND_ATTRIBUTES and their SIDs, as GetTokenInformation filled it.
            let header: TOKEN_GROUPS = unsafe { std::ptr::read_unaligned(buf.as_ptr().cast()) };
            let first = std::mem::offset_of!(TOKEN_GROUPS, Groups);
            (0..header.GroupCount as usize)
                .filter_map(|i| {
                    let at =
                        first + i * size_of::<windows_sys::Win32::Security::SID_AND_ATTRIBUTES>();
                    if at + size_of::<windows_sys::Win32::Security::SID_AND_ATTRIBUTES>()
                        > buf.len()
                    {
                        return None;
                    }
                    // SAFETY: bounds checked above; entries are laid out contiguously.
                    let entry: windows_sys::Win32::Security::SID_AND_ATTRIBUTES =
                        unsafe { std::ptr::read_unaligned(buf.as_ptr().add(at).cast()) };
                    // SAFETY: the SID points into `buf`, alive here.
                    unsafe { sid_string(entry.Sid) }
                })
                .collect()
        })
        .unwrap_or_default();
    (container, capabilities)
}

/// One variable-length token information class, in a buffer of the size Windows asks for.
pub(super) fn token_info(
    token: &Handle,
    class: windows_sys::Win32::Security::TOKEN_INFORMATION_CLASS,
) -> Option<Vec<u8>> {
    let mut len = 0u32;
    // SAFETY: a size query: null buffer of length 0, valid out-pointer for the length.
    unsafe { GetTokenInformation(token.0, class, std::ptr::null_mut(), 0, &mut len) };
    if len == 0 {
        return None;
    }
    let mut buf = vec![0u8; len as usize];
    // SAFETY: `buf` has the `len` bytes the query asked for.
    let ok = unsafe { GetTokenInformation(token.0, class, buf.as_mut_ptr().cast(), len, &mut len) };
    (ok != 0).then_some(buf)
}
