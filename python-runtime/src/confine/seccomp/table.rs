//! The reviewed table: every system call a confined worker may make, grouped, each group with
//! the reason a plotting worker needs it; the calls refused by name, each group with its
//! errno and why; and the calls allowed only with certain arguments.
//!
//! Derived by tracing the real worker (`strace -f` on `pdfagent make-figure` over the
//! examples, the as-written corpus, every reader — csv, xlsx, npy, npz, MAT v5 and v7.3,
//! HDF5, JSON —, the figure-report, output-format and CJK-font suites, the selftest, the warm
//! pool's tests and the fork-server suite), then completed with what one machine's trace
//! misses (another glibc, a kernel without the vDSO clock, OpenBLAS spinning, a signal
//! interrupting a sleep). Anything not named here answers `ENOSYS`, so a library that
//! probes a newer call falls back to an older one.
//!
//! Models: Chromium's `sandbox/linux/seccomp-bpf-helpers/baseline_policy.cc` and
//! `syscall_parameters_restrictions.cc` (pid-restricted signals and getters, clone flags
//! compared exactly, `ioctl` limited), and ChromiumOS minijail's per-service policy files.

use super::ProcessRole;

/// A system call number on this architecture.
pub(super) type Nr = libc::c_long;

/// Calls with one number on every architecture (Linux 5.1 unified the table from 424 up),
/// named here because the `libc` crate does not name all of them for every target yet.
pub(super) mod unified {
    use super::Nr;
    pub const PIDFD_SEND_SIGNAL: Nr = 424;
    pub const IO_URING_SETUP: Nr = 425;
    pub const IO_URING_ENTER: Nr = 426;
    pub const IO_URING_REGISTER: Nr = 427;
    pub const OPEN_TREE: Nr = 428;
    pub const MOVE_MOUNT: Nr = 429;
    pub const FSOPEN: Nr = 430;
    pub const FSCONFIG: Nr = 431;
    pub const FSMOUNT: Nr = 432;
    pub const FSPICK: Nr = 433;
    pub const PIDFD_OPEN: Nr = 434;
    pub const CLONE3: Nr = 435;
    pub const CLOSE_RANGE: Nr = 436;
    pub const OPENAT2: Nr = 437;
    pub const PIDFD_GETFD: Nr = 438;
    pub const FACCESSAT2: Nr = 439;
    pub const PROCESS_MADVISE: Nr = 440;
    pub const EPOLL_PWAIT2: Nr = 441;
    pub const MOUNT_SETATTR: Nr = 442;
    pub const QUOTACTL_FD: Nr = 443;
    pub const LANDLOCK_CREATE_RULESET: Nr = 444;
    pub const LANDLOCK_ADD_RULE: Nr = 445;
    pub const LANDLOCK_RESTRICT_SELF: Nr = 446;
    pub const PROCESS_MRELEASE: Nr = 448;
    pub const FUTEX_WAITV: Nr = 449;
    pub const FCHMODAT2: Nr = 452;
    pub const SETXATTRAT: Nr = 463;
    pub const REMOVEXATTRAT: Nr = 466;
    pub const OPEN_TREE_ATTR: Nr = 467;
}
use unified as u;

/// A group of calls and the reason for the group.
pub(super) struct Group {
    /// For the reviewer, and the tests' failure messages.
    #[cfg_attr(not(test), allow(dead_code))]
    pub why: &'static str,
    pub calls: &'static [Nr],
}

