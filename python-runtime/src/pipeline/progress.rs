//! Progress of one run for a display that polls it: the stage the pipeline last reported
//! (through its `progress` callback) and the time since the run was asked for, shared
//! between the thread that runs the figure and the one that shows its progress; a pacer
//! that decides when a report is worth showing; the words for each stage.
//!
//! The command line (`make-figure` without `--json`) and the MCP server
//! (`notifications/progress`) show the same reports, paced differently.

use super::Stage;
use std::sync::atomic::{AtomicU8, Ordering};
use std::time::{Duration, Instant};

/// Where a run is and since when. `observe` is the pipeline's `progress` callback; any
/// other thread reads `stage` and `elapsed`.
#[derive(Debug)]
pub struct RunClock {
    started: Instant,
    stage: AtomicU8,
}

/// `None` (no stage reported yet: the run waits to start) as the atomic stores it.
const NOT_STARTED: u8 = 0;

fn encode(stage: Stage) -> u8 {
    match stage {
        Stage::Checking => 1,
        Stage::Starting => 2,
        Stage::Running => 3,
        Stage::Saving => 4,
    }
}

fn decode(code: u8) -> Option<Stage> {
    match code {
        1 => Some(Stage::Checking),
        2 => Some(Stage::Starting),
        3 => Some(Stage::Running),
        4 => Some(Stage::Saving),
        _ => None,
    }
}

impl RunClock {
    /// A clock for a run asked for now, before any stage.
    pub fn start() -> Self {
        RunClock {
            started: Instant::now(),
            stage: AtomicU8::new(NOT_STARTED),
        }
    }

    /// Record the stage the pipeline has reached.
    pub fn observe(&self, stage: Stage) {
        self.stage.store(encode(stage), Ordering::Relaxed);
    }

    /// The last stage reported; `None` while the run waits to start.
    pub fn stage(&self) -> Option<Stage> {
        decode(self.stage.load(Ordering::Relaxed))
    }

    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }
}

/// When a report is due: none during the first `quiet`, then one at once, one whenever the
/// stage changes and one every `every` while it does not — never two within `min_gap`.
#[derive(Debug, Clone)]
pub struct Pacer {
    quiet: Duration,
    every: Duration,
    min_gap: Duration,
    last: Option<(Duration, Option<Stage>)>,
}

impl Pacer {
    pub fn new(quiet: Duration, every: Duration, min_gap: Duration) -> Self {
        Pacer {
            quiet,
            every,
            min_gap,
            last: None,
        }
    }

    /// Whether to report `stage` now, `elapsed` after the run was asked for (`elapsed` never
    /// decreases between calls); a `true` counts as reported.
    pub fn due(&mut self, elapsed: Duration, stage: Option<Stage>) -> bool {
        if elapsed < self.quiet {
            return false;
        }
        let due = match self.last {
            None => true,
            Some((at, last_stage)) => {
                let since = elapsed.saturating_sub(at);
                since >= self.min_gap && (stage != last_stage || since >= self.every)
            }
        };
        if due {
            self.last = Some((elapsed, stage));
        }
        due
    }
}

/// What a run is doing at `stage`, in words (`None`: waiting to start).
pub fn stage_words(stage: Option<Stage>) -> &'static str {
    match stage {
        None => "waiting for a free run slot",
        Some(Stage::Checking) => "checking the code",
        Some(Stage::Starting) => "starting the confined worker",
        Some(Stage::Running) => "running the code",
        Some(Stage::Saving) => "saving the figure",
    }
}

/// One report: the stage and the whole seconds since the run was asked for, e.g.
/// `running the code (3 s)`.
pub fn describe(stage: Option<Stage>, elapsed: Duration) -> String {
    format!("{} ({} s)", stage_words(stage), elapsed.as_secs())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn pacer() -> Pacer {
        Pacer::new(ms(2000), ms(5000), ms(1000))
    }

    #[test]
    fn nothing_is_due_before_the_quiet_time_then_one_report_at_once() {
        let mut p = pacer();
        for t in [0, 250, 1999] {
            assert!(!p.due(ms(t), Some(Stage::Running)), "{t} ms");
        }
        assert!(p.due(ms(2000), Some(Stage::Running)));
        assert!(!p.due(ms(2250), Some(Stage::Running)));
    }

    #[test]
    fn an_unchanged_stage_is_reported_every_period() {
        let mut p = pacer();
        let reported: Vec<u64> = (0..=60)
            .map(|i| i * 250)
            .filter(|&t| p.due(ms(t), Some(Stage::Running)))
            .collect();
        assert_eq!(reported, [2000, 7000, 12000]);
    }

    #[test]
    fn a_new_stage_is_reported_after_the_minimum_gap_only() {
        let mut p = pacer();
        assert!(p.due(ms(2000), Some(Stage::Running)));
        assert!(!p.due(ms(2500), Some(Stage::Saving)), "within the gap");
        assert!(p.due(ms(3000), Some(Stage::Saving)));
        assert!(
            !p.due(ms(4500), Some(Stage::Saving)),
            "unchanged, period not over"
        );
    }

    #[test]
    fn stage_changes_before_the_quiet_time_are_not_reported() {
        let mut p = pacer();
        assert!(!p.due(ms(10), Some(Stage::Checking)));
        assert!(!p.due(ms(20), Some(Stage::Starting)));
        assert!(p.due(ms(2000), Some(Stage::Running)));
    }

    #[test]
    fn the_clock_holds_the_last_stage_observed() {
        let clock = RunClock::start();
        assert_eq!(clock.stage(), None);
        for stage in [
            Stage::Checking,
            Stage::Starting,
            Stage::Running,
            Stage::Saving,
        ] {
            clock.observe(stage);
            assert_eq!(clock.stage(), Some(stage));
        }
    }

    #[test]
    fn a_report_names_the_stage_and_whole_seconds() {
        assert_eq!(
            describe(Some(Stage::Running), ms(3999)),
            "running the code (3 s)"
        );
        assert_eq!(describe(None, ms(500)), "waiting for a free run slot (0 s)");
    }
}
