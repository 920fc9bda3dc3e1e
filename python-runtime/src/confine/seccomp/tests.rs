use super::bpf::{JA, JEQ_K, JGE_K, LD_W_ABS, RET_K};
use super::table::{self, CLONE_FORK_FLAGS, CLONE_THREAD_FLAGS, Nr, unified as u};
use super::*;

const JGT_K: u16 = 0x25; // BPF_JMP | BPF_JGT | BPF_K
const JSET_K: u16 = 0x45; // BPF_JMP | BPF_JSET | BPF_K

/// One system call as the kernel hands it to the filter (`struct seccomp_data`).
#[derive(Clone, Copy)]
struct Call {
    arch: u32,
    nr: u32,
    args: [u64; 6],
}

fn call(nr: Nr, args: &[u64]) -> Call {
    let mut all = [0u64; 6];
    all[..args.len()].copy_from_slice(args);
    Call {
        arch: AUDIT_ARCH,
        nr: nr as u32,
        args: all,
    }
}

/// A classic-BPF interpreter for what a seccomp filter may contain: every load offset of
/// `struct seccomp_data` (both words of every argument and of the instruction pointer),
/// every jump the generator writes and its trampolines. Anything else panics, so a filter
/// using an instruction this does not model cannot pass unseen. Jumps must stay inside the
/// program and go forward (classic BPF has no backward jump).
fn run(prog: &[libc::sock_filter], c: Call) -> u32 {
    let mut pc = 0usize;
    let mut acc = 0u32;
    loop {
        let i = prog
            .get(pc)
            .unwrap_or_else(|| panic!("jumped past the end to {pc}"));
        let jump = |taken: bool| pc + 1 + usize::from(if taken { i.jt } else { i.jf });
        pc = match i.code {
            LD_W_ABS => {
                let k = i.k as usize;
                assert_eq!(k % 4, 0, "unaligned load at {k}");
                acc = match k {
                    0 => c.nr,
                    4 => c.arch,
                    8 | 12 => 0, // the instruction pointer: nothing the filter should read
                    16..=60 => {
                        let word = c.args[(k - 16) / 8];
                        if k.is_multiple_of(8) {
                            word as u32
                        } else {
                            (word >> 32) as u32
                        }
                    }
                    other => panic!("load past struct seccomp_data at {other}"),
                };
                pc + 1
            }
            JA => pc + 1 + i.k as usize,
            JEQ_K => jump(acc == i.k),
            JGE_K => jump(acc >= i.k),
            JGT_K => jump(acc > i.k),
            JSET_K => jump(acc & i.k != 0),
            RET_K => return i.k,
            other => panic!("opcode {other:#x} not modelled"),
        };
    }
}

fn errno(e: i32) -> u32 {
    libc::SECCOMP_RET_ERRNO | e as u32
}

const ALLOW: u32 = libc::SECCOMP_RET_ALLOW;
const ME: u32 = 4242;
const HOST: u64 = 4241;

fn worker() -> Vec<libc::sock_filter> {
    program(ProcessRole::Worker, ME).expect("the worker's filter builds")
}

fn server() -> Vec<libc::sock_filter> {
    program(ProcessRole::ForkServer, ME).expect("the fork server's filter builds")
}

fn both() -> [(ProcessRole, Vec<libc::sock_filter>); 2] {
    [
        (ProcessRole::Worker, worker()),
        (ProcessRole::ForkServer, server()),
    ]
}

/// An argument as the C library passes a negative `int`: sign-extended to 64 bits.
fn neg(v: i64) -> u64 {
    v as u64
}

#[test]
fn every_call_of_the_table_is_allowed() {
    for (role, p) in both() {
        let mut groups: Vec<&table::Group> =
            table::ALLOWED.iter().chain(table::ALLOWED_X86_64).collect();
        if role == ProcessRole::ForkServer {
            groups.extend(table::ALLOWED_FORK_SERVER);
        }
        for g in groups {
            for nr in g.calls {
                assert_eq!(
                    run(&p, call(*nr, &[])),
                    ALLOW,
                    "{role:?}: call {nr} ({})",
                    g.why
                );
            }
        }
    }
}