/// Calls every confined process (worker, fork server, fork-server child) may make freely.
pub(super) const ALLOWED: &[Group] = &[
    Group {
        why: "memory: the allocator, numpy's buffers, loading extension modules, OpenBLAS's \
              NUMA-aware buffers (its own memory only; RLIMIT_AS bounds the total)",
        calls: &[
            libc::SYS_brk,
            libc::SYS_mmap,
            libc::SYS_munmap,
            libc::SYS_mprotect,
            libc::SYS_mremap,
            libc::SYS_madvise,
            libc::SYS_msync,
            libc::SYS_mincore,
            libc::SYS_mbind,
            libc::SYS_get_mempolicy,
            libc::SYS_set_mempolicy,
            libc::SYS_membarrier,
        ],
    },
    Group {
        why: "descriptors it already holds: reading data, writing the figure, HDF5's flock, \
              shutil's copy, closing what the server opened",
        calls: &[
            libc::SYS_read,
            libc::SYS_write,
            libc::SYS_readv,
            libc::SYS_writev,
            libc::SYS_pread64,
            libc::SYS_pwrite64,
            libc::SYS_preadv,
            libc::SYS_pwritev,
            libc::SYS_preadv2,
            libc::SYS_pwritev2,
            libc::SYS_lseek,
            libc::SYS_close,
            u::CLOSE_RANGE,
            libc::SYS_dup,
            libc::SYS_dup3,
            libc::SYS_fcntl,
            libc::SYS_fstat,
            libc::SYS_fstatfs,
            libc::SYS_ftruncate,
            libc::SYS_fallocate,
            libc::SYS_fsync,
            libc::SYS_fdatasync,
            libc::SYS_flock,
            libc::SYS_getdents64,
            libc::SYS_fadvise64,
            libc::SYS_sendfile,
            libc::SYS_copy_file_range,
        ],
    },
    Group {
        why: "paths: opening, listing and looking up files, temporary files in the run \
              directory; Landlock decides which paths (and refuses everything outside)",
        calls: &[
            libc::SYS_openat,
            u::OPENAT2,
            libc::SYS_newfstatat,
            libc::SYS_statx,
            libc::SYS_statfs,
            libc::SYS_faccessat,
            u::FACCESSAT2,
            libc::SYS_readlinkat,
            libc::SYS_getcwd,
            libc::SYS_chdir,
            libc::SYS_fchdir,
            libc::SYS_mkdirat,
            libc::SYS_unlinkat,
            libc::SYS_renameat2,
        ],
    },
    Group {
        why: "threads (OpenBLAS, Python's threading, the host watch) and their \
              synchronisation; sched_yield is OpenBLAS's spin",
        calls: &[
            libc::SYS_futex,
            u::FUTEX_WAITV,
            libc::SYS_set_robust_list,
            libc::SYS_set_tid_address,
            libc::SYS_rseq,
            libc::SYS_gettid,
            libc::SYS_sched_yield,
            libc::SYS_sched_get_priority_max,
            libc::SYS_sched_get_priority_min,
            libc::SYS_exit,
            libc::SYS_exit_group,
        ],
    },
    Group {
        why: "signals within the process: handlers, masks, the alternate stack, returning \
              from a handler, restarting an interrupted sleep, Python's setitimer",
        calls: &[
            libc::SYS_rt_sigaction,
            libc::SYS_rt_sigprocmask,
            libc::SYS_rt_sigreturn,
            libc::SYS_rt_sigpending,
            libc::SYS_rt_sigsuspend,
            libc::SYS_rt_sigtimedwait,
            libc::SYS_sigaltstack,
            libc::SYS_restart_syscall,
            libc::SYS_setitimer,
            libc::SYS_getitimer,
        ],
    },
    Group {
        why: "clocks and sleeps: the CPU-time clocks and hosts without a vDSO clock reach \
              the kernel; reading time never sets it",
        calls: &[
            libc::SYS_clock_gettime,
            libc::SYS_clock_getres,
            libc::SYS_clock_nanosleep,
            libc::SYS_nanosleep,
            libc::SYS_gettimeofday,
            libc::SYS_times,
            libc::SYS_getrusage,
        ],
    },
    Group {
        why: "waiting on its own descriptors: pipes, event loops, select in the fork \
              server's loop",
        calls: &[
            libc::SYS_ppoll,
            libc::SYS_pselect6,
            libc::SYS_epoll_create1,
            libc::SYS_epoll_ctl,
            libc::SYS_epoll_pwait,
            u::EPOLL_PWAIT2,
            libc::SYS_pipe2,
            libc::SYS_eventfd2,
        ],
    },
    Group {
        why: "a connected socket pair reaches nothing outside the process (asyncio's \
              self-pipe); sendto is allowed only without an address (see the argument rules)",
        calls: &[
            libc::SYS_socketpair,
            libc::SYS_recvfrom,
            libc::SYS_recvmsg,
            libc::SYS_getsockopt,
            libc::SYS_setsockopt,
            libc::SYS_getsockname,
            libc::SYS_getpeername,
            libc::SYS_shutdown,
        ],
    },
    Group {
        why: "about itself: ids, the machine's name and memory, randomness, the umask, its \
              capabilities",
        calls: &[
            libc::SYS_getpid,
            libc::SYS_getppid,
            libc::SYS_getuid,
            libc::SYS_geteuid,
            libc::SYS_getgid,
            libc::SYS_getegid,
            libc::SYS_getgroups,
            libc::SYS_getresuid,
            libc::SYS_getresgid,
            libc::SYS_uname,
            libc::SYS_sysinfo,
            libc::SYS_getcpu,
            libc::SYS_getrandom,
            libc::SYS_umask,
        ],
    },
    Group {
        why: "dropping capabilities before Python starts (confine's capability drop may run \
              after this filter is in place): capset can only lower what the process holds",
        calls: &[libc::SYS_capget, libc::SYS_capset],
    },
];

