//! The host side: before a worker starts, give its AppContainer the folders of its plan
//! (`plan::grants`), and take the run's grants back when the run ends ([`RunGrants`]'s
//! drop).
//!
//! ACEs are merged into the folder's existing DACL with `SetEntriesInAclW` (which keeps
//! the canonical order) and inherited by everything below (`SetNamedSecurityInfoW`
//! propagates them). Each run's grants name that run's own capability, so removing them
//! (`REVOKE_ACCESS` for that SID) cannot take away another run's access to the same `SRC`.
//! The edits of one process are serialised: a DACL change is a read-modify-write, and the
//! selftest's canaries grant the same `SRC` side by side.
//!
//! Cost: Windows writes the inherited ACE into every file below the folder, so the first
//! run on a per-user install touches the whole runtime (once; later runs find the ACE), and
//! each run touches every file of `SRC` twice (grant and removal). A host killed outright
//! leaves its run's ACE on `SRC`; it names a capability no future token will hold.

use super::owned::{Local, Sid, wide, wide_to_string};
use super::plan::{self, Grant, Lifetime, PROFILE_NAME};
use super::{appcontainer, label_low};
use crate::confine::{ConfineError, ConfinePlan};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use windows_sys::Win32::Foundation::ERROR_SUCCESS;
use windows_sys::Win32::Security::Authorization::{
    ConvertSecurityDescriptorToStringSecurityDescriptorW, EXPLICIT_ACCESS_W, GRANT_ACCESS,
    GetNamedSecurityInfoW, NO_MULTIPLE_TRUSTEE, REVOKE_ACCESS, SDDL_REVISION_1, SE_FILE_OBJECT,
    SetEntriesInAclW, SetNamedSecurityInfoW, TRUSTEE_IS_SID, TRUSTEE_IS_UNKNOWN, TRUSTEE_W,
};
use windows_sys::Win32::Security::{ACL, DACL_SECURITY_INFORMATION, PSECURITY_DESCRIPTOR};

/// One process's DACL edits, one at a time.
static EDITS: Mutex<()> = Mutex::new(());

/// The grants of one run that must go when it ends; dropping this removes them.
#[derive(Debug, Default)]
pub struct RunGrants {
    revoke: Vec<(PathBuf, String)>,
}

impl Drop for RunGrants {
    fn drop(&mut self) {
        let _edits = EDITS.lock().unwrap_or_else(|p| p.into_inner());
        for (path, sid) in &self.revoke {
            if let Err(e) = edit(path, sid, &[(0, 0)], REVOKE_ACCESS) {
                // Nothing to hand the error to here: the run is over. The ACE left names
                // a capability no other token holds.
                eprintln!(
                    "pdfagent: could not remove the worker's read access to `{}`: {e}",
                    path.display()
                );
            }
        }
    }
}

/// Grant the worker of `plan` what it needs, before it starts.
pub fn grant_for_run(plan: &ConfinePlan) -> Result<RunGrants, ConfineError> {
    let container = appcontainer::ensure_profile()?;
    let expected = plan::app_container_sid(PROFILE_NAME);
    if container != expected {
        return Err(ConfineError::ContainerSid {
            profile: PROFILE_NAME,
            given: container.to_string(),
            derived: expected,
        });
    }
    let _edits = EDITS.lock().unwrap_or_else(|p| p.into_inner());
    let mut grants = RunGrants::default();
    for grant in plan::grants(plan) {
        apply(&grant, &mut grants)?;
    }
    Ok(grants)
}

fn apply(grant: &Grant, run: &mut RunGrants) -> Result<(), ConfineError> {
    let what = match grant.lifetime {
        Lifetime::Kept => "read access to its own install folder",
        Lifetime::ForTheRun => "read access to",
        Lifetime::WithTheRunDir => "write access to its run folder",
    };
    let fail = |source| ConfineError::Grant {
        what,
        path: grant.path.clone(),
        source,
    };
    let already = match grant.lifetime {
        // A folder every AppContainer reads already (a per-machine install under
        // `Program Files`, which the user could not change anyway) needs nothing.
        Lifetime::Kept | Lifetime::ForTheRun => dacl_sddl(&grant.path)
            .map(|sddl| plan::dacl_allows(&sddl, &grant.sid, grant.access.mask()))
            .unwrap_or(false),
        Lifetime::WithTheRunDir => false,
    };
    if !already {
        // A file (the executable, a loader DLL) takes no inheritance flags.
        let entries = if grant.path.is_file() {
            grant.access.file_entries()
        } else {
            grant.access.entries()
        };
        edit(&grant.path, &grant.sid, &entries, GRANT_ACCESS).map_err(fail)?;
        if grant.lifetime == Lifetime::ForTheRun {
            run.revoke.push((grant.path.clone(), grant.sid.clone()));
        }
    }
    if grant.low_label {
        label_low(&grant.path).map_err(|why| fail(std::io::Error::other(why)))?;
    }
    Ok(())
}

