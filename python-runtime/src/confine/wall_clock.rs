//! Linux: the run's wall-clock limit, enforced by the kernel. A POSIX timer on
//! `CLOCK_MONOTONIC` delivers SIGKILL to the whole process at the run's time-out (plus a
//! grace, so the host's own time-out, which says why in a sentence, normally comes first).
//! SIGKILL cannot be blocked, handled or ignored, so a worker whose host has died — and
//! nobody kills it any more — still dies on time, whatever its code does (issue #40).
//!
//! The timer is armed before any submitted code runs and can never be disarmed: the
//! worker's seccomp filter refuses `timer_create`, `timer_settime` and `timer_delete`
//! (`seccomp/table.rs`). A cold worker arms it during its confinement, before its filter is
//! installed. A fork server's child is forked ahead of its figure and may wait for it for
//! hours, so it arms the timer when its figure starts ([`arm_pending`], called before the
//! figure's code runs): its filter allows exactly the arming calls until then, and the arming
//! installs one more filter on top that refuses them — and `seccomp` itself — from then on
//! ([`super::seccomp::lock_wall_clock`]). Timers do not survive `fork`, so every child arms
//! its own.

use super::LinuxError;
use std::sync::atomic::{AtomicU64, Ordering};

/// A fork server's child: the limit its figure gets once it starts (0: none; [`ARMED`]: armed).
static PENDING_MS: AtomicU64 = AtomicU64::new(0);

/// Arm the timer: SIGKILL to this process `ms` milliseconds from now. The description for
/// the confinement report.
pub(super) fn arm(ms: u64) -> Result<String, LinuxError> {
    let fail = |step: &'static str| LinuxError::WallClock {
        step,
        source: std::io::Error::last_os_error(),
    };
    // SAFETY: sigevent is plain data (a union the kernel reads by `sigev_notify`); zeroed is
    // a valid value, and only the signal fields are set.
    let mut event: libc::sigevent = unsafe { std::mem::zeroed() };
    event.sigev_notify = libc::SIGEV_SIGNAL;
    event.sigev_signo = libc::SIGKILL;
    let mut timer: libc::c_int = 0;
    // SAFETY: the raw call (not glibc's wrapper, which may start a helper thread for other
    // notify kinds) reads `event` and writes the kernel's timer id into `timer`; both live
    // for the call.
    let created = unsafe {
        libc::syscall(
            libc::SYS_timer_create,
            libc::CLOCK_MONOTONIC,
            &event as *const libc::sigevent,
            &mut timer as *mut libc::c_int,
        )
    };
    if created != 0 {
        return Err(fail("create the timer"));
    }
    let when = libc::itimerspec {
        it_interval: libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        },
        it_value: timespec_of(ms),
    };
    // SAFETY: `when` lives for the call; no old value is asked for.
    let set = unsafe {
        libc::syscall(
            libc::SYS_timer_settime,
            timer,
            0,
            &when as *const libc::itimerspec,
            std::ptr::null_mut::<libc::itimerspec>(),
        )
    };
    if set != 0 {
        return Err(fail("arm the timer"));
    }
    Ok(describe(ms))
}

/// A fork server's child: remember the limit, armed by [`arm_pending`] when its figure
/// starts. The description for the confinement report.
pub(super) fn defer(ms: u64) -> String {
    PENDING_MS.store(ms, Ordering::SeqCst);
    format!("{} from the figure's start", describe(ms))
}

/// A fork server's child whose figure starts now: arm the pending limit and lock the timer
/// calls away (see the module's comment). Once only: a second call fails, as would any timer
/// call after the lock (the filter refuses them). A child confined without a limit (a plan
/// with none) has nothing to arm.
pub(super) fn arm_pending() -> Result<String, LinuxError> {
    match PENDING_MS.swap(ARMED, Ordering::SeqCst) {
        ARMED => Err(LinuxError::WallClock {
            step: "arm the timer again (it is armed already)",
            source: std::io::Error::from(std::io::ErrorKind::AlreadyExists),
        }),
        0 => {
            PENDING_MS.store(0, Ordering::SeqCst);
            Ok("no wall-clock limit in the plan".into())
        }
        ms => {
            let armed = arm(ms)?;
            super::seccomp::lock_wall_clock()?;
            Ok(armed)
        }
    }
}

/// [`PENDING_MS`] once the timer is armed.
const ARMED: u64 = u64::MAX;

fn describe(ms: u64) -> String {
    format!("wall clock {} s (kernel timer, SIGKILL)", ms.div_ceil(1000))
}

fn timespec_of(ms: u64) -> libc::timespec {
    // A zero it_value disarms a timer: at least 1 ms.
    let ms = ms.max(1);
    libc::timespec {
        tv_sec: libc::time_t::try_from(ms / 1000).unwrap_or(libc::time_t::MAX),
        tv_nsec: ((ms % 1000) * 1_000_000) as libc::c_long,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_timer_value_is_never_zero_and_splits_milliseconds() {
        let t = timespec_of(0);
        assert_eq!((t.tv_sec, t.tv_nsec), (0, 1_000_000));
        let t = timespec_of(92_500);
        assert_eq!((t.tv_sec, t.tv_nsec), (92, 500_000_000));
        assert_eq!(describe(92_500), "wall clock 93 s (kernel timer, SIGKILL)");
    }

    #[test]
    fn arming_twice_is_refused() {
        PENDING_MS.store(ARMED, Ordering::SeqCst);
        assert!(arm_pending().is_err());
        assert_eq!(PENDING_MS.load(Ordering::SeqCst), ARMED);
        PENDING_MS.store(0, Ordering::SeqCst);
    }
}