#[test]
fn every_call_of_the_denied_table_is_refused_with_its_errno() {
    for (role, p) in both() {
        for g in table::DENIED.iter().chain(table::DENIED_X86_64) {
            for nr in g.calls {
                assert_eq!(
                    run(&p, call(*nr, &[])),
                    errno(g.errno),
                    "{role:?}: call {nr} ({})",
                    g.why
                );
            }
        }
    }
}

/// The dangers issue #27 names, one by one, whatever the table says: a call dropped from
/// the table by mistake shows up here by name.
#[test]
fn the_named_dangers_are_refused_by_name() {
    let eperm: &[(&str, Nr)] = &[
        ("shmget", libc::SYS_shmget),
        ("shmat", libc::SYS_shmat),
        ("shmctl", libc::SYS_shmctl),
        ("shmdt", libc::SYS_shmdt),
        ("msgget", libc::SYS_msgget),
        ("msgsnd", libc::SYS_msgsnd),
        ("msgrcv", libc::SYS_msgrcv),
        ("msgctl", libc::SYS_msgctl),
        ("semget", libc::SYS_semget),
        ("semop", libc::SYS_semop),
        ("semtimedop", libc::SYS_semtimedop),
        ("semctl", libc::SYS_semctl),
        ("mq_open", libc::SYS_mq_open),
        ("mq_unlink", libc::SYS_mq_unlink),
        ("mq_timedsend", libc::SYS_mq_timedsend),
        ("mq_timedreceive", libc::SYS_mq_timedreceive),
        ("mq_notify", libc::SYS_mq_notify),
        ("mq_getsetattr", libc::SYS_mq_getsetattr),
        ("clock_settime", libc::SYS_clock_settime),
        ("clock_adjtime", libc::SYS_clock_adjtime),
        ("adjtimex", libc::SYS_adjtimex),
        ("settimeofday", libc::SYS_settimeofday),
        ("sethostname", libc::SYS_sethostname),
        ("setdomainname", libc::SYS_setdomainname),
        ("syslog", libc::SYS_syslog),
        ("reboot", libc::SYS_reboot),
        ("kexec_load", libc::SYS_kexec_load),
        ("kexec_file_load", libc::SYS_kexec_file_load),
        ("init_module", libc::SYS_init_module),
        ("finit_module", libc::SYS_finit_module),
        ("delete_module", libc::SYS_delete_module),
        ("mount", libc::SYS_mount),
        ("umount2", libc::SYS_umount2),
        ("pivot_root", libc::SYS_pivot_root),
        ("chroot", libc::SYS_chroot),
        ("fsopen", u::FSOPEN),
        ("fsmount", u::FSMOUNT),
        ("fsconfig", u::FSCONFIG),
        ("fspick", u::FSPICK),
        ("move_mount", u::MOVE_MOUNT),
        ("open_tree", u::OPEN_TREE),
        ("mount_setattr", u::MOUNT_SETATTR),
        ("swapon", libc::SYS_swapon),
        ("swapoff", libc::SYS_swapoff),
        ("acct", libc::SYS_acct),
        ("quotactl", libc::SYS_quotactl),
        ("quotactl_fd", u::QUOTACTL_FD),
        ("bpf", libc::SYS_bpf),
        ("perf_event_open", libc::SYS_perf_event_open),
        ("userfaultfd", libc::SYS_userfaultfd),
        ("process_vm_readv", libc::SYS_process_vm_readv),
        ("process_vm_writev", libc::SYS_process_vm_writev),
        ("pidfd_open", u::PIDFD_OPEN),
        ("pidfd_send_signal", u::PIDFD_SEND_SIGNAL),
        ("pidfd_getfd", u::PIDFD_GETFD),
        ("kcmp", libc::SYS_kcmp),
        ("ptrace", libc::SYS_ptrace),
        ("tkill", libc::SYS_tkill),
        ("add_key", libc::SYS_add_key),
        ("request_key", libc::SYS_request_key),
        ("keyctl", libc::SYS_keyctl),
        ("setns", libc::SYS_setns),
        ("unshare", libc::SYS_unshare),
        ("open_by_handle_at", libc::SYS_open_by_handle_at),
        ("name_to_handle_at", libc::SYS_name_to_handle_at),
        ("fanotify_init", libc::SYS_fanotify_init),
        ("io_uring_setup", u::IO_URING_SETUP),
        ("io_uring_enter", u::IO_URING_ENTER),
        ("io_uring_register", u::IO_URING_REGISTER),
        ("sched_setaffinity", libc::SYS_sched_setaffinity),
        ("sched_setparam", libc::SYS_sched_setparam),
        ("sched_setscheduler", libc::SYS_sched_setscheduler),
        ("sched_setattr", libc::SYS_sched_setattr),
        ("setpriority", libc::SYS_setpriority),
        ("ioprio_set", libc::SYS_ioprio_set),
        ("migrate_pages", libc::SYS_migrate_pages),
        ("move_pages", libc::SYS_move_pages),
        ("execve", libc::SYS_execve),
        ("execveat", libc::SYS_execveat),
        ("fchmod", libc::SYS_fchmod),
        ("fchmodat", libc::SYS_fchmodat),
        ("fchmodat2", u::FCHMODAT2),
        ("fchown", libc::SYS_fchown),
        ("fchownat", libc::SYS_fchownat),
        ("utimensat", libc::SYS_utimensat),
        ("setxattr", libc::SYS_setxattr),
        ("fsetxattr", libc::SYS_fsetxattr),
        ("removexattr", libc::SYS_removexattr),
        ("mknodat", libc::SYS_mknodat),
        ("setuid", libc::SYS_setuid),
        ("setresuid", libc::SYS_setresuid),
    ];
    for (role, p) in both() {
        for (name, nr) in eperm {
            // Whatever the arguments: zeros, and all ones.
            for args in [[0u64; 6], [u64::MAX; 6]] {
                let c = Call {
                    args,
                    ..call(*nr, &[])
                };
                assert_eq!(run(&p, c), errno(libc::EPERM), "{role:?}: {name}");
            }
        }
        for (name, nr) in [
            ("socket", libc::SYS_socket),
            ("connect", libc::SYS_connect),
            ("bind", libc::SYS_bind),
            ("sendmsg", libc::SYS_sendmsg),
        ] {
            for family in [
                libc::AF_UNIX,
                libc::AF_INET,
                libc::AF_INET6,
                libc::AF_NETLINK,
            ] {
                let c = call(nr, &[family as u64]);
                assert_eq!(run(&p, c), errno(libc::EACCES), "{role:?}: {name}");
            }
        }
        assert_eq!(run(&p, call(u::CLONE3, &[])), errno(libc::ENOSYS));
        #[cfg(target_arch = "x86_64")]
        for (name, nr) in [
            ("vfork", libc::SYS_vfork),
            ("chmod", libc::SYS_chmod),
            ("chown", libc::SYS_chown),
            ("mknod", libc::SYS_mknod),
            ("iopl", libc::SYS_iopl),
        ] {
            assert_eq!(
                run(&p, call(nr, &[])),
                errno(libc::EPERM),
                "{role:?}: {name}"
            );
        }
    }
}

