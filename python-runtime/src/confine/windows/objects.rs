//! The worker's own kernel objects (its process, its threads, what it creates later) closed
//! to every other worker: the descriptor `plan::worker_object_sddl` describes, turned into
//! the `SECURITY_ATTRIBUTES` the launcher hands to `CreateProcessW`, the default DACL it
//! sets on the suspended worker's token, and what the worker reads back about itself.

use super::WindowsError;
use super::appcontainer::token_info;
use super::owned::{Handle, Local, last_error, sid_string, wide, wide_to_string};
use std::ffi::{OsStr, c_void};
use windows_sys::Win32::Foundation::{ERROR_SUCCESS, HANDLE};
use windows_sys::Win32::Security::Authorization::{
    ConvertSecurityDescriptorToStringSecurityDescriptorW,
    ConvertStringSecurityDescriptorToSecurityDescriptorW, GetSecurityInfo, SDDL_REVISION_1,
    SE_KERNEL_OBJECT,
};
use windows_sys::Win32::Security::{
    ACL, DACL_SECURITY_INFORMATION, GetSecurityDescriptorDacl, InitializeSecurityDescriptor,
    PSECURITY_DESCRIPTOR, SECURITY_ATTRIBUTES, SECURITY_DESCRIPTOR, SetSecurityDescriptorDacl,
    SetTokenInformation, TOKEN_ADJUST_DEFAULT, TOKEN_DEFAULT_DACL, TOKEN_QUERY, TOKEN_USER,
    TokenDefaultDacl, TokenUser,
};
use windows_sys::Win32::System::Threading::{
    GetCurrentProcess, GetCurrentThread, OpenProcessToken,
};

/// winnt.h; not worth the SystemServices feature for one constant.
const SECURITY_DESCRIPTOR_REVISION: u32 = 1;

fn error(step: &'static str, source: std::io::Error) -> WindowsError {
    WindowsError::AppContainer { step, source }
}

/// A self-relative security descriptor parsed from SDDL, freed on drop.
pub(super) struct Descriptor(Local<c_void>);

impl Descriptor {
    pub(super) fn parse(sddl: &str) -> Result<Descriptor, WindowsError> {
        let text = wide(OsStr::new(sddl));
        let mut raw: PSECURITY_DESCRIPTOR = std::ptr::null_mut();
        // SAFETY: NUL-terminated wide string; valid out-pointer, freed by `Local`.
        let ok = unsafe {
            ConvertStringSecurityDescriptorToSecurityDescriptorW(
                text.as_ptr(),
                SDDL_REVISION_1,
                &mut raw,
                std::ptr::null_mut(),
            )
        };
        if ok == 0 {
            return Err(error(
                "building the worker's security descriptor",
                last_error(),
            ));
        }
        Ok(Descriptor(Local(raw)))
    }

    /// Attributes for `CreateProcessW`'s process and thread arguments: this descriptor,
    /// not inheritable. Valid while `self` lives.
    pub(super) fn attributes(&self) -> SECURITY_ATTRIBUTES {
        SECURITY_ATTRIBUTES {
            nLength: size_of::<SECURITY_ATTRIBUTES>() as u32,
            lpSecurityDescriptor: self.0.0,
            bInheritHandle: 0,
        }
    }

    /// The descriptor's DACL, pointing into the descriptor.
    fn dacl(&self) -> Result<*mut ACL, WindowsError> {
        let (mut present, mut defaulted) = (0, 0);
        let mut dacl: *mut ACL = std::ptr::null_mut();
        // SAFETY: a valid descriptor (parsed above); valid out-pointers.
        let ok =
            unsafe { GetSecurityDescriptorDacl(self.0.0, &mut present, &mut dacl, &mut defaulted) };
        if ok == 0 || present == 0 || dacl.is_null() {
            return Err(error("reading the worker's DACL", last_error()));
        }
        Ok(dacl)
    }
}

/// The user SID of this process's token (the launcher's: the worker runs as the same
/// user), as `S-1-5-21-…`.
pub(super) fn user_sid() -> Result<String, WindowsError> {
    let token = own_token(TOKEN_QUERY).ok_or_else(|| error("OpenProcessToken", last_error()))?;
    let buf = token_info(&token, TokenUser)
        .ok_or_else(|| error("GetTokenInformation(TokenUser)", last_error()))?;
    // SAFETY: the buffer holds a TOKEN_USER followed by its SID, as GetTokenInformation
    // filled it; read unaligned since a Vec<u8> is byte-aligned.
    let user: TOKEN_USER = unsafe { std::ptr::read_unaligned(buf.as_ptr().cast()) };
    // SAFETY: the SID pointer points into `buf`, alive here.
    unsafe { sid_string(user.User.Sid) }
        .ok_or_else(|| error("ConvertSidToStringSidW (user)", last_error()))
}

