//! Linux: no capabilities (`capabilities.rs`), then rlimits, then Landlock, then the seccomp
//! filter. The capabilities go first so that no later step, and nothing under the filter,
//! needs `capset` or `prctl(PR_CAPBSET_DROP)`.
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

use super::capabilities::{self, Dropped};
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
    single_threaded()?;
    let capabilities = capabilities::drop_all()?;
    let (limits, missing) = rlimits::apply(plan)?;
    let landlock = landlock(plan)?;
    let seccomp = seccomp::apply(plan.role)?;
    Ok(describe(&landlock, seccomp, &limits, missing, capabilities))
}

/// The report for what took effect; a pure function so every kernel case is unit-tested.
fn describe(
    landlock: &LandlockOutcome,
    seccomp: String,
    limits: &[String],
    mut missing: Vec<String>,
    capabilities: Dropped,
) -> ConfineReport {
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
            if abi >= 6 && landlock.scopes_off {
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
            let ruleset = match landlock.ruleset {
                RulesetStatus::FullyEnforced => "",
                RulesetStatus::PartiallyEnforced => {
                    missing
                        .push("some Landlock rights (kernel enforced the rules partially)".into());
                    " partially"
                }
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
    layers.push(format!("rlimits ({})", limits.join(", ")));
    layers.push(capabilities.describe());
    if capabilities.bounding_kept {
        missing.push("an empty capability bounding set (no CAP_SETPCAP to drop it)".into());
    }
    ConfineReport::new(layers, missing, headline)
}

/// Landlock restricts the calling thread and the threads it starts later, not threads that
/// already exist; an unconfined sibling thread could be hijacked by code with raw memory
/// access (`np.ctypeslib`). So confinement refuses to run in a multi-threaded process.
fn single_threaded() -> Result<(), ConfineError> {
    let threads = std::fs::read_dir("/proc/self/task").map(|d| d.count());
    match threads {
        Ok(threads) if threads > 1 => Err(ConfineError::Threads { threads }),
        // One thread, or /proc not mounted (then nothing can be checked; seccomp is
        // synchronised to all threads regardless).
        _ => Ok(()),
    }
}

struct LandlockOutcome {
    status: LandlockStatus,
    ruleset: RulesetStatus,
    no_new_privs: bool,
    /// The plan turned scoping off (a test knob, `ConfinePlan::landlock_scopes`).
    scopes_off: bool,
}

fn landlock(plan: &ConfinePlan) -> Result<LandlockOutcome, ConfineError> {
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
        .map_err(ConfineError::Landlock)?;
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
                .map_err(ConfineError::Landlock)?;
        }
    }
    // No NetPort rule: with TCP bind/connect handled and no port allowed, both are denied.
    let status = ruleset.restrict_self().map_err(ConfineError::Landlock)?;
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

#[cfg(test)]
mod tests {
    use super::*;

    const NONE_HELD: Dropped = Dropped {
        held: 0,
        bounding_kept: false,
    };

    fn outcome(status: LandlockStatus, ruleset: RulesetStatus) -> LandlockOutcome {
        LandlockOutcome {
            status,
            ruleset,
            no_new_privs: true,
            scopes_off: false,
        }
    }

    fn report(status: LandlockStatus, ruleset: RulesetStatus) -> ConfineReport {
        describe(
            &outcome(status, ruleset),
            "seccomp (…)".into(),
            &["memory 4096 MiB".into()],
            Vec::new(),
            NONE_HELD,
        )
    }

    fn available(abi: ABI) -> LandlockStatus {
        LandlockStatus::Available {
            effective_abi: abi,
            kernel_abi: None,
        }
    }

    #[test]
    fn kernel_without_landlock_says_none_plainly() {
        for status in [LandlockStatus::NotImplemented, LandlockStatus::NotEnabled] {
            let r = report(status, RulesetStatus::NotEnforced);
            assert!(!r.fully_enforced);
            assert!(
                r.summary
                    .starts_with("confinement: none — kernel without Landlock"),
                "{}",
                r.summary
            );
            assert!(r.summary.contains("seccomp"), "still names what did apply");
        }
    }

    #[test]
    fn full_abi_is_fully_enforced() {
        let r = report(available(ABI::V7), RulesetStatus::FullyEnforced);
        assert!(r.fully_enforced, "{r:?}");
        assert!(
            r.summary
                .starts_with("confinement: landlock ABI 7 (files, TCP, scopes)")
        );
    }

    #[test]
    fn old_abi_names_what_is_missing() {
        let r = report(available(ABI::V3), RulesetStatus::PartiallyEnforced);
        assert!(!r.fully_enforced);
        assert!(
            r.summary.contains("landlock ABI 3 partially (files)"),
            "{}",
            r.summary
        );
        assert!(
            r.summary.contains("NOT enforced: TCP deny"),
            "{}",
            r.summary
        );
        assert!(r.missing.iter().any(|m| m.contains("scoping")));
    }

    #[test]
    fn scoping_turned_off_for_a_test_is_reported_as_missing() {
        let mut o = outcome(available(ABI::V6), RulesetStatus::FullyEnforced);
        o.scopes_off = true;
        let r = describe(&o, "seccomp".into(), &[], Vec::new(), NONE_HELD);
        assert!(!r.fully_enforced);
        assert!(
            r.summary.contains("scoping (turned off by"),
            "{}",
            r.summary
        );
    }

    #[test]
    fn missing_no_new_privs_is_reported() {
        let mut o = outcome(available(ABI::V7), RulesetStatus::FullyEnforced);
        o.no_new_privs = false;
        let r = describe(&o, "seccomp".into(), &[], Vec::new(), NONE_HELD);
        assert!(!r.fully_enforced);
        assert!(r.missing.contains(&"no_new_privs".to_owned()));
    }

    #[test]
    fn the_summary_names_the_capabilities() {
        let o = outcome(available(ABI::V7), RulesetStatus::FullyEnforced);
        let root = Dropped {
            held: 41,
            bounding_kept: false,
        };
        let r = describe(&o, "seccomp".into(), &[], Vec::new(), root);
        assert!(r.fully_enforced, "{r:?}");
        assert!(
            r.summary.contains("capabilities: none (dropped 41)"),
            "{}",
            r.summary
        );
        let kept = Dropped {
            bounding_kept: true,
            ..root
        };
        let r = describe(&o, "seccomp".into(), &[], Vec::new(), kept);
        assert!(!r.fully_enforced);
        assert!(
            r.summary
                .contains("NOT enforced: an empty capability bounding set")
        );
    }
}