#[test]
fn a_call_outside_the_table_answers_enosys() {
    for (role, p) in both() {
        for nr in [
            libc::SYS_memfd_create,
            libc::SYS_linkat,
            libc::SYS_symlinkat,
            libc::SYS_inotify_init1,
            // (timer_create is named: see the wall-clock test below.)
            libc::SYS_mlock,
            libc::SYS_pkey_alloc,
            libc::SYS_memfd_secret,
            // Numbers no kernel has yet, and the largest a non-x32 number can be.
            999,
            X32_SYSCALL_BIT as Nr - 1,
        ] {
            assert_eq!(
                run(&p, call(nr, &[])),
                errno(libc::ENOSYS),
                "{role:?}: {nr}"
            );
        }
    }
    // The worker has no use for confining itself again or reaping children.
    let p = worker();
    for nr in [
        libc::SYS_seccomp,
        u::LANDLOCK_CREATE_RULESET,
        libc::SYS_wait4,
    ] {
        assert_eq!(run(&p, call(nr, &[])), errno(libc::ENOSYS), "{nr}");
    }
}

#[test]
fn limits_and_scheduling_only_of_itself() {
    for (role, p) in both() {
        let nofile = libc::RLIMIT_NOFILE as u64;
        assert_eq!(run(&p, call(libc::SYS_prlimit64, &[0, nofile])), ALLOW);
        assert_eq!(
            run(&p, call(libc::SYS_prlimit64, &[u64::from(ME), nofile])),
            ALLOW
        );
        for other in [HOST, 1, neg(-1)] {
            let c = call(libc::SYS_prlimit64, &[other, nofile]);
            assert_eq!(run(&p, c), errno(libc::EPERM), "{role:?}: prlimit {other}");
        }
        for nr in [
            libc::SYS_sched_getparam,
            libc::SYS_sched_getscheduler,
            libc::SYS_sched_getattr,
            libc::SYS_getpgid,
            libc::SYS_getsid,
        ] {
            assert_eq!(run(&p, call(nr, &[0])), ALLOW, "{nr}");
            assert_eq!(run(&p, call(nr, &[HOST])), errno(libc::EPERM), "{nr}");
        }
        // glibc's pthread_getattr_np asks by thread id and takes ENOSYS as "not supported".
        assert_eq!(run(&p, call(libc::SYS_sched_getaffinity, &[0])), ALLOW);
        assert_eq!(
            run(&p, call(libc::SYS_sched_getaffinity, &[HOST])),
            errno(libc::ENOSYS)
        );
        let prio = libc::PRIO_PROCESS as u64;
        assert_eq!(run(&p, call(libc::SYS_getpriority, &[prio, 0])), ALLOW);
        assert_eq!(
            run(&p, call(libc::SYS_getpriority, &[prio, HOST])),
            errno(libc::EPERM)
        );
        assert_eq!(run(&p, call(libc::SYS_ioprio_get, &[1, 0])), ALLOW);
        assert_eq!(
            run(&p, call(libc::SYS_ioprio_get, &[1, HOST])),
            errno(libc::EPERM)
        );
    }
}

