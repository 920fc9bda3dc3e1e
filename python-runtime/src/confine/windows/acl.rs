//! The host side: before a worker starts, give its AppContainer the folders of its plan
//! (`plan::grants`), and take the run's grants back when the run ends ([`RunGrants`]'s
//! drop).
//!
//! ACEs are merged into the folder's existing DACL with `SetEntriesInAclW` (which keeps
//! the canonical order) and inherited by everything below (`SetNamedSecurityInfoW`
//! propagates them). Each run's grants name that run's own capability, so removing them
//! (`REVOKE_ACCESS` for that SID) cannot take away another run's access to the same `SRC`.
//!
//! **One editor per path, across processes** (issue 45). A DACL change is a
//! read-modify-write: the window and the MCP server (or the selftest's canaries) granting
//! the same `SRC` at once would each write back a DACL without the other's entry, and one
//! run would lose its access. Every edit of a path holds that path's named mutex
//! (`plan::grant_lock_name`) from the read to the write; edits of different paths run side
//! by side. A holder that died leaves the mutex abandoned, which the next waiter takes.
//!
//! **The runtime's grant is made once and known to be finished.** On a per-user install
//! the first start grants the container read-and-execute on `runtime\`; Windows then
//! writes the inherited ACE into each of its thousands of files. Only after that call has
//! returned does the runtime's completion marker (`runtime\runtime-manifest.json`, written
//! last by the runtime's build) get an explicit ACE of its own, and later starts skip the
//! grant only when the marker has it (`plan::kept_grant_state`): a first grant cut off
//! half-way (the app closed, the machine off) is made again rather than trusted because the
//! folder's own entry is there (an ACE changes neither the marker's size nor its write or
//! creation time, which `install_identity` compares). The run's timer starts after the grants (`runner.rs`), so
//! even that first grant never eats a figure's time limit. Each grant's time is logged to
//! stderr when it matters (the runtime's, or a slow one).
//!
//! **Why `SetNamedSecurityInfoW`, propagation and all.** An AppContainer's access check
//! reads each file's own DACL, so every file below a granted folder must carry the
//! (inherited) ACE. `SetSecurityInfo` on an open handle propagates exactly as the named
//! call does (Microsoft documents automatic inheritance for both); `SetFileSecurityW`
//! would not propagate, leaving the files unreadable. So the cost is a walk of the tree:
//! once per install for the runtime, and for `SRC` once per run in a long-lived host: a run
//! that ends there leaves its entry to be taken back by the next run's grant of the same
//! folder, in the same write (`ended.rs`; a sweep takes back what no run took within a
//! while, the pool's end the rest). The one-shot command line takes its run's entry back
//! at once (a second walk) so nothing is left when it exits. Rejected for `SRC`: keeping a
//! lasting ACE (every run would leave one more ACE on every file of the user's data folder
//! for good). A host killed outright leaves its runs' ACEs on `SRC`; they name
//! capabilities no future token will hold.

use super::WindowsError;
use super::ended::{self, EndedGrants, Entry, Mode, edit_entries};
use super::owned::{Handle, Local, Sid, last_error, wide, wide_to_string};
use super::plan::{self, Grant, KeptGrant, Lifetime, PROFILE_NAME};
use super::{appcontainer, label_low};
use crate::confine::ConfinePlan;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard, Once};
use std::time::{Duration, Instant};
use windows_sys::Win32::Foundation::{ERROR_SUCCESS, WAIT_ABANDONED, WAIT_OBJECT_0, WAIT_TIMEOUT};
use windows_sys::Win32::Security::Authorization::{
    ConvertSecurityDescriptorToStringSecurityDescriptorW, EXPLICIT_ACCESS_W, GRANT_ACCESS,
    GetNamedSecurityInfoW, NO_MULTIPLE_TRUSTEE, REVOKE_ACCESS, SDDL_REVISION_1, SE_FILE_OBJECT,
    SetEntriesInAclW, SetNamedSecurityInfoW, TRUSTEE_IS_SID, TRUSTEE_IS_UNKNOWN, TRUSTEE_W,
};
use windows_sys::Win32::Security::{ACL, DACL_SECURITY_INFORMATION, PSECURITY_DESCRIPTOR};
use windows_sys::Win32::System::Threading::{CreateMutexW, ReleaseMutex, WaitForSingleObject};

