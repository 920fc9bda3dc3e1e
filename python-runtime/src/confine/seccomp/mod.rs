//! The seccomp filter: an allowlist of the system calls a plotting worker makes.
//!
//! `table.rs` is the one reviewed list: the calls allowed, grouped with a reason each; the
//! calls refused by name with their errno; the calls allowed only with certain arguments.
//! Anything else answers `ENOSYS`, so a library probing a newer call falls back to an
//! older one. The named dangers answer `EPERM`; sockets `EACCES`. In short:
//!
//! - No socket (`socket()` fails with `EACCES` for every family): Landlock (ABI 4+) covers
//!   TCP bind/connect only, and before Landlock ABI 9 nothing stops `connect` to a *named*
//!   UNIX socket — the D-Bus session bus, X11, Docker, ssh-agent. A connected
//!   `socketpair` stays allowed; `sendto` only without an address.
//! - No process creation, no program: `execve`/`execveat` refused; `clone` only with
//!   glibc's exact thread flags (the fork server: also fork's exact flags, never
//!   `CLONE_NEW*`); `clone3` answers `ENOSYS` (its flags live in memory a filter cannot read)
//!   so glibc falls back to `clone`.
//! - No other process: signals (`kill`, `tgkill`, `rt_(tg)sigqueueinfo`) to the caller's
//!   own pid only — the filter is built right before it is installed, with `getpid()` in
//!   it; a fork-server child builds its own after the fork. `prlimit64` and the scheduling
//!   and priority getters for pid 0 (or its own pid) only; no `tkill`, `pidfd_*`,
//!   `ptrace`, `process_vm_*`, `kcmp`, no setting another's scheduling.
//! - No kernel object that outlives the run: SysV shared memory, queues, semaphores and
//!   POSIX message queues are refused (POSIX shared memory lives in `/dev/shm`, which
//!   Landlock keeps out of reach).
//! - No administrator power (a worker started as root): clock, host name, kernel log,
//!   reboot, kexec, modules, mounts, swap, accounting, quotas, identities.
//! - On x86_64, x32-ABI system calls (numbers with bit 30 set) answer `ENOSYS`; a foreign
//!   architecture (e.g. `int 0x80` on x86_64) kills the process.
//!
//! The fork server (`ProcessRole::ForkServer`) gets its own allowlist: the worker's, plus
//! fork, reaping and killing its children, and what a child calls before its own filter is
//! in place (Landlock, `seccomp`, `prctl(PR_SET_PDEATHSIG)`). Each child installs the
//! worker's filter on top before any code runs (filters stack: the strictest verdict wins).
//!
//! - No touching the wall-clock timer (`confine/wall_clock.rs`): `timer_create`,
//!   `timer_settime` and `timer_delete` refused, so the SIGKILL at the run's time-out comes
//!   whatever the code does. A fork server's child arms its timer when its figure starts
//!   and then stacks a small filter that refuses those calls and `seccomp` itself.
//!
//! The generator (`bpf.rs`) lays the dispatch out as a binary search over ranges of call
//! numbers, so the list can grow; a jump that does not fit is an error, not a saturation.

mod bpf;
mod table;
#[cfg(test)]
mod tests;

use super::{LinuxError, ProcessRole};
use bpf::{Asm, AsmError, JEQ_K, JGE_K, Label};
use std::collections::{BTreeMap, HashMap};
use table::{ArgRule, Check, Nr};

// struct seccomp_data offsets: nr (u32), arch (u32), ip (u64), args[6] (u64 each).
const OFFSET_NR: u32 = 0;
const OFFSET_ARCH: u32 = 4;
const OFFSET_ARGS: u32 = 16;

#[cfg(target_arch = "x86_64")]
const AUDIT_ARCH: u32 = 0xC000_003E; // AUDIT_ARCH_X86_64
#[cfg(target_arch = "aarch64")]
const AUDIT_ARCH: u32 = 0xC000_00B7; // AUDIT_ARCH_AARCH64

const X32_SYSCALL_BIT: u32 = 0x4000_0000;