#[test]
fn a_worker_signals_only_itself() {
    let p = worker();
    let term = libc::SIGTERM as u64;
    let me = u64::from(ME);
    assert_eq!(run(&p, call(libc::SYS_kill, &[me, term])), ALLOW);
    assert_eq!(run(&p, call(libc::SYS_tgkill, &[me, me + 1, term])), ALLOW);
    assert_eq!(run(&p, call(libc::SYS_rt_sigqueueinfo, &[me, term])), ALLOW);
    assert_eq!(
        run(&p, call(libc::SYS_rt_tgsigqueueinfo, &[me, me, term])),
        ALLOW
    );
    // The host, its own process group (0), another group (-pgid), every process (-1).
    for target in [HOST, 0, neg(-i64::from(ME)), neg(-1), 1] {
        for nr in [
            libc::SYS_kill,
            libc::SYS_tgkill,
            libc::SYS_rt_sigqueueinfo,
            libc::SYS_rt_tgsigqueueinfo,
        ] {
            let c = call(nr, &[target, target, term]);
            assert_eq!(run(&p, c), errno(libc::EPERM), "{nr} to {target}");
        }
    }
    assert_eq!(
        run(&p, call(libc::SYS_tkill, &[me, term])),
        errno(libc::EPERM)
    );
}

#[test]
fn the_fork_server_kills_its_children_by_pid_but_no_group() {
    let p = server();
    let kill = libc::SIGKILL as u64;
    assert_eq!(run(&p, call(libc::SYS_kill, &[HOST + 7, kill])), ALLOW);
    for target in [0, neg(-1), neg(-i64::from(ME))] {
        assert_eq!(
            run(&p, call(libc::SYS_kill, &[target, kill])),
            errno(libc::EPERM),
            "kill {target}"
        );
    }
    for nr in [libc::SYS_tgkill, libc::SYS_rt_sigqueueinfo] {
        assert_eq!(run(&p, call(nr, &[neg(-1), 0, kill])), errno(libc::EPERM));
    }
}