/// x86_64 only: the older calls glibc (and statically linked wheels built against an older
/// glibc) still make where the generic table has only the `*at` form, plus `arch_prctl`,
/// which sets a new thread's TLS.
#[cfg(target_arch = "x86_64")]
pub(super) const ALLOWED_X86_64: &[Group] = &[Group {
    why: "x86_64's legacy forms of allowed calls, and arch_prctl for a thread's TLS",
    calls: &[
        libc::SYS_open,
        libc::SYS_creat,
        libc::SYS_stat,
        libc::SYS_lstat,
        libc::SYS_access,
        libc::SYS_readlink,
        libc::SYS_getdents,
        libc::SYS_mkdir,
        libc::SYS_rmdir,
        libc::SYS_unlink,
        libc::SYS_rename,
        libc::SYS_renameat,
        libc::SYS_poll,
        libc::SYS_select,
        libc::SYS_pipe,
        libc::SYS_dup2,
        libc::SYS_epoll_wait,
        libc::SYS_epoll_create,
        libc::SYS_eventfd,
        libc::SYS_alarm,
        libc::SYS_pause,
        libc::SYS_time,
        libc::SYS_getpgrp,
        libc::SYS_getrlimit,
        libc::SYS_setrlimit,
        libc::SYS_arch_prctl,
    ],
}];

#[cfg(not(target_arch = "x86_64"))]
pub(super) const ALLOWED_X86_64: &[Group] = &[];

/// The fork server's additions: it forks (the clone flags are checked), reaps and kills its
/// children, and each child, before its own filter is in place, confines itself (Landlock,
/// seccomp, `prctl` for `no_new_privs` and the parent-death signal).
pub(super) const ALLOWED_FORK_SERVER: &[Group] = &[Group {
    why: "the fork server reaps its children; a child confines itself before any code runs",
    calls: &[
        libc::SYS_wait4,
        libc::SYS_waitid,
        u::LANDLOCK_CREATE_RULESET,
        u::LANDLOCK_ADD_RULE,
        u::LANDLOCK_RESTRICT_SELF,
        libc::SYS_seccomp,
    ],
}];

/// The calls that create and arm the wall-clock timer (`confine/wall_clock.rs`): the fork
/// server's and a child's whose figure has not started; `EPERM` for every other worker.
pub(super) const WALL_CLOCK_ARMING: &[Nr] = &[libc::SYS_timer_create, libc::SYS_timer_settime];

/// What the lock stacked on a fork server's child after arming refuses (`EPERM`): every call
/// that could create, re-arm or delete a timer, and another filter.
pub(super) const WALL_CLOCK_LOCKED: &[Nr] = &[
    libc::SYS_timer_create,
    libc::SYS_timer_settime,
    libc::SYS_timer_delete,
    libc::SYS_seccomp,
];

/// A group refused by name, with its errno.
pub(super) struct Denied {
    /// For the reviewer, and the tests' failure messages.
    #[cfg_attr(not(test), allow(dead_code))]
    pub why: &'static str,
    pub errno: i32,
    pub calls: &'static [Nr],
}