/// What the filter answers for one call.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Verdict {
    Allow,
    Errno(i32),
    Kill,
}

impl Verdict {
    fn ret(self) -> u32 {
        match self {
            Verdict::Allow => libc::SECCOMP_RET_ALLOW,
            Verdict::Errno(e) => libc::SECCOMP_RET_ERRNO | (e as u32 & libc::SECCOMP_RET_DATA),
            Verdict::Kill => libc::SECCOMP_RET_KILL_PROCESS,
        }
    }
}

/// How one call number is decided.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Decision {
    Plain(Verdict),
    Args(ArgRule),
}

/// Why the filter could not be built: a mistake in the table, or a program the generator
/// cannot lay out. Only a bug in PDFAgent; the worker does not start.
#[derive(Debug, thiserror::Error)]
enum FilterError {
    #[error("system call number {0} is negative")]
    Negative(Nr),
    #[error("system call {0} is named twice in the seccomp table")]
    NamedTwice(u32),
    #[error(transparent)]
    Layout(#[from] AsmError),
}

/// Every call number `role`'s filter names, with its decision. A number named twice is a
/// mistake in the table, reported rather than silently resolved.
fn decisions(
    role: ProcessRole,
    pid: u32,
    timer: Timer,
) -> Result<BTreeMap<u32, Decision>, FilterError> {
    let mut named: BTreeMap<u32, Decision> = BTreeMap::new();
    let mut name = |nr: Nr, decision: Decision| -> Result<(), FilterError> {
        let nr = u32::try_from(nr).map_err(|_| FilterError::Negative(nr))?;
        match named.insert(nr, decision) {
            Some(_) => Err(FilterError::NamedTwice(nr)),
            None => Ok(()),
        }
    };
    let fork_server = role == ProcessRole::ForkServer;
    let mut allowed: Vec<&table::Group> =
        table::ALLOWED.iter().chain(table::ALLOWED_X86_64).collect();
    if fork_server {
        allowed.extend(table::ALLOWED_FORK_SERVER);
    }
    for group in allowed {
        for nr in group.calls {
            name(*nr, Decision::Plain(Verdict::Allow))?;
        }
    }
    for group in table::DENIED.iter().chain(table::DENIED_X86_64) {
        for nr in group.calls {
            name(*nr, Decision::Plain(Verdict::Errno(group.errno)))?;
        }
    }
    for nr in table::FORK_LEGACY {
        let verdict = if fork_server {
            Verdict::Allow
        } else {
            Verdict::Errno(libc::EPERM)
        };
        name(*nr, Decision::Plain(verdict))?;
    }
    // The wall-clock timer (`confine/wall_clock.rs`): armed before this filter, never
    // touched again — except by a fork server's child before its figure starts (and by the
    // fork server, whose filter its children inherit), which arms it then and locks it.
    let arming = fork_server || timer == Timer::Pending;
    for nr in table::WALL_CLOCK_ARMING {
        let verdict = if arming {
            Verdict::Allow
        } else {
            Verdict::Errno(libc::EPERM)
        };
        name(*nr, Decision::Plain(verdict))?;
    }
    if timer == Timer::Pending && !fork_server {
        // The lock is one more filter on top (`lock_wall_clock`).
        name(libc::SYS_seccomp, Decision::Plain(Verdict::Allow))?;
    }
    for rule in table::arg_rules(role, pid) {
        name(rule.nr, Decision::Args(rule))?;
    }
    Ok(named)
}

/// The return instructions, one per distinct verdict, written where first needed.
#[derive(Default)]
struct Returns(HashMap<u32, Label>);

impl Returns {
    fn get(&mut self, asm: &mut Asm, verdict: Verdict) -> Label {
        *self
            .0
            .entry(verdict.ret())
            .or_insert_with(|| asm.ret(verdict.ret()))
    }
}

/// The instructions deciding one argument rule; returns its entry.
fn arg_block(asm: &mut Asm, rets: &mut Returns, rule: &ArgRule) -> Result<Label, AsmError> {
    let allow = rets.get(asm, Verdict::Allow);
    let deny = rets.get(asm, Verdict::Errno(rule.errno));
    let low = OFFSET_ARGS + 8 * u32::from(rule.arg);
    // The upper word follows the lower on a little-endian machine (x86_64, aarch64).
    let high = low + 4;
    Ok(match &rule.check {
        Check::OneOf(values) if values.is_empty() => deny,
        Check::OneOf(values) => {
            let mut next = deny;
            for v in values.iter().rev() {
                next = asm.branch(JEQ_K, *v, allow, next)?;
            }
            asm.load(low)
        }
        Check::NoneOf(values) => {
            let mut next = allow;
            for v in values.iter().rev() {
                next = asm.branch(JEQ_K, *v, deny, next)?;
            }
            asm.load(low)
        }
        Check::PositivePid => {
            let not_zero = asm.branch(JEQ_K, 0, deny, allow)?;
            asm.branch(JGE_K, 0x8000_0000, deny, not_zero)?;
            asm.load(low)
        }
        Check::Null64 => {
            asm.branch(JEQ_K, 0, allow, deny)?;
            let load_high = asm.load(high);
            asm.branch(JEQ_K, 0, load_high, deny)?;
            asm.load(low)
        }
    })
}

/// A binary search over `ranges` (each `(first call number, where it goes)`, sorted, the
/// first starting at 0): each node asks `nr >= start of the upper half`.
fn search(asm: &mut Asm, ranges: &[(u32, Label)]) -> Result<Label, AsmError> {
    if let [(_, only)] = ranges {
        return Ok(*only);
    }
    let mid = ranges.len() / 2;
    let upper = search(asm, &ranges[mid..])?;
    let lower = search(asm, &ranges[..mid])?;
    asm.branch(JGE_K, ranges[mid].0, upper, lower)
}

/// Where the process's wall-clock timer stands when its filter is installed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Timer {
    /// Armed already, or none: the filter refuses every timer call.
    Locked,
    /// A fork server's child, armed when its figure starts: the filter allows arming it and
    /// the one `seccomp` call that locks it ([`lock_wall_clock`]).
    Pending,
}