/// A fork-server child runs under the server's filter (built with the server's pid) and its
/// own (built with its pid): a signal to itself — `abort`, `os.kill(os.getpid())` — must
/// pass both, a signal to the server or a sibling neither.
#[test]
fn a_fork_server_child_signals_itself_through_both_filters() {
    const SERVER: u32 = 100;
    const CHILD: u32 = 200;
    let server = program(ProcessRole::ForkServer, SERVER).unwrap();
    let child = program(ProcessRole::Worker, CHILD).unwrap();
    let stacked = |c: Call| {
        let (a, b) = (run(&server, c), run(&child, c));
        // The kernel takes the strictest: here, any refusal wins.
        if a == ALLOW { b } else { a }
    };
    let abrt = libc::SIGABRT as u64;
    let me = u64::from(CHILD);
    for nr in [
        libc::SYS_kill,
        libc::SYS_tgkill,
        libc::SYS_rt_sigqueueinfo,
        libc::SYS_rt_tgsigqueueinfo,
    ] {
        assert_eq!(stacked(call(nr, &[me, me, abrt])), ALLOW, "{nr} to itself");
        for other in [u64::from(SERVER), 300, 0, neg(-1)] {
            assert_eq!(
                stacked(call(nr, &[other, other, abrt])),
                errno(libc::EPERM),
                "{nr} to {other}"
            );
        }
    }
}

#[test]
fn clone_only_with_glibcs_own_flags() {
    let thread = u64::from(CLONE_THREAD_FLAGS);
    let fork = u64::from(CLONE_FORK_FLAGS);
    let newns = |flags: u64| flags | libc::CLONE_NEWUSER as u64 | libc::CLONE_NEWNS as u64;
    let vfork = (libc::CLONE_VM | libc::CLONE_VFORK | libc::SIGCHLD) as u64;
    let p = worker();
    assert_eq!(run(&p, call(libc::SYS_clone, &[thread])), ALLOW);
    for flags in [
        fork,
        vfork,
        newns(thread),
        libc::SIGCHLD as u64,
        thread | libc::CLONE_PARENT as u64,
    ] {
        assert_eq!(
            run(&p, call(libc::SYS_clone, &[flags])),
            errno(libc::EPERM),
            "{flags:#x}"
        );
    }
    let p = server();
    assert_eq!(run(&p, call(libc::SYS_clone, &[thread])), ALLOW);
    assert_eq!(run(&p, call(libc::SYS_clone, &[fork])), ALLOW);
    for flags in [vfork, newns(fork), newns(thread), libc::SIGCHLD as u64] {
        assert_eq!(
            run(&p, call(libc::SYS_clone, &[flags])),
            errno(libc::EPERM),
            "{flags:#x}"
        );
    }
    #[cfg(target_arch = "x86_64")]
    {
        assert_eq!(run(&p, call(libc::SYS_fork, &[])), ALLOW);
        assert_eq!(
            run(&worker(), call(libc::SYS_fork, &[])),
            errno(libc::EPERM)
        );
    }
}

