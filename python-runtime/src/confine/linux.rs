//! Linux: rlimits, then Landlock, then the seccomp filter.
//!
//! Landlock is applied best-effort and reported honestly: on a kernel without Landlock the
//! report's summary says "confinement: none — kernel without Landlock" and
//! `fully_enforced` is false; on an older ABI it names what is missing. The caller decides
//! whether to run anyway (the selftest and the window warn).
//!
//! No rule grants `Execute`, anywhere: no program can be started (seccomp also denies
//! `execve`). Mapping a shared library with `PROT_EXEC` is not an execute access for
//! Landlock, so `dlopen` of numpy's extension modules from read-only folders still works
//! (tests/confine_linux.rs proves it with libm).

use super::{ConfineError, ConfinePlan, ConfineReport, rlimits, seccomp};
use landlock::{
    ABI, Access, AccessFs, AccessNet, LandlockStatus, PathBeneath, PathFd, Ruleset, RulesetAttr,
    RulesetCreatedAttr, RulesetStatus, Scope,
};
use std::path::Path;

/// The newest ABI whose rights this code was written and tested against (kernel 6.18 here
/// offers ABI 7, which adds only audit-log flags to ABI 6). Best-effort mode drops what an
/// older kernel lacks, and the report says so.
const TARGET_ABI: ABI = ABI::V6;

pub(super) fn apply(plan: &ConfinePlan) -> Result<ConfineReport, ConfineError> {
    let (mut enforced, mut missing) = rlimits::apply(plan)?;
    let landlock = landlock(plan)?;
    let seccomp = seccomp::apply()?;

    let mut headline = None;
    let mut layers = Vec::new();
    match landlock.status {
        LandlockStatus::Available { effective_abi, .. } => {
            let abi = effective_abi as i32;
            let mut covers = vec!["files"];
            if abi >= 4 {
                covers.push("TCP");
            } else {
                missing.push(format!("TCP deny (Landlock ABI {abi} < 4)"));
            }
            if abi >= 6 {
                covers.push("scopes");
            } else {
                missing.push(format!(
                    "abstract-socket and signal scoping (Landlock ABI {abi} < 6)"
                ));
            }
            let ruleset = match landlock.ruleset {
                RulesetStatus::FullyEnforced => "",
                RulesetStatus::PartiallyEnforced => " partially",
                RulesetStatus::NotEnforced => {
                    missing.push("Landlock rules (not enforced by the kernel)".into());
                    " NOT enforced"
                }
            };
            layers.push(format!(
                "landlock ABI {abi}{ruleset} ({})",
                covers.join(", ")
            ));
        }
        LandlockStatus::NotEnabled | LandlockStatus::NotImplemented => {
            missing.push("Landlock (files, TCP, scopes)".into());
            headline = Some("none — kernel without Landlock");
        }
    }
    if !landlock.no_new_privs {
        missing.push("no_new_privs".into());
    }
    layers.push(seccomp);
    layers.push(format!("rlimits ({})", enforced.join(", ")));
    enforced = layers;
    Ok(ConfineReport::new(enforced, missing, headline))
}

struct LandlockOutcome {
    status: LandlockStatus,
    ruleset: RulesetStatus,
    no_new_privs: bool,
}

fn landlock(plan: &ConfinePlan) -> Result<LandlockOutcome, ConfineError> {
    let all = AccessFs::from_all(TARGET_ABI);
    let read = AccessFs::from_read(TARGET_ABI) & !AccessFs::Execute;
    let read_write = all & !AccessFs::Execute;
    let mut ruleset = Ruleset::default()
        .handle_access(all)
        .and_then(|r| r.handle_access(AccessNet::from_all(TARGET_ABI)))
        .and_then(|r| r.scope(Scope::from_all(TARGET_ABI)))
        .and_then(|r| r.create())
        .map_err(ConfineError::Landlock)?;
    for (paths, access) in [(&plan.read_only, read), (&plan.read_write, read_write)] {
        for path in paths {
            ruleset = ruleset
                .add_rule(PathBeneath::new(open(path)?, access))
                .map_err(ConfineError::Landlock)?;
        }
    }
    // No NetPort rule: with TCP bind/connect handled and no port allowed, both are denied.
    let status = ruleset.restrict_self().map_err(ConfineError::Landlock)?;
    Ok(LandlockOutcome {
        status: status.landlock,
        ruleset: status.ruleset,
        no_new_privs: status.no_new_privs,
    })
}

fn open(path: &Path) -> Result<PathFd, ConfineError> {
    PathFd::new(path).map_err(|e| ConfineError::MissingPath {
        path: path.to_path_buf(),
        source: std::io::Error::other(e),
    })
}