/// Merge ACEs for `sid` into `path`'s DACL (`GRANT_ACCESS`, one per (rights, inheritance)
/// entry), or remove every explicit ACE for it (`REVOKE_ACCESS`).
fn edit(
    path: &Path,
    sid: &str,
    entries: &[(u32, u32)],
    mode: windows_sys::Win32::Security::Authorization::ACCESS_MODE,
) -> std::io::Result<()> {
    let name = wide(path.as_os_str());
    let sid = Sid::parse(sid)?;
    let mut dacl: *mut ACL = std::ptr::null_mut();
    let mut descriptor: PSECURITY_DESCRIPTOR = std::ptr::null_mut();
    // SAFETY: NUL-terminated path; out-pointers valid; `descriptor` is freed by `Local`
    // and `dacl` points into it.
    let rc = unsafe {
        GetNamedSecurityInfoW(
            name.as_ptr(),
            SE_FILE_OBJECT,
            DACL_SECURITY_INFORMATION,
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            &mut dacl,
            std::ptr::null_mut(),
            &mut descriptor,
        )
    };
    let _descriptor = Local(descriptor);
    if rc != ERROR_SUCCESS {
        return Err(std::io::Error::from_raw_os_error(rc as i32));
    }
    let access: Vec<EXPLICIT_ACCESS_W> = entries
        .iter()
        .map(|&(mask, inheritance)| EXPLICIT_ACCESS_W {
            grfAccessPermissions: mask,
            grfAccessMode: mode,
            grfInheritance: inheritance,
            Trustee: TRUSTEE_W {
                pMultipleTrustee: std::ptr::null_mut(),
                MultipleTrusteeOperation: NO_MULTIPLE_TRUSTEE,
                TrusteeForm: TRUSTEE_IS_SID,
                TrusteeType: TRUSTEE_IS_UNKNOWN,
                ptstrName: sid.as_psid().cast(),
            },
        })
        .collect();
    let mut merged: *mut ACL = std::ptr::null_mut();
    // SAFETY: `access` holds valid entries whose SID outlives the call; `dacl` is the
    // current DACL (or null); `merged` is allocated for us and freed by `Local`.
    let rc = unsafe { SetEntriesInAclW(access.len() as u32, access.as_ptr(), dacl, &mut merged) };
    let merged = Local(merged);
    if rc != ERROR_SUCCESS {
        return Err(std::io::Error::from_raw_os_error(rc as i32));
    }
    // SAFETY: NUL-terminated path; `merged` is a valid ACL alive for the call.
    let rc = unsafe {
        SetNamedSecurityInfoW(
            name.as_ptr(),
            SE_FILE_OBJECT,
            DACL_SECURITY_INFORMATION,
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            merged.0,
            std::ptr::null(),
        )
    };
    if rc != ERROR_SUCCESS {
        return Err(std::io::Error::from_raw_os_error(rc as i32));
    }
    Ok(())
}

/// `path`'s DACL as SDDL (`D:…`), for `plan::dacl_allows`.
fn dacl_sddl(path: &Path) -> std::io::Result<String> {
    let name = wide(path.as_os_str());
    let mut descriptor: PSECURITY_DESCRIPTOR = std::ptr::null_mut();
    // SAFETY: as in `edit`; only the descriptor is asked for.
    let rc = unsafe {
        GetNamedSecurityInfoW(
            name.as_ptr(),
            SE_FILE_OBJECT,
            DACL_SECURITY_INFORMATION,
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            &mut descriptor,
        )
    };
    let descriptor = Local(descriptor);
    if rc != ERROR_SUCCESS {
        return Err(std::io::Error::from_raw_os_error(rc as i32));
    }
    let mut text: *mut u16 = std::ptr::null_mut();
    // SAFETY: a valid descriptor; `text` is allocated for us and freed by `Local`.
    let ok = unsafe {
        ConvertSecurityDescriptorToStringSecurityDescriptorW(
            descriptor.0,
            SDDL_REVISION_1,
            DACL_SECURITY_INFORMATION,
            &mut text,
            std::ptr::null_mut(),
        )
    };
    if ok == 0 {
        return Err(std::io::Error::last_os_error());
    }
    let text = Local(text);
    // SAFETY: on success `text` is a NUL-terminated wide string.
    Ok(unsafe { wide_to_string(text.0) })
}