#[test]
fn ioctl_personality_prctl_and_sendto_arguments() {
    for (role, p) in both() {
        for req in [libc::TCGETS, libc::TIOCGWINSZ, libc::FIOCLEX, libc::FIONBIO] {
            assert_eq!(
                run(&p, call(libc::SYS_ioctl, &[0, u64::from(req as u32)])),
                ALLOW
            );
        }
        for req in [libc::TIOCSTI, libc::TIOCLINUX] {
            assert_eq!(
                run(&p, call(libc::SYS_ioctl, &[0, u64::from(req as u32)])),
                errno(libc::EPERM),
                "{role:?}: ioctl {req:#x}"
            );
        }
        assert_eq!(run(&p, call(libc::SYS_personality, &[0])), ALLOW);
        assert_eq!(run(&p, call(libc::SYS_personality, &[0xffff_ffff])), ALLOW);
        // READ_IMPLIES_EXEC, ADDR_NO_RANDOMIZE
        for persona in [0x0040_0000, 0x0004_0000] {
            assert_eq!(
                run(&p, call(libc::SYS_personality, &[persona])),
                errno(libc::EPERM)
            );
        }
        for option in [
            libc::PR_SET_NAME,
            libc::PR_GET_NAME,
            libc::PR_SET_NO_NEW_PRIVS,
            libc::PR_CAPBSET_DROP,
            libc::PR_CAP_AMBIENT,
        ] {
            assert_eq!(run(&p, call(libc::SYS_prctl, &[option as u64])), ALLOW);
        }
        for option in [libc::PR_SET_PTRACER, libc::PR_SET_MM, libc::PR_SET_DUMPABLE] {
            assert_eq!(
                run(&p, call(libc::SYS_prctl, &[option as u64])),
                errno(libc::EINVAL),
                "{role:?}: prctl {option}"
            );
        }
        // sendto on the socket pair: no address (both words of the pointer are read).
        assert_eq!(run(&p, call(libc::SYS_sendto, &[3, 1, 1, 0, 0, 0])), ALLOW);
        for address in [0x7fff_0000_1000, 0x1000, 0x7fff_0000_0000] {
            assert_eq!(
                run(&p, call(libc::SYS_sendto, &[3, 1, 1, 0, address, 110])),
                errno(libc::EACCES),
                "{role:?}: sendto to {address:#x}"
            );
        }
    }
    let pdeathsig = libc::PR_SET_PDEATHSIG as u64;
    assert_eq!(run(&server(), call(libc::SYS_prctl, &[pdeathsig])), ALLOW);
    assert_eq!(
        run(&worker(), call(libc::SYS_prctl, &[pdeathsig])),
        errno(libc::EINVAL)
    );
}

#[test]
fn x32_calls_and_foreign_architectures() {
    for (_, p) in both() {
        #[cfg(target_arch = "x86_64")]
        for nr in [libc::SYS_socket, libc::SYS_read, libc::SYS_shmget] {
            let x32 = Call {
                nr: nr as u32 | X32_SYSCALL_BIT,
                ..call(nr, &[])
            };
            assert_eq!(run(&p, x32), errno(libc::ENOSYS));
        }
        // i386 system calls on x86_64 (int 0x80) or any foreign architecture: killed.
        let foreign = Call {
            arch: 0x4000_0003,
            ..call(libc::SYS_read, &[])
        };
        assert_eq!(run(&p, foreign), libc::SECCOMP_RET_KILL_PROCESS);
    }
}

#[test]
fn the_generator_scales_far_past_one_byte_jumps() {
    // 600 numbers with alternating verdicts and an argument rule every 50th: hundreds of
    // ranges, trees whose jumps pass 255 instructions, trampolines everywhere.
    let mut named = BTreeMap::new();
    for nr in 0..600u32 {
        let decision = if nr % 50 == 0 {
            Decision::Args(ArgRule {
                nr: Nr::from(nr),
                arg: (nr % 6) as u8,
                check: Check::OneOf(vec![nr, 7]),
                errno: 1 + (nr % 40) as i32,
                why: "test",
            })
        } else if nr % 2 == 0 {
            Decision::Plain(Verdict::Allow)
        } else {
            Decision::Plain(Verdict::Errno(1 + (nr % 40) as i32))
        };
        named.insert(nr * 2, decision);
    }
    let p = build(&named).expect("builds");
    assert!(p.len() > 256, "{} instructions", p.len());
    assert!(p.iter().any(|i| i.code == JA), "no trampoline was needed");
    for (nr, decision) in &named {
        let c = |args: [u64; 6]| Call {
            arch: AUDIT_ARCH,
            nr: *nr,
            args,
        };
        match decision {
            Decision::Plain(v) => assert_eq!(run(&p, c([0; 6])), v.ret(), "{nr}"),
            Decision::Args(rule) => {
                let mut yes = [0u64; 6];
                yes[usize::from(rule.arg)] = 7;
                assert_eq!(run(&p, c(yes)), ALLOW, "{nr}");
                let mut no = [0u64; 6];
                no[usize::from(rule.arg)] = 8;
                assert_eq!(run(&p, c(no)), errno(rule.errno), "{nr}");
            }
        }
        assert_eq!(run(&p, c([0; 6]).with_nr(nr + 1)), errno(libc::ENOSYS));
    }
}

impl Call {
    fn with_nr(self, nr: u32) -> Call {
        Call { nr, ..self }
    }
}

