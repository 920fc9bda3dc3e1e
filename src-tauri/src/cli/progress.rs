//! `make-figure`'s progress on stderr (text mode only; `--json` prints its one object and
//! nothing else): nothing for a run that ends within 2 s, then a line such as
//! `running the code (2 s)`, another when the stage changes and one every 5 s while it
//! does not. Plain lines whether or not stderr is a terminal, so a log or a test sees what
//! a person sees. The last line is written before the command prints its result.

use python_runtime::progress::{Pacer, RunClock, describe};
use std::io::Write as _;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

/// A run shorter than this prints no progress.
const QUIET: Duration = Duration::from_secs(2);
/// While the stage stays the same, a line this often.
const EVERY: Duration = Duration::from_secs(5);
/// Never two lines closer than this (stage changes come in bursts).
const MIN_GAP: Duration = Duration::from_secs(1);
/// How often the clock is looked at.
const TICK: Duration = Duration::from_millis(250);

/// Run `run` (which reports its stages to `clock`) while a second thread prints its
/// progress; that thread has ended when this returns.
pub fn while_running<T>(clock: &RunClock, run: impl FnOnce() -> T) -> T {
    let (done, finished) = mpsc::channel::<()>();
    std::thread::scope(|scope| {
        scope.spawn(move || {
            let mut pacer = Pacer::new(QUIET, EVERY, MIN_GAP);
            // Until `done` is dropped: `run` returned (or panicked).
            while let Err(RecvTimeoutError::Timeout) = finished.recv_timeout(TICK) {
                let (stage, elapsed) = (clock.stage(), clock.elapsed());
                if pacer.due(elapsed, stage) {
                    // A closed stderr only loses the line.
                    let _ = writeln!(std::io::stderr(), "{}", describe(stage, elapsed));
                }
            }
        });
        let result = run();
        drop(done);
        result
    })
}
