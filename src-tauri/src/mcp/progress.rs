//! `make_figure`'s progress for a client that asks for it with a `progressToken` in the
//! request's `_meta`: `notifications/progress` whose `progress` is the seconds since the
//! call arrived (increasing; no `total`, a figure's length is unknown) and whose `message`
//! is the stage and the elapsed time (`running the code (3 s)`). None during the first
//! second, then one a second and one on each change of stage, never more than four a
//! second. A call without a token gets none.
//!
//! None follows the result: the reporter runs beside the job in the handler's own task, each
//! notification is awaited until the transport has written it (rmcp's `send_notification`
//! resolves after the write, not when queued), and the handler returns its result — the
//! only thing that makes rmcp write the response — after the reporter has stopped.

use python_runtime::progress::{Pacer, RunClock, describe};
use rmcp::model::{ProgressNotificationParam, ProgressToken};
use rmcp::service::{Peer, RequestContext, RoleServer};
use std::future::Future;
use std::time::Duration;
use tokio::time::MissedTickBehavior;
use tokio_util::sync::CancellationToken;

/// A call shorter than this gets no notification.
const QUIET: Duration = Duration::from_secs(1);
/// While the stage stays the same, a notification this often.
const EVERY: Duration = Duration::from_secs(1);
/// Never two notifications closer than this ("at most a few a second").
const MIN_GAP: Duration = Duration::from_millis(250);
/// How often the run's clock is looked at.
const TICK: Duration = Duration::from_millis(250);

/// Where one call's notifications go: the client and the token it gave.
pub struct Reporter {
    peer: Peer<RoleServer>,
    token: ProgressToken,
}

impl Reporter {
    /// `None` when the call carries no progress token (the client did not ask).
    pub fn for_request(context: &RequestContext<RoleServer>) -> Option<Reporter> {
        let token = context.meta.get_progress_token()?;
        Some(Reporter {
            peer: context.peer.clone(),
            token,
        })
    }

    /// Tell the client how `clock`'s run goes until `done` or `stop` fires; returns once no
    /// notification is being written.
    async fn report(&self, clock: &RunClock, done: &CancellationToken, stop: &CancellationToken) {
        let mut pacer = Pacer::new(QUIET, EVERY, MIN_GAP);
        let mut ticks = tokio::time::interval(TICK);
        ticks.set_missed_tick_behavior(MissedTickBehavior::Delay);
        let mut last = 0.0_f64;
        loop {
            tokio::select! {
                biased;
                _ = done.cancelled() => return,
                _ = stop.cancelled() => return,
                _ = ticks.tick() => {}
            }
            let (stage, elapsed) = (clock.stage(), clock.elapsed());
            if !pacer.due(elapsed, stage) {
                continue;
            }
            // Whole milliseconds, truncated as the message's whole seconds are; the pacer's
            // gap keeps successive values apart.
            let progress = elapsed.as_millis() as f64 / 1000.0;
            if progress <= last {
                continue;
            }
            last = progress;
            let notification = ProgressNotificationParam::new(self.token.clone(), progress)
                .with_message(describe(stage, elapsed));
            // Not raced against `done`: a notification half written would break the stream.
            if self.peer.notify_progress(notification).await.is_err() {
                // The connection is gone; there is no one left to tell.
                return;
            }
        }
    }
}

/// Await `job`, whose stages `clock` records, while `reporter` (if the client asked)
/// reports them; returns the job's output after the last notification has been written.
/// `stop` (the call's cancellation) ends the reports at once.
pub async fn while_running<T>(
    reporter: Option<Reporter>,
    clock: &RunClock,
    stop: &CancellationToken,
    job: impl Future<Output = T>,
) -> T {
    let Some(reporter) = reporter else {
        return job.await;
    };
    let done = CancellationToken::new();
    let run = async {
        let output = job.await;
        done.cancel();
        output
    };
    let (output, ()) = tokio::join!(run, reporter.report(clock, &done, stop));
    output
}
