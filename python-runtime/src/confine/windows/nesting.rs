//! Where the contained worker's job sits when the launcher is itself inside a job (issue
//! 45): the pure decision, tested on every OS; `launch.rs` and `job.rs` act on it.
//!
//! Task Scheduler, SSH sessions, `Start-Process -Wait`, IDE task runners and GitHub's
//! Windows runners start programs inside a job. A child is created in its parent's job,
//! and `AssignProcessToJobObject` then makes the worker's job a *nested* job of it — which
//! Windows refuses when the new job has UI restrictions (Microsoft, "Nested Jobs": a
//! process can be added to a nested job only when that job sets no UI restrictions). So:
//! - not in a job: create the worker plainly, its job gets every limit ([`Attempt`] 1);
//! - in a job: first create it with `CREATE_BREAKAWAY_FROM_JOB`, out of the launcher's job
//!   (allowed when every job above permits breakaway), and give its job every limit;
//! - when that creation is refused (`ERROR_ACCESS_DENIED`: some job above forbids
//!   breakaway, as GitHub's runners' does), create it again without the flag — inside the
//!   launcher's job — and join it to a job **without UI restrictions**. Every other limit
//!   holds (one process, memory, CPU time, kill with the launcher), the AppContainer does
//!   not depend on the job at all, and the report lists the UI limits the worker lacks
//!   under `missing` ([`missing_ui_limits`]) rather than every run failing.

/// `ERROR_ACCESS_DENIED`: what `CreateProcessW` fails with when breakaway is not allowed.
pub const ERROR_ACCESS_DENIED: i32 = 5;

/// One way of creating the worker and building its job.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Attempt {
    /// Create the worker with `CREATE_BREAKAWAY_FROM_JOB`.
    pub breakaway: bool,
    /// Give the worker's job the UI restrictions ([`UI_LIMITS`]).
    pub ui_restrictions: bool,
}

/// The attempts, in order, for a launcher that is (or is not) inside a job.
pub fn attempts(launcher_in_job: bool) -> Vec<Attempt> {
    let own_job = Attempt {
        breakaway: false,
        ui_restrictions: true,
    };
    if !launcher_in_job {
        return vec![own_job];
    }
    vec![
        Attempt {
            breakaway: true,
            ui_restrictions: true,
        },
        Attempt {
            breakaway: false,
            ui_restrictions: false,
        },
    ]
}

/// Whether a failed creation under `attempt` should go on to the next attempt: only a
/// refused breakaway does; any other failure is the run's error.
pub fn try_next(attempt: Attempt, os_error: Option<i32>) -> bool {
    attempt.breakaway && os_error == Some(ERROR_ACCESS_DENIED)
}

/// The job UI restrictions the worker gets (`JOB_OBJECT_UILIMIT_*`), with the words the
/// report uses for each.
pub const UI_LIMITS: [(u32, &str); 8] = [
    (0x0001, "window handles of other processes"),
    (0x0002, "reading the clipboard"),
    (0x0004, "writing the clipboard"),
    (0x0008, "system parameters"),
    (0x0010, "display settings"),
    (0x0020, "global atoms"),
    (0x0040, "desktop switching"),
    (0x0080, "logoff and shutdown"),
];

/// Every UI restriction, as one `UIRestrictionsClass` value.
pub const fn all_ui_limits() -> u32 {
    let mut all = 0;
    let mut i = 0;
    while i < UI_LIMITS.len() {
        all |= UI_LIMITS[i].0;
        i += 1;
    }
    all
}

/// The UI restrictions that `ui_class` (the job's `UIRestrictionsClass`, `None` when it
/// could not be read) leaves out, by name.
pub fn missing_ui_limits(ui_class: Option<u32>) -> Vec<&'static str> {
    let class = ui_class.unwrap_or(0);
    UI_LIMITS
        .iter()
        .filter(|(bit, _)| class & bit == 0)
        .map(|(_, name)| *name)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outside_a_job_the_worker_gets_one_full_job() {
        assert_eq!(
            attempts(false),
            vec![Attempt {
                breakaway: false,
                ui_restrictions: true
            }]
        );
    }

    #[test]
    fn inside_a_job_breakaway_first_then_a_nested_job_without_ui_limits() {
        let plan = attempts(true);
        assert_eq!(plan.len(), 2);
        // Broken away, the worker's job is not nested: it may have every limit.
        assert!(plan[0].breakaway && plan[0].ui_restrictions);
        // Inside the launcher's job, its job is nested: UI restrictions would make
        // AssignProcessToJobObject fail.
        assert!(!plan[1].breakaway && !plan[1].ui_restrictions);
    }

    #[test]
    fn only_a_refused_breakaway_moves_on() {
        let [breakaway, nested] = attempts(true)[..] else {
            panic!("two attempts inside a job");
        };
        assert!(try_next(breakaway, Some(ERROR_ACCESS_DENIED)));
        // Another failure (a missing file, a bad attribute) is the run's error.
        assert!(!try_next(breakaway, Some(2)));
        assert!(!try_next(breakaway, None));
        // The last attempt has nothing after it.
        assert!(!try_next(nested, Some(ERROR_ACCESS_DENIED)));
    }

    #[test]
    fn the_ui_limits_are_the_eight_windows_defines() {
        // JOB_OBJECT_UILIMIT_HANDLES … EXITWINDOWS: 0x01 … 0x80, each once.
        assert_eq!(all_ui_limits(), 0xff);
        assert!(missing_ui_limits(Some(0xff)).is_empty());
        assert_eq!(missing_ui_limits(Some(0)).len(), 8);
        assert_eq!(missing_ui_limits(None).len(), 8);
        assert_eq!(
            missing_ui_limits(Some(0xff & !0x02 & !0x04)),
            vec!["reading the clipboard", "writing the clipboard"]
        );
    }
}