#[test]
fn the_real_filters_are_well_formed_and_fit_the_kernel() {
    for (role, p) in both() {
        assert!(p.len() <= bpf::MAX_INSNS, "{role:?}: {}", p.len());
        for (at, i) in p.iter().enumerate() {
            match i.code {
                JEQ_K | JGE_K => {
                    assert!(at + 1 + usize::from(i.jt.max(i.jf)) < p.len(), "{at}")
                }
                JA => assert!(at + 1 + (i.k as usize) < p.len(), "{at}"),
                LD_W_ABS | RET_K => {}
                other => panic!("{role:?}: opcode {other:#x} at {at}"),
            }
        }
    }
}

#[test]
fn the_report_names_an_allowlist() {
    assert!(describe(ProcessRole::Worker).starts_with("seccomp allowlist"));
    assert!(describe(ProcessRole::ForkServer).contains("fork server"));
}

/// The wall-clock timer (`confine/wall_clock.rs`): a worker can neither create, re-arm nor
/// delete a timer; the fork server may create and arm one (its children do, before their
/// figure), never delete; a child waiting for its figure may arm its timer and install the
/// lock, and the lock then refuses all of it while leaving every other call to the filters
/// below it.
#[test]
fn the_wall_clock_timer_is_armed_before_the_code_and_never_touched_again() {
    let timer_calls = [
        libc::SYS_timer_create,
        libc::SYS_timer_settime,
        libc::SYS_timer_delete,
    ];
    for nr in timer_calls {
        assert_eq!(
            run(&worker(), call(nr, &[0, 0, 0])),
            errno(libc::EPERM),
            "worker: {nr}"
        );
    }
    for nr in [libc::SYS_timer_create, libc::SYS_timer_settime] {
        assert_eq!(run(&server(), call(nr, &[0, 0, 0])), ALLOW, "server: {nr}");
    }
    assert_eq!(
        run(&server(), call(libc::SYS_timer_delete, &[0])),
        errno(libc::EPERM)
    );
    // A worker's filter never lets it install another filter (ENOSYS: not named).
    assert_eq!(
        run(&worker(), call(libc::SYS_seccomp, &[1, 0, 0])),
        errno(libc::ENOSYS)
    );

    let pending = program_with(ProcessRole::Worker, ME, Timer::Pending)
        .expect("a waiting child's filter builds");
    for nr in [
        libc::SYS_timer_create,
        libc::SYS_timer_settime,
        libc::SYS_seccomp,
    ] {
        assert_eq!(run(&pending, call(nr, &[1, 0, 0])), ALLOW, "pending: {nr}");
    }
    assert_eq!(
        run(&pending, call(libc::SYS_timer_delete, &[0])),
        errno(libc::EPERM)
    );
    // Otherwise the very worker filter: no fork, no exec, no socket.
    assert_eq!(
        run(&pending, call(libc::SYS_execve, &[0])),
        errno(libc::EPERM)
    );
    assert_eq!(
        run(&pending, call(libc::SYS_socket, &[2, 1, 0])),
        errno(libc::EACCES)
    );

    let lock = lock_program().expect("the lock builds");
    for nr in timer_calls.into_iter().chain([libc::SYS_seccomp]) {
        assert_eq!(
            run(&lock, call(nr, &[1, 0, 0])),
            errno(libc::EPERM),
            "lock: {nr}"
        );
    }
    for nr in [
        libc::SYS_read,
        libc::SYS_write,
        libc::SYS_execve,
        libc::SYS_socket,
    ] {
        assert_eq!(
            run(&lock, call(nr, &[0])),
            ALLOW,
            "lock leaves {nr} to the filter below"
        );
    }
    let foreign = Call {
        arch: 0x4000_0003, // AUDIT_ARCH_I386
        nr: libc::SYS_timer_settime as u32,
        args: [0; 6],
    };
    assert_eq!(
        run(&lock, foreign),
        ALLOW,
        "the filter below kills foreign calls"
    );
    assert_eq!(
        run(&pending, foreign),
        libc::SECCOMP_RET_KILL_PROCESS,
        "a foreign architecture is killed by the worker's filter"
    );
}
