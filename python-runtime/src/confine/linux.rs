//! Linux: the order of the layers. No capabilities (`capabilities.rs`), then rlimits
//! (`rlimits.rs`), then Landlock (`landlock.rs`), then the wall-clock timer
//! (`wall_clock.rs`), then the seccomp filter (`seccomp/`), which refuses every timer call
//! from then on. The capabilities go first so that no later step, and nothing under the
//! filter, needs `capset` or `prctl(PR_CAPBSET_DROP)`.
//!
//! Landlock is applied best-effort and reported honestly: on a kernel without Landlock the
//! report's summary says "confinement: none — kernel without Landlock" and
//! `fully_enforced` is false; on an older ABI it names what is missing. The caller decides
//! whether to run anyway (the selftest and the window warn).

use super::capabilities::{self, Dropped};
use super::landlock::{self, LandlockOutcome};
use super::{ConfineError, ConfinePlan, ConfineReport, ProcessRole, rlimits, seccomp, wall_clock};

/// What only Linux's layers can fail at (the shared failures are [`ConfineError`]'s).
#[derive(Debug, thiserror::Error)]
pub enum LinuxError {
    #[error(
        "could not confine the worker: {threads} threads are running; apply the confinement first thing in `main`, before any thread starts"
    )]
    Threads { threads: usize },
    #[error("could not apply the Landlock rules")]
    Landlock(#[source] ::landlock::RulesetError),
    #[error(
        "could not drop the worker's administrator rights (capabilities): could not {step}; the worker does not run with them"
    )]
    Capabilities {
        step: &'static str,
        #[source]
        source: std::io::Error,
    },
    #[error("could not set the worker's wall-clock limit: could not {step}")]
    WallClock {
        step: &'static str,
        #[source]
        source: std::io::Error,
    },
    #[error("could not install the seccomp filter (socket and process restrictions)")]
    Seccomp(#[source] std::io::Error),
}

/// When a worker's wall-clock timer is armed.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Arm {
    /// Now, before the filter: a cold worker, whose code runs next.
    Now,
    /// When its figure starts (`wall_clock::arm_pending`): a fork server's child, forked
    /// ahead of its figure.
    AtStart,
}

pub(super) fn apply(plan: &ConfinePlan, arm: Arm) -> Result<ConfineReport, ConfineError> {
    single_threaded()?;
    let capabilities = capabilities::drop_all()?;
    let (mut limits, missing) = rlimits::apply(plan)?;
    let landlock = landlock::apply(plan)?;
    // The fork server runs no submitted code and waits for figures as long as its host
    // lives: it has no time-out of its own (its children each get theirs).
    let timed = plan.role == ProcessRole::Worker && plan.wall_clock_ms > 0;
    let timer = match (timed, arm) {
        (false, _) => seccomp::Timer::Locked,
        (true, Arm::Now) => {
            limits.push(wall_clock::arm(plan.wall_clock_ms)?);
            seccomp::Timer::Locked
        }
        (true, Arm::AtStart) => {
            limits.push(wall_clock::defer(plan.wall_clock_ms));
            seccomp::Timer::Pending
        }
    };
    let seccomp = seccomp::apply(plan.role, timer)?;
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
    let described = landlock.describe(&mut missing);
    let mut layers: Vec<String> = described.layer.into_iter().collect();
    layers.push(seccomp);
    layers.push(format!("rlimits ({})", limits.join(", ")));
    layers.push(capabilities.describe());
    if capabilities.bounding_kept {
        missing.push("an empty capability bounding set (no CAP_SETPCAP to drop it)".into());
    }
    ConfineReport::new(layers, missing, described.headline)
}

/// Landlock restricts the calling thread and the threads it starts later, not threads that
/// already exist; an unconfined sibling thread could be hijacked by code with raw memory
/// access (`np.ctypeslib`). So confinement refuses to run in a multi-threaded process.
fn single_threaded() -> Result<(), LinuxError> {
    let threads = std::fs::read_dir("/proc/self/task").map(|d| d.count());
    match threads {
        Ok(threads) if threads > 1 => Err(LinuxError::Threads { threads }),
        // One thread, or /proc not mounted (then nothing can be checked; seccomp is
        // synchronised to all threads regardless).
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ::landlock::{ABI, LandlockStatus, RulesetStatus};

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