/// Refused by name, whatever the role: the dangers a test names one by one. `EPERM` (not the
/// default `ENOSYS`) says "not allowed here" to a person reading the error.
pub(super) const DENIED: &[Denied] = &[
    Denied {
        why: "the wall-clock timer that ends the run with SIGKILL at its time-out is never \
              deleted (creating and arming: `WALL_CLOCK_ARMING`)",
        errno: libc::EPERM,
        calls: &[libc::SYS_timer_delete],
    },
    Denied {
        why: "no program starts: the worker runs Python and nothing else (clone and fork \
              are argument rules; clone3 hides its flags in memory, see below)",
        errno: libc::EPERM,
        calls: &[libc::SYS_execve, libc::SYS_execveat],
    },
    Denied {
        why: "no socket: Landlock covers TCP only; UDP, raw, netlink and named UNIX sockets \
              (the D-Bus session bus starts programs outside the sandbox) stay closed here",
        errno: libc::EACCES,
        calls: &[
            libc::SYS_socket,
            libc::SYS_connect,
            libc::SYS_bind,
            libc::SYS_listen,
            libc::SYS_accept,
            libc::SYS_accept4,
            libc::SYS_sendmsg,
            libc::SYS_sendmmsg,
        ],
    },
    Denied {
        why: "other processes: reading or writing their memory, comparing or grabbing their \
              descriptors, signalling a thread by id alone, moving their pages, changing \
              their scheduling or priority",
        errno: libc::EPERM,
        calls: &[
            libc::SYS_ptrace,
            libc::SYS_process_vm_readv,
            libc::SYS_process_vm_writev,
            libc::SYS_kcmp,
            libc::SYS_tkill,
            u::PIDFD_OPEN,
            u::PIDFD_SEND_SIGNAL,
            u::PIDFD_GETFD,
            u::PROCESS_MADVISE,
            u::PROCESS_MRELEASE,
            libc::SYS_get_robust_list,
            libc::SYS_migrate_pages,
            libc::SYS_move_pages,
            libc::SYS_sched_setaffinity,
            libc::SYS_sched_setparam,
            libc::SYS_sched_setscheduler,
            libc::SYS_sched_setattr,
            libc::SYS_setpriority,
            libc::SYS_ioprio_set,
        ],
    },
    Denied {
        why: "kernel objects that outlive the run: SysV shared memory, message queues and \
              semaphores, POSIX message queues (x86_64 and aarch64 have no `ipc` multiplexer)",
        errno: libc::EPERM,
        calls: &[
            libc::SYS_shmget,
            libc::SYS_shmat,
            libc::SYS_shmdt,
            libc::SYS_shmctl,
            libc::SYS_msgget,
            libc::SYS_msgsnd,
            libc::SYS_msgrcv,
            libc::SYS_msgctl,
            libc::SYS_semget,
            libc::SYS_semop,
            libc::SYS_semtimedop,
            libc::SYS_semctl,
            libc::SYS_mq_open,
            libc::SYS_mq_unlink,
            libc::SYS_mq_timedsend,
            libc::SYS_mq_timedreceive,
            libc::SYS_mq_notify,
            libc::SYS_mq_getsetattr,
        ],
    },
    Denied {
        why: "administrator powers (a worker started as root): the clock, the host's names, \
              the kernel log, rebooting, kernels and modules, mounts, swap, accounting, \
              quotas, identities",
        errno: libc::EPERM,
        calls: &[
            libc::SYS_clock_settime,
            libc::SYS_clock_adjtime,
            libc::SYS_adjtimex,
            libc::SYS_settimeofday,
            libc::SYS_sethostname,
            libc::SYS_setdomainname,
            libc::SYS_syslog,
            libc::SYS_reboot,
            libc::SYS_kexec_load,
            libc::SYS_kexec_file_load,
            libc::SYS_init_module,
            libc::SYS_finit_module,
            libc::SYS_delete_module,
            libc::SYS_mount,
            libc::SYS_umount2,
            libc::SYS_pivot_root,
            libc::SYS_chroot,
            u::OPEN_TREE,
            u::OPEN_TREE_ATTR,
            u::MOVE_MOUNT,
            u::FSOPEN,
            u::FSCONFIG,
            u::FSMOUNT,
            u::FSPICK,
            u::MOUNT_SETATTR,
            libc::SYS_swapon,
            libc::SYS_swapoff,
            libc::SYS_acct,
            libc::SYS_quotactl,
            u::QUOTACTL_FD,
            libc::SYS_vhangup,
            libc::SYS_setuid,
            libc::SYS_setgid,
            libc::SYS_setreuid,
            libc::SYS_setregid,
            libc::SYS_setresuid,
            libc::SYS_setresgid,
            libc::SYS_setfsuid,
            libc::SYS_setfsgid,
            libc::SYS_setgroups,
        ],
    },
    Denied {
        why: "kernel surface no figure needs, each a way around the other walls: BPF, perf, \
              userfaultfd, io_uring (file and socket operations outside these checks), \
              keyrings (the user's secrets), namespaces, file handles (open by inode, \
              around Landlock), fanotify",
        errno: libc::EPERM,
        calls: &[
            libc::SYS_bpf,
            libc::SYS_perf_event_open,
            libc::SYS_userfaultfd,
            u::IO_URING_SETUP,
            u::IO_URING_ENTER,
            u::IO_URING_REGISTER,
            libc::SYS_keyctl,
            libc::SYS_add_key,
            libc::SYS_request_key,
            libc::SYS_unshare,
            libc::SYS_setns,
            libc::SYS_open_by_handle_at,
            libc::SYS_name_to_handle_at,
            libc::SYS_fanotify_init,
        ],
    },
    Denied {
        why: "file metadata and device nodes: Landlock governs neither, so a root worker \
              could chmod/chown/touch/label any file it can name, or make a block device of \
              the disk in its run directory",
        errno: libc::EPERM,
        calls: &[
            libc::SYS_fchmod,
            libc::SYS_fchmodat,
            u::FCHMODAT2,
            libc::SYS_fchown,
            libc::SYS_fchownat,
            libc::SYS_utimensat,
            libc::SYS_setxattr,
            libc::SYS_lsetxattr,
            libc::SYS_fsetxattr,
            u::SETXATTRAT,
            libc::SYS_removexattr,
            libc::SYS_lremovexattr,
            libc::SYS_fremovexattr,
            u::REMOVEXATTRAT,
            libc::SYS_mknodat,
        ],
    },
    Denied {
        why: "clone3 keeps its flags in memory a filter cannot read; ENOSYS makes glibc fall \
              back to clone, whose flags the argument rule checks",
        errno: libc::ENOSYS,
        calls: &[u::CLONE3],
    },
];

