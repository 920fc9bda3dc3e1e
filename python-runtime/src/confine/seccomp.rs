//! The seccomp filter: closes what Landlock does not cover.
//!
//! - `socket()` fails with `EACCES` for every family, `AF_UNIX` included: Landlock (ABI 4+)
//!   covers TCP bind/connect only, so UDP, raw and netlink sockets are closed here; and before
//!   Landlock ABI 9 nothing stops `connect` to a *named* UNIX socket the worker can reach —
//!   the D-Bus session bus (`systemd-run --user` over it starts any program outside the
//!   sandbox), X11, Docker, ssh-agent (tests/confine_linux.rs `unix_socket_outside` proved it).
//!   Making a figure needs no socket (checked with strace on numpy/pandas/matplotlib/scipy).
//!   `socketpair` stays allowed: a connected pair reaches nothing outside the process.
//! - Process creation fails with `EPERM`: `fork`, `vfork`, `clone` without `CLONE_THREAD`,
//!   `execve`, `execveat`. `RLIMIT_NPROC` would not hold for root. `clone3` answers `ENOSYS`
//!   because its flags live in memory a filter cannot read; glibc then falls back to `clone`,
//!   where `CLONE_THREAD` is visible, so threads keep working.
//! - `io_uring_setup` fails with `EPERM`: io_uring performs socket and file operations
//!   without passing through the system calls filtered here.
//! - Namespaces, keyrings, `ptrace`, `bpf` and `perf_event_open` fail with `EPERM`: none is
//!   needed to make a figure, and the keyring may hold the user's secrets.
//! - On x86_64, x32-ABI system calls (numbers with bit 30 set) fail with `ENOSYS`: they
//!   would otherwise reach the same kernel functions under numbers this filter does not name.
//! - A foreign architecture (e.g. `int 0x80` on x86_64) kills the process.
//!
//! The fork server (`ProcessRole::ForkServer`) gets the same filter except that `fork` and
//! `clone` without `CLONE_THREAD` are allowed: it forks one child per figure, and never
//! runs submitted code itself. Each child installs the full worker filter on top before the
//! code runs (filters stack: the strictest verdict wins), so a child cannot fork.
//!
//! Written as classic BPF by hand (about thirty instructions) rather than with a crate,
//! because the filter needs different errnos per call and an argument bit test.

use super::{ConfineError, ProcessRole};

// Classic BPF opcodes (linux/filter.h).
const LD_W_ABS: u16 = 0x20; // BPF_LD | BPF_W | BPF_ABS
const JEQ_K: u16 = 0x15; // BPF_JMP | BPF_JEQ | BPF_K
const JGE_K: u16 = 0x35; // BPF_JMP | BPF_JGE | BPF_K
const JSET_K: u16 = 0x45; // BPF_JMP | BPF_JSET | BPF_K
const RET_K: u16 = 0x06; // BPF_RET | BPF_K

// struct seccomp_data offsets: nr (u32), arch (u32), ip (u64), args[6] (u64 each).
const OFFSET_NR: u32 = 0;
const OFFSET_ARCH: u32 = 4;
/// Low 32 bits of args[0] on a little-endian machine (x86_64, aarch64).
const OFFSET_ARG0_LOW: u32 = 16;

#[cfg(target_arch = "x86_64")]
const AUDIT_ARCH: u32 = 0xC000_003E; // AUDIT_ARCH_X86_64
#[cfg(target_arch = "aarch64")]
const AUDIT_ARCH: u32 = 0xC000_00B7; // AUDIT_ARCH_AARCH64

const X32_SYSCALL_BIT: u32 = 0x4000_0000;

/// Where a check sends the system call.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Verdict {
    Allow,
    Deny(i32),
    Kill,
    /// Allow only `clone(CLONE_THREAD | …)`.
    CloneThread,
}

#[derive(Clone, Copy)]
enum Target {
    Next,
    To(Verdict),
}

#[derive(Clone, Copy)]
enum Insn {
    Load(u32),
    Return(Verdict),
    /// if `A <op> k` goto `yes` else goto `no`
    Test {
        op: u16,
        k: u32,
        yes: Target,
        no: Target,
    },
}

/// Newer system calls with one number on every architecture (Linux 6.6 and 6.13), not yet
/// in the `libc` crate for all targets.
const SYS_FCHMODAT2: libc::c_long = 452;
const SYS_SETXATTRAT: libc::c_long = 463;
const SYS_REMOVEXATTRAT: libc::c_long = 466;