/// Give the (suspended) worker's token `descriptor`'s DACL as its default DACL, so every
/// object it creates without a descriptor of its own — the loader's threads first — is
/// closed to other workers before any of its code runs.
pub(super) fn set_default_dacl(
    process: HANDLE,
    descriptor: &Descriptor,
) -> Result<(), WindowsError> {
    let dacl = descriptor.dacl()?;
    let mut raw: HANDLE = std::ptr::null_mut();
    // SAFETY: a live process handle with full access (CreateProcessW's); valid out-pointer.
    if unsafe { OpenProcessToken(process, TOKEN_ADJUST_DEFAULT, &mut raw) } == 0 {
        return Err(error("opening the worker's token", last_error()));
    }
    let token =
        Handle::new(raw).ok_or_else(|| error("opening the worker's token", last_error()))?;
    let info = TOKEN_DEFAULT_DACL { DefaultDacl: dacl };
    // SAFETY: a token handle opened with TOKEN_ADJUST_DEFAULT; `info` and the ACL it points
    // to (inside `descriptor`) are alive for the call, which copies them.
    let ok = unsafe {
        SetTokenInformation(
            token.0,
            TokenDefaultDacl,
            (&raw const info).cast::<c_void>(),
            size_of::<TOKEN_DEFAULT_DACL>() as u32,
        )
    };
    if ok == 0 {
        return Err(error("setting the worker's default DACL", last_error()));
    }
    Ok(())
}

/// What the worker finds about its own objects: the DACLs (SDDL) of its process, its
/// current thread and its token's default DACL; `None` where one cannot be read.
pub(super) fn observe() -> (Option<String>, Option<String>, Option<String>) {
    // SAFETY: pseudo-handles for the current process and thread, always valid.
    let (process, thread) = unsafe { (GetCurrentProcess(), GetCurrentThread()) };
    (object_dacl(process), object_dacl(thread), default_dacl())
}

fn own_token(access: u32) -> Option<Handle> {
    let mut raw: HANDLE = std::ptr::null_mut();
    // SAFETY: pseudo-handle for this process; valid out-pointer.
    if unsafe { OpenProcessToken(GetCurrentProcess(), access, &mut raw) } == 0 {
        return None;
    }
    Handle::new(raw)
}

/// The DACL of a kernel object this process holds a handle to, as SDDL.
fn object_dacl(object: HANDLE) -> Option<String> {
    let mut raw: PSECURITY_DESCRIPTOR = std::ptr::null_mut();
    // SAFETY: a handle with READ_CONTROL (the pseudo-handles have all access); only the
    // descriptor out-pointer is asked for, freed by `Local` below.
    let rc = unsafe {
        GetSecurityInfo(
            object,
            SE_KERNEL_OBJECT,
            DACL_SECURITY_INFORMATION,
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            &mut raw,
        )
    };
    if rc != ERROR_SUCCESS {
        return None;
    }
    let descriptor = Local(raw);
    // SAFETY: a valid descriptor GetSecurityInfo returned, alive for the call.
    unsafe { dacl_sddl(descriptor.0) }
}

/// This process's token's default DACL, as SDDL.
fn default_dacl() -> Option<String> {
    let token = own_token(TOKEN_QUERY)?;
    let buf = token_info(&token, TokenDefaultDacl)?;
    // SAFETY: the buffer holds a TOKEN_DEFAULT_DACL followed by its ACL, as
    // GetTokenInformation filled it; read unaligned since a Vec<u8> is byte-aligned.
    let info: TOKEN_DEFAULT_DACL = unsafe { std::ptr::read_unaligned(buf.as_ptr().cast()) };
    // SAFETY: all-zero is a valid value of this plain-data struct; initialised below.
    let mut descriptor: SECURITY_DESCRIPTOR = unsafe { std::mem::zeroed() };
    let sd: PSECURITY_DESCRIPTOR = (&raw mut descriptor).cast();
    // SAFETY: `sd` points to a SECURITY_DESCRIPTOR-sized buffer on this stack frame; the
    // ACL pointer points into `buf`, which outlives every use of `sd` below.
    let ok = unsafe {
        InitializeSecurityDescriptor(sd, SECURITY_DESCRIPTOR_REVISION) != 0
            && SetSecurityDescriptorDacl(sd, 1, info.DefaultDacl, 0) != 0
    };
    if !ok {
        return None;
    }
    // SAFETY: an initialised absolute descriptor whose DACL lives in `buf`.
    unsafe { dacl_sddl(sd) }
}

/// The DACL part of `descriptor` as SDDL (`D:…`).
///
/// # Safety
/// `descriptor` must point to a valid security descriptor for the duration of the call.
unsafe fn dacl_sddl(descriptor: PSECURITY_DESCRIPTOR) -> Option<String> {
    let mut text: *mut u16 = std::ptr::null_mut();
    // SAFETY: a valid descriptor (caller's contract); valid out-pointer, freed by `Local`;
    // the length out-pointer is optional.
    let ok = unsafe {
        ConvertSecurityDescriptorToStringSecurityDescriptorW(
            descriptor,
            SDDL_REVISION_1,
            DACL_SECURITY_INFORMATION,
            &mut text,
            std::ptr::null_mut(),
        )
    };
    if ok == 0 || text.is_null() {
        return None;
    }
    let owned = Local(text);
    // SAFETY: on success `text` is a NUL-terminated wide string.
    Some(unsafe { wide_to_string(owned.0) })
}