/// x86_64's legacy forms of refused calls.
#[cfg(target_arch = "x86_64")]
pub(super) const DENIED_X86_64: &[Denied] = &[Denied {
    why: "x86_64's legacy forms: process creation, file metadata, device nodes, port I/O",
    errno: libc::EPERM,
    calls: &[
        libc::SYS_vfork,
        libc::SYS_chmod,
        libc::SYS_chown,
        libc::SYS_lchown,
        libc::SYS_utime,
        libc::SYS_utimes,
        libc::SYS_futimesat,
        libc::SYS_mknod,
        libc::SYS_iopl,
        libc::SYS_ioperm,
        libc::SYS_uselib,
        libc::SYS_sysfs,
        libc::SYS_ustat,
    ],
}];

#[cfg(not(target_arch = "x86_64"))]
pub(super) const DENIED_X86_64: &[Denied] = &[];

/// x86_64's `fork` has no flags to check: the fork server's (an older glibc forks with it),
/// never a worker's.
#[cfg(target_arch = "x86_64")]
pub(super) const FORK_LEGACY: &[Nr] = &[libc::SYS_fork];
#[cfg(not(target_arch = "x86_64"))]
pub(super) const FORK_LEGACY: &[Nr] = &[];

/// How an argument rule decides. Arguments are compared on their low 32 bits unless said
/// otherwise: every argument checked this way is an `int`, `pid_t` or `unsigned int` in the
/// kernel's signature (or `clone`'s flags, whose upper half `kernel_clone` ignores), so the
/// low word is exactly what the kernel acts on; comparing the upper word too would let a
/// caller pass a value the kernel reads as allowed but the filter refuses, never the reverse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Check {
    /// Allowed when the argument is one of these values.
    OneOf(Vec<u32>),
    /// Refused when the argument is one of these values, allowed otherwise.
    NoneOf(Vec<u32>),
    /// Allowed when the argument, as an `int`, is a positive pid (no process group, not -1).
    PositivePid,
    /// Allowed when the whole 64-bit argument is zero (a null pointer: both words loaded).
    Null64,
}