/// The filter as classic BPF, for `role` in the process whose pid is `pid`.
#[cfg(test)]
fn program(role: ProcessRole, pid: u32) -> Result<Vec<libc::sock_filter>, FilterError> {
    program_with(role, pid, Timer::Locked)
}

/// The filter as classic BPF, for `role` in the process whose pid is `pid`, its timer `timer`.
fn program_with(
    role: ProcessRole,
    pid: u32,
    timer: Timer,
) -> Result<Vec<libc::sock_filter>, FilterError> {
    let named = decisions(role, pid, timer)?;
    Ok(build(&named)?)
}

/// The filter stacked on a fork server's child once its timer is armed: the timer calls and
/// `seccomp` itself answer `EPERM`, everything else is left to the filters below (stacked
/// filters: the strictest verdict wins, so this allows nothing they refuse).
fn lock_program() -> Result<Vec<libc::sock_filter>, AsmError> {
    let mut asm = Asm::default();
    let allow = asm.ret(Verdict::Allow.ret());
    let refuse = asm.ret(Verdict::Errno(libc::EPERM).ret());
    let mut next = allow;
    for nr in table::WALL_CLOCK_LOCKED.iter().rev() {
        // Call numbers are small and positive (the table's own test checks every one).
        next = asm.branch(JEQ_K, *nr as u32, refuse, next)?;
    }
    let load_nr = asm.load(OFFSET_NR);
    // Another architecture's numbers mean other calls: the filter below kills those.
    asm.branch(JEQ_K, AUDIT_ARCH, load_nr, allow)?;
    let entry = asm.load(OFFSET_ARCH);
    asm.finish(entry)
}

/// Lock a fork server's child's freshly armed timer: no call may disarm, delete or re-arm it,
/// and no further filter may be installed (`confine/wall_clock.rs`).
pub(super) fn lock_wall_clock() -> Result<(), LinuxError> {
    let program =
        lock_program().map_err(|e| LinuxError::Seccomp(std::io::Error::other(e.to_string())))?;
    install(&program)
}