/// How long an edit waits for another process's edit of the same path (a first grant of a
/// large folder on a slow disk can take a while).
const LOCK_WAIT: Duration = Duration::from_secs(120);

/// A grant that took at least this long is logged.
const SLOW_GRANT: Duration = Duration::from_millis(250);

/// The grants of one run that must go when it ends; dropping this removes them (or, while a
/// [`NextRunRevokes`] is held, notes them for the next grant of the same folder).
#[derive(Debug, Default)]
pub struct RunGrants {
    revoke: Vec<(PathBuf, String)>,
}

impl Drop for RunGrants {
    fn drop(&mut self) {
        let defer = DEFERRING.load(Ordering::SeqCst) > 0;
        for (path, sid) in std::mem::take(&mut self.revoke) {
            if defer {
                notes().end(path, sid, Instant::now());
                start_sweeper();
            } else {
                // Any ended run's entry on the same folder goes in the same write.
                let mut sids = notes().take_for(&path);
                sids.push(sid);
                revoke(&path, sids);
            }
        }
    }
}

/// Runs' grants that ended while a [`NextRunRevokes`] was held, still on their folders.
static NOTES: Mutex<EndedGrants> = Mutex::new(EndedGrants::new());

/// How many [`NextRunRevokes`] are held.
static DEFERRING: AtomicUsize = AtomicUsize::new(0);

fn notes() -> MutexGuard<'static, EndedGrants> {
    NOTES.lock().unwrap_or_else(|p| p.into_inner())
}

/// Held by a long-lived host's warm pool: while any is held, a run's data-folder grant is
/// taken back by the next run's grant of that folder, in one write (`ended.rs`), rather than
/// on a walk of its own. Dropping the last one takes back every grant still noted.
#[derive(Debug)]
pub struct NextRunRevokes(());

/// Start taking runs' grants back with the next run's grant (see [`NextRunRevokes`]).
pub fn revoke_with_next_run() -> NextRunRevokes {
    DEFERRING.fetch_add(1, Ordering::SeqCst);
    NextRunRevokes(())
}

impl Drop for NextRunRevokes {
    fn drop(&mut self) {
        if DEFERRING.fetch_sub(1, Ordering::SeqCst) == 1 {
            let all = notes().take_all();
            for (path, sids) in all {
                revoke(&path, sids);
            }
        }
    }
}

/// Take the ended runs' grants that no new run took within `ended::IDLE` back, every few
/// seconds, for the rest of the process (one background thread, started with the first
/// note).
fn start_sweeper() {
    static STARTED: Once = Once::new();
    STARTED.call_once(|| {
        let spawned = std::thread::Builder::new()
            .name("pdfagent-grant-sweep".into())
            .spawn(|| {
                loop {
                    std::thread::sleep(ended::IDLE / 6);
                    let idle = notes().take_idle(Instant::now(), ended::IDLE);
                    for (path, sids) in idle {
                        revoke(&path, sids);
                    }
                }
            });
        if let Err(e) = spawned {
            // The notes are then taken back by the next run or the pool's end.
            eprintln!("pdfagent: could not start the grant sweep: {e}");
        }
    });
}

/// Remove every explicit ACE for `sids` from `path`'s DACL, in one write.
fn revoke(path: &Path, sids: Vec<String>) {
    let removed = PathLock::acquire(path).and_then(|_lock| edit(path, &edit_entries(None, &sids)));
    if let Err(e) = removed {
        // Nothing to hand the error to here: the run is over. The ACEs left name
        // capabilities no other token holds.
        eprintln!(
            "pdfagent: could not remove the worker's read access to `{}`: {e}",
            path.display()
        );
    }
}