/// A call allowed only with certain arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct ArgRule {
    pub nr: Nr,
    pub arg: u8,
    pub check: Check,
    /// The errno when the check refuses.
    pub errno: i32,
    pub why: &'static str,
}

/// glibc's `pthread_create` (and Rust's threads through it): exactly these clone flags.
pub(super) const CLONE_THREAD_FLAGS: u32 = (libc::CLONE_VM
    | libc::CLONE_FS
    | libc::CLONE_FILES
    | libc::CLONE_SIGHAND
    | libc::CLONE_THREAD
    | libc::CLONE_SYSVSEM
    | libc::CLONE_SETTLS
    | libc::CLONE_PARENT_SETTID
    | libc::CLONE_CHILD_CLEARTID) as u32;

/// glibc's `fork` (Python's `posix.fork`): exactly these clone flags.
pub(super) const CLONE_FORK_FLAGS: u32 =
    (libc::CLONE_CHILD_SETTID | libc::CLONE_CHILD_CLEARTID | libc::SIGCHLD) as u32;

/// `prctl` options a worker may use: naming threads, reading its own state, and what a
/// capability drop and `no_new_privs` need (both can only lower privileges).
const PRCTL_WORKER: &[i32] = &[
    libc::PR_SET_NAME,
    libc::PR_GET_NAME,
    libc::PR_GET_DUMPABLE,
    libc::PR_GET_PDEATHSIG,
    libc::PR_GET_TIMERSLACK,
    libc::PR_GET_THP_DISABLE,
    libc::PR_GET_SECCOMP,
    libc::PR_GET_NO_NEW_PRIVS,
    libc::PR_SET_NO_NEW_PRIVS,
    libc::PR_GET_KEEPCAPS,
    libc::PR_CAPBSET_READ,
    libc::PR_CAPBSET_DROP,
    libc::PR_CAP_AMBIENT,
    libc::PR_GET_SECUREBITS,
    libc::PR_SET_SECUREBITS,
    // glibc names its malloc arenas and thread stacks with it (tunable glibc.mem.decorate_maps).
    PR_SET_VMA,
];

/// The fork server's children tie themselves to it before their own filter is in place.
const PRCTL_FORK_SERVER: &[i32] = &[libc::PR_SET_PDEATHSIG];

const PR_SET_VMA: i32 = 0x5356_4d41;

/// `ioctl` requests refused on any descriptor: typing into the controlling terminal's input
/// (TIOCSTI) and the virtual console's selection and kernel messages (TIOCLINUX).
const IOCTL_REFUSED: &[u32] = &[libc::TIOCSTI as u32, libc::TIOCLINUX as u32];