fn build(named: &BTreeMap<u32, Decision>) -> Result<Vec<libc::sock_filter>, AsmError> {
    let mut asm = Asm::default();
    let mut rets = Returns::default();
    let enosys = rets.get(&mut asm, Verdict::Errno(libc::ENOSYS));
    let kill = rets.get(&mut asm, Verdict::Kill);
    let mut ranges: Vec<(u32, Label)> = Vec::new();
    let mut push = |start: u32, label: Label| {
        if ranges.last().is_some_and(|(s, _)| *s == start) {
            ranges.pop();
        }
        if ranges.last().map(|(_, l)| *l) != Some(label) {
            ranges.push((start, label));
        }
    };
    push(0, enosys);
    for (nr, decision) in named {
        let label = match decision {
            Decision::Plain(verdict) => rets.get(&mut asm, *verdict),
            Decision::Args(rule) => arg_block(&mut asm, &mut rets, rule)?,
        };
        push(*nr, label);
        push(nr.saturating_add(1), enosys);
    }
    // The search's root is the instruction right after the loads (and the x32 check).
    let dispatch = search(&mut asm, &ranges)?;
    if cfg!(target_arch = "x86_64") {
        asm.branch(JGE_K, X32_SYSCALL_BIT, enosys, dispatch)?;
    }
    let load_nr = asm.load(OFFSET_NR);
    asm.branch(JEQ_K, AUDIT_ARCH, load_nr, kill)?;
    let entry = asm.load(OFFSET_ARCH);
    asm.finish(entry)
}

/// Install the filter on every thread of the process (`SECCOMP_FILTER_FLAG_TSYNC`).
/// Requires `no_new_privs`, which this sets (idempotent; Landlock has set it already).
/// Returns the description for the confinement report.
pub(super) fn apply(role: ProcessRole, timer: Timer) -> Result<String, LinuxError> {
    // SAFETY: getpid has no preconditions. The filter is built here, in the process it
    // confines, so "its own pid" is this process's (a fork-server child's, after the fork).
    let pid = unsafe { libc::getpid() } as u32;
    let program = program_with(role, pid, timer)
        .map_err(|e| LinuxError::Seccomp(std::io::Error::other(e)))?;
    install(&program)?;
    Ok(describe(role))
}

/// Install `program` on every thread of the process, `no_new_privs` set first.
fn install(program: &[libc::sock_filter]) -> Result<(), LinuxError> {
    let fprog = libc::sock_fprog {
        // bpf::Asm::finish refuses more than 4096 instructions.
        len: program.len() as u16,
        filter: program.as_ptr() as *mut libc::sock_filter,
    };
    // SAFETY: prctl with these constant arguments has no memory-safety preconditions.
    if unsafe { libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) } != 0 {
        return Err(LinuxError::Seccomp(std::io::Error::last_os_error()));
    }
    // SAFETY: `fprog` points at `program`, which outlives the call; the kernel copies it.
    let rc = unsafe {
        libc::syscall(
            libc::SYS_seccomp,
            libc::SECCOMP_SET_MODE_FILTER,
            libc::SECCOMP_FILTER_FLAG_TSYNC,
            &fprog as *const libc::sock_fprog,
        )
    };
    if rc != 0 {
        return Err(LinuxError::Seccomp(std::io::Error::last_os_error()));
    }
    Ok(())
}

/// The report's words for the filter: what it is, then what it shuts.
fn describe(role: ProcessRole) -> String {
    let shut = "no sockets, no exec, no signal or limit on another process, no SysV/POSIX \
                IPC, no clock/hostname/mount/module/reboot, no io_uring, namespaces or \
                keyrings";
    match role {
        ProcessRole::Worker => {
            format!("seccomp allowlist ({shut}; threads only, no fork; others ENOSYS)")
        }
        ProcessRole::ForkServer => {
            format!("seccomp allowlist ({shut}; fork allowed: fork server; others ENOSYS)")
        }
    }
}
