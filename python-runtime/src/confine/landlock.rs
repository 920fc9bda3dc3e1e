//! The Landlock layer (Linux): the plan's read-only and read-write paths as one ruleset,
//! TCP bind/connect denied, abstract sockets and signals scoped to the worker — applied
//! best-effort, and described honestly for the report (`linux.rs` puts it in the sequence).
//!
//! No rule grants `Execute`, anywhere: no program can be started (seccomp also denies
//! `execve`). Mapping a shared library with `PROT_EXEC` is not an execute access for
//! Landlock, so `dlopen` of numpy's extension modules from read-only folders still works
//! (tests/confine_linux.rs proves it with libm).

use super::{ConfineError, ConfinePlan, LinuxError};
use ::landlock::{
    ABI, Access, AccessFs, AccessNet, LandlockStatus, PathBeneath, PathFd, Ruleset, RulesetAttr,
    RulesetCreatedAttr, RulesetStatus, Scope,
};
use std::path::Path;

/// The newest ABI whose rights this code was written and tested against (kernel 6.18 here
/// offers ABI 7, which adds only audit-log flags to ABI 6). Best-effort mode drops what an
/// older kernel lacks, and the report says so.
const TARGET_ABI: ABI = ABI::V6;

/// What the kernel made of the ruleset.
pub(super) struct LandlockOutcome {
    pub(super) status: LandlockStatus,
    pub(super) ruleset: RulesetStatus,
    pub(super) no_new_privs: bool,
    /// The plan turned scoping off (a test knob, `ConfinePlan::landlock_scopes`).
    pub(super) scopes_off: bool,
}

/// The Landlock part of the report.
pub(super) struct Described {
    /// The layer's line; none on a kernel without Landlock.
    pub(super) layer: Option<String>,
    /// The report's headline when Landlock is missing altogether.
    pub(super) headline: Option<&'static str>,
}

impl LandlockOutcome {
    /// What took effect, with what is missing pushed onto `missing` (no_new_privs included).
    /// Pure, so every kernel case is unit-tested (`linux.rs`'s tests, on the whole report).
    pub(super) fn describe(&self, missing: &mut Vec<String>) -> Described {
        let mut described = Described {
            layer: None,
            headline: None,
        };
        match self.status {
            LandlockStatus::Available { effective_abi, .. } => {
                let abi = effective_abi as i32;
                let mut covers = vec!["files"];
                if abi >= 4 {
                    covers.push("TCP");
                } else {
                    missing.push(format!("TCP deny (Landlock ABI {abi} < 4)"));
                }
                if abi >= 6 && self.scopes_off {
                    missing.push(format!(
                        "abstract-socket and signal scoping (turned off by {})",
                        super::ENV_TEST_NO_SCOPES
                    ));
                } else if abi >= 6 {
                    covers.push("scopes");
                } else {
                    missing.push(format!(
                        "abstract-socket and signal scoping (Landlock ABI {abi} < 6)"
                    ));
                }
                let ruleset = match self.ruleset {
                    RulesetStatus::FullyEnforced => "",
                    RulesetStatus::PartiallyEnforced => {
                        missing.push(
                            "some Landlock rights (kernel enforced the rules partially)".into(),
                        );
                        " partially"
                    }
                    RulesetStatus::NotEnforced => {
                        missing.push("Landlock rules (not enforced by the kernel)".into());
                        " NOT enforced"
                    }
                };
                described.layer = Some(format!(
                    "landlock ABI {abi}{ruleset} ({})",
                    covers.join(", ")
                ));
            }
            LandlockStatus::NotEnabled | LandlockStatus::NotImplemented => {
                missing.push("Landlock (files, TCP, scopes)".into());
                described.headline = Some("none — kernel without Landlock");
            }
        }
        if !self.no_new_privs {
            missing.push("no_new_privs".into());
        }
        described
    }
}

/// Restrict the calling thread (and the threads it starts later) to the plan's paths.
pub(super) fn apply(plan: &ConfinePlan) -> Result<LandlockOutcome, ConfineError> {
    let all = AccessFs::from_all(TARGET_ABI);
    let read = AccessFs::from_read(TARGET_ABI) & !AccessFs::Execute;
    // No device nodes either: a block device made in the run directory would reach the disk
    // behind every rule (seccomp refuses `mknod` too).
    let read_write = all & !AccessFs::Execute & !AccessFs::MakeBlock & !AccessFs::MakeChar;
    let mut ruleset = Ruleset::default()
        .handle_access(all)
        .and_then(|r| r.handle_access(AccessNet::from_all(TARGET_ABI)))
        .and_then(|r| match plan.landlock_scopes {
            true => r.scope(Scope::from_all(TARGET_ABI)),
            false => Ok(r),
        })
        .and_then(|r| r.create())
        .map_err(LinuxError::Landlock)?;
    for (paths, access) in [(&plan.read_only, read), (&plan.read_write, read_write)] {
        for path in paths {
            // A rule on a file (ld.so.cache, /dev/null) may only carry file rights; asking for
            // directory rights there makes the crate trim them and report "partial".
            let access = if path.is_dir() {
                access
            } else {
                access & AccessFs::from_file(TARGET_ABI)
            };
            ruleset = ruleset
                .add_rule(PathBeneath::new(open(path)?, access))
                .map_err(LinuxError::Landlock)?;
        }
    }
    // No NetPort rule: with TCP bind/connect handled and no port allowed, both are denied.
    let status = ruleset.restrict_self().map_err(LinuxError::Landlock)?;
    Ok(LandlockOutcome {
        status: status.landlock,
        ruleset: status.ruleset,
        no_new_privs: status.no_new_privs,
        scopes_off: !plan.landlock_scopes,
    })
}

fn open(path: &Path) -> Result<PathFd, ConfineError> {
    PathFd::new(path).map_err(|e| ConfineError::MissingPath {
        path: path.to_path_buf(),
        source: std::io::Error::other(e),
    })
}