/// The argument rules of `role`'s filter. `pid` is the caller's own pid, read right before
/// the filter is built and installed (a fork-server child builds its own after the fork).
pub(super) fn arg_rules(role: ProcessRole, pid: u32) -> Vec<ArgRule> {
    let own = |nr, arg, errno, why| ArgRule {
        nr,
        arg,
        check: Check::OneOf(vec![0, pid]),
        errno,
        why,
    };
    let fork_server = role == ProcessRole::ForkServer;
    let mut prctl: Vec<u32> = PRCTL_WORKER.iter().map(|o| *o as u32).collect();
    if fork_server {
        prctl.extend(PRCTL_FORK_SERVER.iter().map(|o| *o as u32));
    }
    let mut rules = vec![
        own(
            libc::SYS_prlimit64,
            0,
            libc::EPERM,
            "its own limits only (glibc's getrlimit/setrlimit pass 0): another process's \
             limits are neither read (an oracle for which processes exist) nor set",
        ),
        // glibc's pthread_getattr_np (Rust's and Python's threads) asks for the calling
        // thread's affinity by its thread id and treats ENOSYS as "no such functionality".
        own(
            libc::SYS_sched_getaffinity,
            0,
            libc::ENOSYS,
            "its own CPU set only (os.sched_getaffinity(0), OpenBLAS's thread count)",
        ),
        own(
            libc::SYS_sched_getparam,
            0,
            libc::EPERM,
            "its own scheduling only",
        ),
        own(
            libc::SYS_sched_getscheduler,
            0,
            libc::EPERM,
            "its own scheduling only",
        ),
        own(
            libc::SYS_sched_getattr,
            0,
            libc::EPERM,
            "its own scheduling only",
        ),
        own(
            libc::SYS_getpgid,
            0,
            libc::EPERM,
            "its own process group only (os.getpgrp)",
        ),
        own(libc::SYS_getsid, 0, libc::EPERM, "its own session only"),
        ArgRule {
            nr: libc::SYS_getpriority,
            arg: 1,
            check: Check::OneOf(vec![0]),
            errno: libc::EPERM,
            why: "its own priority only: getpriority(which, 0)",
        },
        ArgRule {
            nr: libc::SYS_ioprio_get,
            arg: 1,
            check: Check::OneOf(vec![0]),
            errno: libc::EPERM,
            why: "its own I/O priority only: ioprio_get(which, 0)",
        },
        ArgRule {
            nr: libc::SYS_clone,
            arg: 0,
            check: Check::OneOf(if fork_server {
                vec![CLONE_THREAD_FLAGS, CLONE_FORK_FLAGS]
            } else {
                vec![CLONE_THREAD_FLAGS]
            }),
            errno: libc::EPERM,
            why: "threads exactly as glibc makes them (the fork server: and fork exactly as \
                  glibc forks); never a new namespace, a shared-memory sibling or a vfork",
        },
        ArgRule {
            nr: libc::SYS_ioctl,
            arg: 1,
            check: Check::NoneOf(IOCTL_REFUSED.to_vec()),
            errno: libc::EPERM,
            why: "terminal queries (isatty) and FIOCLEX; never typing into a terminal",
        },
        ArgRule {
            nr: libc::SYS_personality,
            arg: 0,
            check: Check::OneOf(vec![0, 0xffff_ffff]),
            errno: libc::EPERM,
            why: "reading the personality (0xffffffff) or keeping the default (0); never \
                  READ_IMPLIES_EXEC, ADDR_NO_RANDOMIZE and the like",
        },
        ArgRule {
            nr: libc::SYS_prctl,
            arg: 0,
            check: Check::OneOf(prctl),
            errno: libc::EINVAL,
            why: "thread names, its own state, lowering its privileges; any other option \
                  answers EINVAL, the kernel's answer for an option it does not know",
        },
        ArgRule {
            nr: libc::SYS_sendto,
            arg: 4,
            check: Check::Null64,
            errno: libc::EACCES,
            why: "sending on the connected socket pair only: an address would reach a named \
                  datagram socket (syslog's /dev/log, systemd's notify socket)",
        },
    ];
    // The fork server kills the children it forked (time-out, cancel, its own end), each by
    // its pid. Its rules are inherited by every child, whose pid differs from the server's,
    // so they cannot name one pid: any single process, never a group or -1. Each child
    // stacks the worker's rules (itself only) on top before any code runs.
    let signal_target = |nr, why| ArgRule {
        nr,
        arg: 0,
        check: if fork_server {
            Check::PositivePid
        } else {
            Check::OneOf(vec![pid])
        },
        errno: libc::EPERM,
        why,
    };
    rules.extend([
        signal_target(
            libc::SYS_kill,
            "signals to itself only (os.kill(os.getpid(), …)); never the host, a sibling, a \
             process group or -1",
        ),
        signal_target(
            libc::SYS_tgkill,
            "signals to its own threads only (raise, abort, Python's signal handling)",
        ),
        signal_target(
            libc::SYS_rt_tgsigqueueinfo,
            "signals to its own threads only",
        ),
        signal_target(libc::SYS_rt_sigqueueinfo, "signals to itself only"),
    ]);
    rules
}