/// System calls denied outright, with their errno.
fn denied(role: ProcessRole) -> Vec<(libc::c_long, i32)> {
    let mut calls = vec![
        (libc::SYS_execve, libc::EPERM),
        (libc::SYS_execveat, libc::EPERM),
        (libc::SYS_clone3, libc::ENOSYS),
        (libc::SYS_io_uring_setup, libc::EPERM),
        (libc::SYS_io_uring_enter, libc::EPERM),
        (libc::SYS_io_uring_register, libc::EPERM),
        (libc::SYS_unshare, libc::EPERM),
        (libc::SYS_setns, libc::EPERM),
        (libc::SYS_ptrace, libc::EPERM),
        (libc::SYS_keyctl, libc::EPERM),
        (libc::SYS_add_key, libc::EPERM),
        (libc::SYS_request_key, libc::EPERM),
        (libc::SYS_bpf, libc::EPERM),
        (libc::SYS_perf_event_open, libc::EPERM),
        // File metadata and device nodes: Landlock governs neither, and a root worker could
        // otherwise chmod/chown/touch/label any file it can name, or make a block device of
        // the disk in its run directory. Plotting never needs them.
        (libc::SYS_fchmod, libc::EPERM),
        (libc::SYS_fchmodat, libc::EPERM),
        (SYS_FCHMODAT2, libc::EPERM),
        (libc::SYS_fchown, libc::EPERM),
        (libc::SYS_fchownat, libc::EPERM),
        (libc::SYS_utimensat, libc::EPERM),
        (libc::SYS_setxattr, libc::EPERM),
        (libc::SYS_lsetxattr, libc::EPERM),
        (libc::SYS_fsetxattr, libc::EPERM),
        (SYS_SETXATTRAT, libc::EPERM),
        (libc::SYS_removexattr, libc::EPERM),
        (libc::SYS_lremovexattr, libc::EPERM),
        (libc::SYS_fremovexattr, libc::EPERM),
        (SYS_REMOVEXATTRAT, libc::EPERM),
        (libc::SYS_mknodat, libc::EPERM),
    ];
    #[cfg(target_arch = "x86_64")]
    if role == ProcessRole::Worker {
        calls.push((libc::SYS_fork, libc::EPERM));
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = role;
    #[cfg(target_arch = "x86_64")]
    calls.extend([
        (libc::SYS_vfork, libc::EPERM),
        (libc::SYS_chmod, libc::EPERM),
        (libc::SYS_chown, libc::EPERM),
        (libc::SYS_lchown, libc::EPERM),
        (libc::SYS_utime, libc::EPERM),
        (libc::SYS_utimes, libc::EPERM),
        (libc::SYS_futimesat, libc::EPERM),
        (libc::SYS_mknod, libc::EPERM),
    ]);
    calls
}

fn if_nr(nr: u32, verdict: Verdict) -> Insn {
    Insn::Test {
        op: JEQ_K,
        k: nr,
        yes: Target::To(verdict),
        no: Target::Next,
    }
}

/// The argument checks, each a block of two instructions placed after the dispatch.
fn argument_checks() -> [(Verdict, [Insn; 2]); 1] {
    let allow_if = |op, k, otherwise| {
        [
            Insn::Load(OFFSET_ARG0_LOW),
            Insn::Test {
                op,
                k,
                yes: Target::To(Verdict::Allow),
                no: Target::To(otherwise),
            },
        ]
    };
    [(
        Verdict::CloneThread,
        allow_if(
            JSET_K,
            libc::CLONE_THREAD as u32,
            Verdict::Deny(libc::EPERM),
        ),
    )]
}

/// The filter as classic BPF: the dispatch on the call number, then the argument checks,
/// then one return instruction per verdict. All jumps go forward, as BPF requires.
pub(super) fn program(role: ProcessRole) -> Vec<libc::sock_filter> {
    let mut body = vec![
        Insn::Load(OFFSET_ARCH),
        Insn::Test {
            op: JEQ_K,
            k: AUDIT_ARCH,
            yes: Target::Next,
            no: Target::To(Verdict::Kill),
        },
        Insn::Load(OFFSET_NR),
    ];
    if cfg!(target_arch = "x86_64") {
        body.push(Insn::Test {
            op: JGE_K,
            k: X32_SYSCALL_BIT,
            yes: Target::To(Verdict::Deny(libc::ENOSYS)),
            no: Target::Next,
        });
    }
    body.push(if_nr(libc::SYS_socket as u32, Verdict::Deny(libc::EACCES)));
    if role == ProcessRole::Worker {
        body.push(if_nr(libc::SYS_clone as u32, Verdict::CloneThread));
    }
    for (nr, errno) in denied(role) {
        body.push(if_nr(nr as u32, Verdict::Deny(errno)));
    }
    body.push(Insn::Return(Verdict::Allow));

    let checks = argument_checks();
    let mut returns: Vec<Verdict> = Vec::new();
    let all = body
        .iter()
        .chain(checks.iter().flat_map(|(_, block)| block.iter()));
    for insn in all {
        if let Insn::Test { yes, no, .. } = insn {
            for target in [yes, no] {
                if let Target::To(v @ (Verdict::Allow | Verdict::Deny(_) | Verdict::Kill)) = target
                    && !returns.contains(v)
                {
                    returns.push(*v);
                }
            }
        }
    }

    let checks_at = body.len();
    let returns_at = checks_at + 2 * checks.len();
    let address = |v: Verdict| -> usize {
        match returns.iter().position(|r| *r == v) {
            Some(i) => returns_at + i,
            None => checks_at + 2 * checks.iter().position(|(c, _)| *c == v).unwrap_or(0),
        }
    };
    // Offsets are relative to the next instruction; the program is far below 256 long.
    let offset = |at: usize, target: Target| -> u8 {
        match target {
            Target::Next => 0,
            Target::To(v) => u8::try_from(address(v) - at - 1).unwrap_or(u8::MAX),
        }
    };

    let layout = body
        .iter()
        .copied()
        .chain(checks.iter().flat_map(|(_, block)| block.iter().copied()))
        .chain(returns.iter().map(|v| Insn::Return(*v)));
    layout
        .enumerate()
        .map(|(at, insn)| match insn {
            Insn::Load(off) => filter(LD_W_ABS, 0, 0, off),
            Insn::Return(v) => filter(RET_K, 0, 0, ret(v)),
            Insn::Test { op, k, yes, no } => filter(op, offset(at, yes), offset(at, no), k),
        })
        .collect()
}

fn ret(verdict: Verdict) -> u32 {
    match verdict {
        Verdict::Allow => libc::SECCOMP_RET_ALLOW,
        Verdict::Deny(errno) => libc::SECCOMP_RET_ERRNO | (errno as u32 & libc::SECCOMP_RET_DATA),
        // Argument checks are never return instructions; failing closed if one were.
        Verdict::Kill | Verdict::CloneThread => libc::SECCOMP_RET_KILL_PROCESS,
    }
}

fn filter(code: u16, jt: u8, jf: u8, k: u32) -> libc::sock_filter {
    libc::sock_filter { code, jt, jf, k }
}

/// Install the filter on every thread of the process (`SECCOMP_FILTER_FLAG_TSYNC`).
/// Requires `no_new_privs`, which this sets (idempotent; Landlock has set it already).
pub(super) fn apply(role: ProcessRole) -> Result<String, ConfineError> {
    let program = program(role);
    let fprog = libc::sock_fprog {
        len: program.len() as u16,
        filter: program.as_ptr() as *mut libc::sock_filter,
    };
    // SAFETY: prctl with these constant arguments has no memory-safety preconditions.
    if unsafe { libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) } != 0 {
        return Err(ConfineError::Seccomp(std::io::Error::last_os_error()));
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
        return Err(ConfineError::Seccomp(std::io::Error::last_os_error()));
    }
    Ok(match role {
        ProcessRole::Worker => {
            "seccomp (no sockets, no fork/clone/exec, no io_uring, namespaces or keyrings)"
        }
        ProcessRole::ForkServer => {
            "seccomp (no sockets, no exec, no io_uring, namespaces or keyrings; fork allowed: fork server)"
        }
    }
    .into())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tiny classic-BPF interpreter, enough to run our filter on made-up calls.
    fn run(prog: &[libc::sock_filter], arch: u32, nr: u32, arg0: u32) -> u32 {
        let mut pc = 0usize;
        let mut acc = 0u32;
        loop {
            let i = prog[pc];
            match i.code {
                LD_W_ABS => {
                    acc = match i.k {
                        OFFSET_NR => nr,
                        OFFSET_ARCH => arch,
                        OFFSET_ARG0_LOW => arg0,
                        other => panic!("unexpected load offset {other}"),
                    };
                    pc += 1;
                }
                RET_K => return i.k,
                JEQ_K | JGE_K | JSET_K => {
                    let taken = match i.code {
                        JEQ_K => acc == i.k,
                        JGE_K => acc >= i.k,
                        _ => acc & i.k != 0,
                    };
                    pc += 1 + usize::from(if taken { i.jt } else { i.jf });
                }
                other => panic!("unexpected opcode {other:#x}"),
            }
        }
    }

    fn errno(e: i32) -> u32 {
        libc::SECCOMP_RET_ERRNO | e as u32
    }

    #[test]
    fn filter_decides_each_call_as_documented() {
        let p = program(ProcessRole::Worker);
        assert!(
            p.len() < 64,
            "jump offsets must fit in a byte: {} instructions",
            p.len()
        );
        let allow = libc::SECCOMP_RET_ALLOW;
        let call = |nr: libc::c_long, arg0: i32| run(&p, AUDIT_ARCH, nr as u32, arg0 as u32);
        assert_eq!(call(libc::SYS_socket, libc::AF_UNIX), errno(libc::EACCES));
        assert_eq!(call(libc::SYS_socketpair, libc::AF_UNIX), allow);
        assert_eq!(call(libc::SYS_socket, libc::AF_INET), errno(libc::EACCES));
        assert_eq!(call(libc::SYS_socket, libc::AF_INET6), errno(libc::EACCES));
        assert_eq!(
            call(libc::SYS_socket, libc::AF_NETLINK),
            errno(libc::EACCES)
        );
        let thread = libc::CLONE_VM | libc::CLONE_THREAD | libc::CLONE_SIGHAND;
        assert_eq!(call(libc::SYS_clone, thread), allow);
        assert_eq!(call(libc::SYS_clone, libc::SIGCHLD), errno(libc::EPERM));
        assert_eq!(
            call(libc::SYS_clone, libc::CLONE_VM | libc::CLONE_VFORK),
            errno(libc::EPERM)
        );
        assert_eq!(call(libc::SYS_clone3, 0), errno(libc::ENOSYS));
        assert_eq!(call(libc::SYS_execve, 0), errno(libc::EPERM));
        assert_eq!(call(libc::SYS_execveat, 0), errno(libc::EPERM));
        assert_eq!(call(libc::SYS_io_uring_setup, 0), errno(libc::EPERM));
        assert_eq!(call(libc::SYS_read, 0), allow);
        assert_eq!(call(libc::SYS_mmap, 0), allow);
        assert_eq!(call(libc::SYS_openat, 0), allow);
        #[cfg(target_arch = "x86_64")]
        {
            assert_eq!(call(libc::SYS_fork, 0), errno(libc::EPERM));
            assert_eq!(call(libc::SYS_vfork, 0), errno(libc::EPERM));
            let x32_socket = (libc::SYS_socket as u32) | X32_SYSCALL_BIT;
            assert_eq!(run(&p, AUDIT_ARCH, x32_socket, 2), errno(libc::ENOSYS));
        }
        // i386 system calls on x86_64 (int 0x80) or any foreign architecture: killed.
        assert_eq!(run(&p, 0x4000_0003, 359, 2), libc::SECCOMP_RET_KILL_PROCESS);
    }

    #[test]
    fn the_fork_server_may_fork_but_not_exec_or_open_sockets() {
        let p = program(ProcessRole::ForkServer);
        let call = |nr: libc::c_long, arg0: i32| run(&p, AUDIT_ARCH, nr as u32, arg0 as u32);
        let allow = libc::SECCOMP_RET_ALLOW;
        assert_eq!(call(libc::SYS_clone, libc::SIGCHLD), allow);
        #[cfg(target_arch = "x86_64")]
        {
            assert_eq!(call(libc::SYS_fork, 0), allow);
            assert_eq!(call(libc::SYS_vfork, 0), errno(libc::EPERM));
        }
        assert_eq!(call(libc::SYS_execve, 0), errno(libc::EPERM));
        assert_eq!(call(libc::SYS_execveat, 0), errno(libc::EPERM));
        assert_eq!(call(libc::SYS_socket, libc::AF_INET), errno(libc::EACCES));
        assert_eq!(call(libc::SYS_ptrace, 0), errno(libc::EPERM));
        assert_eq!(call(libc::SYS_clone3, 0), errno(libc::ENOSYS));
    }
}
