//! macOS: the Seatbelt profile (`macos.sb`) plus the plan's paths, applied with
//! `sandbox_init`, then rlimits.
//!
//! `sandbox_init` is deprecated in the SDK headers but is the same call `sandbox-exec` makes
//! and remains supported. The plan's paths are written into the profile as SBPL string
//! literals with `\` and `"` escaped, after resolving symlinks (Seatbelt matches the real
//! path: `/tmp` is `/private/tmp`). Not exercised on the Linux build machine: compiled with
//! `cargo check --target aarch64-apple-darwin` only.

use super::{ConfineError, ConfinePlan, ConfineReport, rlimits};
use std::ffi::{CStr, CString, c_char, c_int};
use std::path::Path;

const PROFILE: &str = include_str!("macos.sb");

unsafe extern "C" {
    fn sandbox_init(profile: *const c_char, flags: u64, errorbuf: *mut *mut c_char) -> c_int;
    fn sandbox_free_error(errorbuf: *mut c_char);
}

pub(super) fn apply(plan: &ConfinePlan) -> Result<ConfineReport, ConfineError> {
    let (limits, missing) = rlimits::apply(plan)?;
    let profile = profile(plan)?;
    let text = CString::new(profile)
        .map_err(|_| ConfineError::Seatbelt("a path in the plan contains a NUL byte".into()))?;
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
            unsafe { sandbox_free_error(error) };
            m
        };
        return Err(ConfineError::Seatbelt(message));
    }
    let enforced = vec![
        "seatbelt (files, network, process exec/fork)".to_owned(),
        format!("rlimits ({})", limits.join(", ")),
    ];
    Ok(ConfineReport::new(enforced, missing, None))
}

/// The static profile followed by one rule per plan path.
fn profile(plan: &ConfinePlan) -> Result<String, ConfineError> {
    let mut text = String::from(PROFILE);
    text.push_str("\n;; The plan's paths.\n");
    for path in &plan.read_only {
        text.push_str(&format!(
            "(allow file-read* (subpath {}))\n",
            literal(path)?
        ));
    }
    for path in &plan.read_write {
        let p = literal(path)?;
        text.push_str(&format!("(allow file-read* file-write* (subpath {p}))\n"));
    }
    Ok(text)
}

/// A path as an SBPL string literal: resolved, with `\` and `"` escaped.
fn literal(path: &Path) -> Result<String, ConfineError> {
    let real = std::fs::canonicalize(path).map_err(|source| ConfineError::MissingPath {
        path: path.to_path_buf(),
        source,
    })?;
    let raw = real.to_str().ok_or_else(|| {
        ConfineError::Seatbelt(format!("`{}` is not valid UTF-8", real.display()))
    })?;
    Ok(escape(raw))
}

fn escape(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len() + 2);
    out.push('"');
    for c in raw.chars() {
        if c == '\\' || c == '"' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn quotes_and_backslashes_cannot_end_the_literal() {
        assert_eq!(escape(r#"/a"b\c"#), r#""/a\"b\\c""#);
        assert_eq!(
            escape(r#"/x") (allow default) ("#),
            r#""/x\") (allow default) (""#
        );
    }
}