/// Grant the worker of `plan` what it needs, before it starts.
pub fn grant_for_run(plan: &ConfinePlan) -> Result<RunGrants, WindowsError> {
    let container = appcontainer::ensure_profile()?;
    let expected = plan::app_container_sid(PROFILE_NAME);
    if container != expected {
        return Err(WindowsError::ContainerSid {
            profile: PROFILE_NAME,
            given: container.to_string(),
            derived: expected,
        });
    }
    let mut grants = RunGrants::default();
    for grant in plan::grants(plan) {
        let started = Instant::now();
        let edited = apply(&grant, &mut grants)?;
        let took = started.elapsed();
        if edited && (grant.lifetime == Lifetime::Kept || took >= SLOW_GRANT) {
            eprintln!(
                "pdfagent: gave the worker's AppContainer {} `{}` in {} ms",
                match grant.lifetime {
                    Lifetime::Kept => "its lasting read access to",
                    Lifetime::ForTheRun => "this run's read access to",
                    Lifetime::WithTheRunDir => "its run folder",
                },
                grant.path.display(),
                took.as_millis()
            );
        }
    }
    Ok(grants)
}

/// Why `pdfagent grant-runtime` could not make the installation's grants.
#[derive(Debug, thiserror::Error)]
pub enum GrantInstallationError {
    #[error(transparent)]
    Install(#[from] crate::locate::FindError),
    #[error(transparent)]
    Grant(#[from] WindowsError),
}

/// The installation's lasting grants on their own (`pdfagent grant-runtime`, run by the
/// NSIS installer's post-install hook, `src-tauri/windows/hooks.nsh`): the container's
/// read-and-execute on the executable, its loader DLLs and `runtime\`, made now — with the
/// completion marker last — so no run's start waits on that walk; a start finds the marker
/// and skips it. One line per grant, with what was done and how long it took.
pub fn grant_installation() -> Result<Vec<String>, GrantInstallationError> {
    let install = crate::locate::InstallPaths::find()?;
    let limits = crate::confine::Limits {
        memory_bytes: 0,
        cpu_seconds: 0,
        file_size_bytes: 0,
        wall_clock_ms: 0,
    };
    // A plan's code paths are the installation's; no run, so no run folder and no SRC.
    let runtime = &install.runtime;
    let mut plan = ConfinePlan::for_run(&install.executable, runtime, None, runtime, limits);
    plan.read_write.clear();
    let mut lines = Vec::new();
    for grant in plan::kept_grants(&plan) {
        let started = Instant::now();
        let edited = apply(&grant, &mut RunGrants::default())?;
        lines.push(format!(
            "{} `{}` ({} ms)",
            if edited {
                "granted the worker's AppContainer read and execute on"
            } else {
                "already in place (or not needed):"
            },
            grant.path.display(),
            started.elapsed().as_millis()
        ));
    }
    Ok(lines)
}

/// Make one grant; whether a DACL was written (false: it was there already).
fn apply(grant: &Grant, run: &mut RunGrants) -> Result<bool, WindowsError> {
    let what = match grant.lifetime {
        Lifetime::Kept => "read access to its own install folder",
        Lifetime::ForTheRun => "read access to",
        Lifetime::WithTheRunDir => "write access to its run folder",
    };
    let fail = |source| WindowsError::Grant {
        what,
        path: grant.path.clone(),
        source,
    };
    let _lock = PathLock::acquire(&grant.path).map_err(fail)?;
    // A file (the executable, a loader DLL) takes no inheritance flags.
    let is_file = grant.path.is_file();
    let entries = if is_file {
        grant.access.file_entries()
    } else {
        grant.access.entries()
    };
    let mask = grant.access.mask();
    let edited = match grant.lifetime {
        Lifetime::Kept => {
            let marker = (!is_file)
                .then(|| grant.path.join(crate::locate::MARKER))
                .filter(|m| m.is_file());
            let folder_sddl = dacl_sddl(&grant.path).ok();
            let marker_sddl = marker.as_deref().and_then(|m| dacl_sddl(m).ok());
            let state = plan::kept_grant_state(
                folder_sddl.as_deref(),
                marker_sddl.as_deref(),
                &grant.sid,
                mask,
            );
            if state == KeptGrant::Needed {
                edit(
                    &grant.path,
                    &edit_entries(Some((&grant.sid, &entries)), &[]),
                )
                .map_err(fail)?;
                // Only now, with every file below written: the completion mark.
                if let Some(marker) = &marker {
                    let pairs = grant.access.file_entries();
                    edit(marker, &edit_entries(Some((&grant.sid, &pairs)), &[])).map_err(fail)?;
                }
            }
            state == KeptGrant::Needed
        }
        Lifetime::ForTheRun => {
            // A folder every AppContainer reads already needs nothing.
            let already = dacl_sddl(&grant.path)
                .map(|sddl| plan::dacl_allows(&sddl, &grant.sid, mask))
                .unwrap_or(false);
            if !already {
                // Ended runs' entries on this folder go in this same write (`ended.rs`):
                // one walk of the data folder per run.
                let ended = notes().take_for(&grant.path);
                if let Err(e) = edit(
                    &grant.path,
                    &edit_entries(Some((&grant.sid, &entries)), &ended),
                ) {
                    // Still to be taken back, by the next write or the sweep.
                    let mut noted = notes();
                    for sid in ended {
                        noted.end(grant.path.clone(), sid, Instant::now());
                    }
                    return Err(fail(e));
                }
                run.revoke.push((grant.path.clone(), grant.sid.clone()));
            }
            !already
        }
        Lifetime::WithTheRunDir => {
            edit(
                &grant.path,
                &edit_entries(Some((&grant.sid, &entries)), &[]),
            )
            .map_err(fail)?;
            true
        }
    };
    if grant.low_label {
        label_low(&grant.path).map_err(|why| fail(std::io::Error::other(why)))?;
    }
    Ok(edited)
}

/// The named mutex of one path's DACL, held (by this thread) until dropped.
struct PathLock(Handle);

impl PathLock {
    fn acquire(path: &Path) -> std::io::Result<PathLock> {
        let name = plan::grant_lock_name(path);
        let wide_name = wide(OsStr::new(&name));
        // SAFETY: default security (this user only), not owned at creation, a
        // NUL-terminated name; opens the mutex when another process created it.
        let raw = unsafe { CreateMutexW(std::ptr::null(), 0, wide_name.as_ptr()) };
        let mutex = Handle::new(raw).ok_or_else(last_error)?;
        let wait_ms = u32::try_from(LOCK_WAIT.as_millis()).unwrap_or(u32::MAX);
        // SAFETY: a live mutex handle.
        match unsafe { WaitForSingleObject(mutex.0, wait_ms) } {
            // Abandoned: its holder died mid-edit; the edit is ours to make now.
            WAIT_OBJECT_0 | WAIT_ABANDONED => Ok(PathLock(mutex)),
            WAIT_TIMEOUT => Err(std::io::Error::other(format!(
                "another PDFAgent process has been changing the permissions of `{}` for \
                 over {} s; close the other PDFAgent windows or servers and try again",
                path.display(),
                LOCK_WAIT.as_secs()
            ))),
            _ => Err(last_error()),
        }
    }
}

impl Drop for PathLock {
    fn drop(&mut self) {
        // SAFETY: this thread owns the mutex (acquired above, on the same thread: a lock
        // never leaves the function that took it). The handle closes after this.
        unsafe { ReleaseMutex(self.0.0) };
    }
}

/// Write `entries` into `path`'s DACL in one `SetNamedSecurityInfoW` call (one walk of the
/// tree below): merge an allow ACE for each `Grant` entry (`GRANT_ACCESS`), remove every
/// explicit ACE of each `Revoke` entry's SID (`REVOKE_ACCESS`).
fn edit(path: &Path, entries: &[Entry]) -> std::io::Result<()> {
    if entries.is_empty() {
        return Ok(());
    }
    let name = wide(path.as_os_str());
    let sids: Vec<Sid> = entries
        .iter()
        .map(|e| Sid::parse(&e.sid))
        .collect::<Result<_, _>>()?;
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
        .zip(&sids)
        .map(|(entry, sid)| EXPLICIT_ACCESS_W {
            grfAccessPermissions: entry.mask,
            grfAccessMode: match entry.mode {
                Mode::Grant => GRANT_ACCESS,
                Mode::Revoke => REVOKE_ACCESS,
            },
            grfInheritance: entry.inheritance,
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
