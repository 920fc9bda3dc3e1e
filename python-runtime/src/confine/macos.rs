//! macOS: the Seatbelt profile (`macos_profile.rs`: `macos.sb` plus the plan's paths),
//! applied with `sandbox_init`, then rlimits.
//!
//! `sandbox_init` is deprecated in the SDK headers but is the same call `sandbox-exec` makes
//! and remains supported. The plan's paths are resolved first (Seatbelt matches real paths:
//! `/tmp` is `/private/tmp`, `/var` is `/private/var`). Code may be mapped only from the
//! executable file and the runtime (the plan's `code`). Not exercised on the Linux build machine: compiled
//! with `cargo clippy --target aarch64-apple-darwin`, the profile text unit-tested.

use super::macos_profile::{ProfilePaths, describe, profile};
use super::{ConfineError, ConfinePlan, ConfineReport, rlimits};
use std::ffi::{CStr, CString, c_char, c_int};
use std::path::{Path, PathBuf};

/// What only the Seatbelt sandbox can fail at (the shared failures are [`ConfineError`]'s).
#[derive(Debug, thiserror::Error)]
pub enum MacosError {
    #[error("could not apply the macOS sandbox profile: {0}")]
    Seatbelt(String),
}

unsafe extern "C" {
    fn sandbox_init(profile: *const c_char, flags: u64, errorbuf: *mut *mut c_char) -> c_int;
    fn sandbox_free_error(errorbuf: *mut c_char);
}

pub(super) fn apply(plan: &ConfinePlan) -> Result<ConfineReport, ConfineError> {
    let (limits, missing) = rlimits::apply(plan)?;
    let text = profile(&resolve(plan)?);
    let text = CString::new(text)
        .map_err(|_| MacosError::Seatbelt("a path in the plan contains a NUL byte".into()))?;
    let mut error: *mut c_char = std::ptr::null_mut();
    // SAFETY: `text` is a NUL-terminated string that outlives the call; `error` is a valid
    // out-pointer, freed below with the matching function when set.
    let rc = unsafe { sandbox_init(text.as_ptr(), 0, &mut error) };
    if rc != 0 {
        let message = if error.is_null() {
            format!("sandbox_init returned {rc}")
        } else {
            // SAFETY: on failure `error` points at a NUL-terminated message owned by us.
            let m = unsafe { CStr::from_ptr(error) }
                .to_string_lossy()
                .into_owned();
            // SAFETY: freeing the message sandbox_init allocated, once.
            unsafe { sandbox_free_error(error) };
            m
        };
        return Err(MacosError::Seatbelt(message).into());
    }
    Ok(describe(&limits, missing))
}

/// The plan's paths, resolved, with the code roots: the plan's read-only paths that are
/// where its code comes from ([`ConfinePlan::code`]: the executable file and the runtime)
/// or lie inside them.
fn resolve(plan: &ConfinePlan) -> Result<ProfilePaths, ConfineError> {
    let roots = plan
        .code
        .iter()
        .map(|p| real(p))
        .collect::<Result<Vec<PathBuf>, _>>()?;
    let mut paths = ProfilePaths::default();
    for path in &plan.read_only {
        let real = real(path)?;
        let text = text(&real)?;
        if roots.iter().any(|root| real.starts_with(root)) {
            paths.code.push(text.clone());
        }
        paths.read_only.push(text);
    }
    for path in &plan.read_write {
        paths.read_write.push(text(&real(path)?)?);
    }
    Ok(paths)
}

fn real(path: &Path) -> Result<PathBuf, ConfineError> {
    std::fs::canonicalize(path).map_err(|source| ConfineError::MissingPath {
        path: path.to_path_buf(),
        source,
    })
}

fn text(path: &Path) -> Result<String, ConfineError> {
    path.to_str().map(str::to_owned).ok_or_else(|| {
        MacosError::Seatbelt(format!(
            "`{}` is not valid UTF-8; rename the folder",
            path.display()
        ))
        .into()
    })
}
