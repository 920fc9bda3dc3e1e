//! Layer 2, other processes and the kernel (Layer 1 bypassed): a worker cannot read or
//! change another process's limits, signal its host or a sibling, create or read SysV IPC
//! objects that would outlive it, set the clock or the host name. Each test proves the
//! effect did not happen from outside the worker: `/proc/PID/limits` unchanged, the
//! processes alive, nothing new in `/proc/sysvipc/*`, the secret not in the output.
//!
//! The worker's host is the process that started it: in these suites the test itself
//! (cold), or a fork server the test started (`PDFAGENT_LAYER2_VIA=fork-server`). Both are
//! attacked: `os.getppid()` and the test's pid, passed in.
//!
//! `scripts/test` runs this suite once more with `PDFAGENT_TEST_LANDLOCK_NO_SCOPES=1`: the
//! plans are then built without Landlock's signal scoping, so the signal tests prove the
//! seccomp filter alone keeps signals in (the tests check that the knob took effect).

#![cfg(target_os = "linux")]

mod security_support;

use security_support::{Sandbox, WorkerRun};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

const LIMIT: Duration = Duration::from_secs(120);

/// One line per attempt: `NAME errno N` when refused, `NAME ESCAPED …` when it worked.
const ATTEMPT: &str = "import os, sys
def attempt(name, f):
    try:
        r = f()
        print(name, 'ESCAPED', repr(r)[:200], flush=True)
    except OSError as e:
        print(name, 'errno', e.errno, flush=True)
import ctypes as _ctypes
# PR_GET_SECCOMP: 2 when a filter is installed (a fork-server child cannot read its own
# /proc/self/status: the Landlock rule names the server's).
print('SECCOMP', _ctypes.CDLL(None).prctl(21, 0, 0, 0, 0), flush=True)
";

/// A harmless process of the test's user: the sibling the worker tries to reach.
struct Sibling(Child);

impl Sibling {
    fn start() -> Sibling {
        let child = Command::new("sleep")
            .arg("300")
            .stdin(Stdio::null())
            .spawn()
            .expect("start `sleep` as the sibling");
        Sibling(child)
    }
    fn pid(&self) -> u32 {
        self.0.id()
    }
    fn alive(&mut self) -> bool {
        matches!(self.0.try_wait(), Ok(None))
    }
}

impl Drop for Sibling {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn limits(pid: u32) -> String {
    std::fs::read_to_string(format!("/proc/{pid}/limits"))
        .unwrap_or_else(|e| panic!("read /proc/{pid}/limits: {e}"))
}

/// Every attempt named in `names` was made and refused with EPERM, and the filter was on.
fn assert_refused(run: &WorkerRun, names: &[&str]) {
    let out = run.output();
    assert!(
        out.contains("SECCOMP 2"),
        "the worker ran without its filter:\n{out}"
    );
    assert!(!out.contains("ESCAPED"), "{out}");
    for name in names {
        let line = format!("{name} errno {}", libc::EPERM);
        assert!(
            out.lines().any(|l| l == line),
            "`{name}` was not refused with EPERM:\n{out}"
        );
    }
}

/// With the test knob set, the plan the host gave the worker (or its fork server) must say
/// scoping is off, or the run proves nothing about the filter alone.
fn assert_scoping_as_configured(plan: Option<&str>) {
    let off = std::env::var("PDFAGENT_TEST_LANDLOCK_NO_SCOPES").is_ok_and(|v| v == "1");
    let plan: serde_json::Value =
        serde_json::from_str(plan.expect("the worker's environment has a plan")).expect("JSON");
    assert_eq!(
        plan["landlock_scopes"].as_bool(),
        Some(!off),
        "the plan does not match PDFAGENT_TEST_LANDLOCK_NO_SCOPES: {plan}"
    );
}

#[test]
fn another_processs_limits_are_neither_read_nor_changed() {
    let sb = Sandbox::new("prlimit");
    let mut sibling = Sibling::start();
    let me = std::process::id();
    let (host_before, sibling_before) = (limits(me), limits(sibling.pid()));
    let code = format!(
        "{ATTEMPT}import resource as r\n\
         for who, pid in (('parent', os.getppid()), ('test', {me}), ('sibling', {sib})):\n\
         \x20   attempt('read-' + who, lambda: r.prlimit(pid, r.RLIMIT_NOFILE))\n\
         \x20   attempt('fsize-' + who, lambda: r.prlimit(pid, r.RLIMIT_FSIZE, (1 << 40, 1 << 40)))\n\
         \x20   attempt('core-' + who, lambda: r.prlimit(pid, r.RLIMIT_CORE, (4096, 4096)))\n\
         \x20   attempt('cpu-' + who, lambda: r.prlimit(pid, r.RLIMIT_CPU, (99999, 99999)))\n\
         attempt('everyone', lambda: r.prlimit(-1, r.RLIMIT_NOFILE))\n\
         print('OWN', r.prlimit(0, r.RLIMIT_NOFILE), r.getrlimit(r.RLIMIT_FSIZE), flush=True)\n\
         print('DONE', flush=True)\n",
        sib = sibling.pid()
    );
    let run = sb.worker(&code);
    let out = run.output();
    println!("{out}");
    run.assert_ended_by_itself();
    let mut names = Vec::new();
    for who in ["parent", "test", "sibling"] {
        for what in ["read", "fsize", "core", "cpu"] {
            names.push(format!("{what}-{who}"));
        }
    }
    names.push("everyone".into());
    assert_refused(&run, &names.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(
        out.contains("OWN (") && out.contains("DONE"),
        "its own limits must stay readable:\n{out}"
    );
    assert_eq!(limits(me), host_before, "the host's limits changed");
    assert_eq!(
        limits(sibling.pid()),
        sibling_before,
        "the sibling's limits changed"
    );
    assert!(sibling.alive());
}

#[test]
fn signals_reach_neither_the_host_nor_a_sibling_and_the_run_completes() {
    let sb = Sandbox::new("signal");
    let mut sibling = Sibling::start();
    let me = std::process::id();
    let code = format!(
        "{ATTEMPT}import signal, threading\n\
         host, test, sib = os.getppid(), {me}, {sib}\n\
         attempt('probe-parent', lambda: os.kill(host, 0))\n\
         attempt('term-parent', lambda: os.kill(host, signal.SIGTERM))\n\
         attempt('stop-parent', lambda: os.kill(host, signal.SIGSTOP))\n\
         attempt('probe-test', lambda: os.kill(test, 0))\n\
         attempt('term-test', lambda: os.kill(test, signal.SIGTERM))\n\
         attempt('kill-sibling', lambda: os.kill(sib, signal.SIGKILL))\n\
         attempt('group-own', lambda: os.killpg(0, 0))\n\
         attempt('group-named', lambda: os.killpg(os.getpgid(0), 0))\n\
         attempt('everyone', lambda: os.kill(-1, 0))\n\
         attempt('usr1-parent', lambda: os.kill(host, signal.SIGUSR1))\n\
         got = []\n\
         signal.signal(signal.SIGUSR1, lambda s, f: got.append(s))\n\
         os.kill(os.getpid(), signal.SIGUSR1)\n\
         t = threading.Thread(target=lambda: got.append('thread'))\n\
         t.start(); t.join()\n\
         print('SELF', got, flush=True)\n\
         print('DONE', flush=True)\n",
        sib = sibling.pid()
    );
    let mut plan = None;
    let run = sb.worker_with_env(&code, &[], |env| {
        plan = env.get("PDFAGENT_CONFINE").cloned();
    });
    let out = run.output();
    println!("{out}");
    run.assert_ended_by_itself();
    assert_refused(
        &run,
        &[
            "probe-parent",
            "term-parent",
            "stop-parent",
            "probe-test",
            "term-test",
            "kill-sibling",
            "group-own",
            "group-named",
            "everyone",
            "usr1-parent",
        ],
    );
    assert_scoping_as_configured(plan.as_deref());
    assert!(
        out.contains("SELF [10, 'thread']") && out.contains("DONE"),
        "signals to itself and threads must keep working, and the run complete:\n{out}"
    );
    assert!(run.status.success(), "{out}");
    assert!(sibling.alive(), "the sibling was killed");
}

/// The SysV objects `/proc/sysvipc/KIND` lists: (key, id, creator pid — shm only, else 0).
fn sysv(kind: &str) -> Vec<(i64, i64, u32)> {
    let text = std::fs::read_to_string(format!("/proc/sysvipc/{kind}"))
        .unwrap_or_else(|e| panic!("read /proc/sysvipc/{kind}: {e}"));
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap_or("").split_whitespace().collect();
    let col = |name: &str| header.iter().position(|h| *h == name);
    let (key, id, cpid) = (col("key"), Some(1), col("cpid"));
    lines
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .map(|f| {
            let num = |i: Option<usize>| -> i64 {
                i.and_then(|i| f.get(i))
                    .and_then(|v| v.parse().ok())
                    .unwrap_or(-1)
            };
            (num(key), num(id), u32::try_from(num(cpid)).unwrap_or(0))
        })
        .collect()
}

#[test]
fn sysv_ipc_objects_are_refused_and_nothing_outlives_the_run() {
    let sb = Sandbox::new("sysv");
    let key = 0x5044_0000 | (std::process::id() & 0xffff) as i64;
    let before: Vec<_> = ["shm", "msg", "sem"].iter().map(|k| sysv(k)).collect();
    let code = format!(
        "{ATTEMPT}import ctypes\n\
         libc = ctypes.CDLL(None, use_errno=True)\n\
         def raw(f):\n\
         \x20   def call():\n\
         \x20       r = f()\n\
         \x20       if r == -1:\n\
         \x20           raise OSError(ctypes.get_errno(), 'refused')\n\
         \x20       return r\n\
         \x20   return call\n\
         for name, key in (('named', {key}), ('private', 0)):\n\
         \x20   attempt('shmget-' + name, raw(lambda: libc.shmget(key, 1 << 20, 0o1600)))\n\
         \x20   attempt('msgget-' + name, raw(lambda: libc.msgget(key, 0o1600)))\n\
         \x20   attempt('semget-' + name, raw(lambda: libc.semget(key, 1, 0o1600)))\n\
         attempt('mq_open', raw(lambda: libc.mq_open(b'/pdfagent-test-{key}', 0o100 | 2, 0o600, None)))\n\
         print('DONE', flush=True)\n"
    );
    let run = sb.worker(&code);
    let out = run.output();
    println!("{out}");
    run.assert_ended_by_itself();
    assert_refused(
        &run,
        &[
            "shmget-named",
            "msgget-named",
            "semget-named",
            "shmget-private",
            "msgget-private",
            "semget-private",
            "mq_open",
        ],
    );
    for (kind, before) in ["shm", "msg", "sem"].iter().zip(before) {
        let new: Vec<_> = sysv(kind)
            .into_iter()
            .filter(|o| !before.contains(o))
            // Ours: the named key, one the worker created, or (queues and semaphores do not
            // name their creator) any private one made during the run.
            .filter(|(k, _, cpid)| *k == key || *cpid == run.pid || (*kind != "shm" && *k == 0))
            .collect();
        assert!(new.is_empty(), "the worker left {kind} objects: {new:?}");
    }
    assert!(
        !Path::new(&format!("/dev/mqueue/pdfagent-test-{key}")).exists(),
        "a POSIX message queue was left"
    );
}

/// A SysV segment the test made, removed when dropped.
struct Segment(i32);

impl Segment {
    fn with(secret: &str) -> Segment {
        // SAFETY: plain SysV calls on a private segment of this test; the mapping is
        // written within its size and detached before returning.
        unsafe {
            let id = libc::shmget(libc::IPC_PRIVATE, 4096, libc::IPC_CREAT | 0o600);
            assert!(id >= 0, "shmget: {}", std::io::Error::last_os_error());
            let at = libc::shmat(id, std::ptr::null(), 0);
            assert!(
                at as isize != -1,
                "shmat: {}",
                std::io::Error::last_os_error()
            );
            std::ptr::copy_nonoverlapping(secret.as_ptr(), at as *mut u8, secret.len());
            libc::shmdt(at);
            Segment(id)
        }
    }
}

impl Drop for Segment {
    fn drop(&mut self) {
        // SAFETY: removes the segment this test created.
        unsafe {
            libc::shmctl(self.0, libc::IPC_RMID, std::ptr::null_mut());
        }
    }
}

#[test]
fn a_segment_the_user_made_is_unreadable() {
    let sb = Sandbox::new("shmread");
    let segment = Segment::with(&sb.secret);
    let code = format!(
        "{ATTEMPT}import ctypes\n\
         libc = ctypes.CDLL(None, use_errno=True)\n\
         libc.shmat.restype = ctypes.c_void_p\n\
         def attach():\n\
         \x20   p = libc.shmat({id}, None, 0o10000)\n\
         \x20   if p is None or p == ctypes.c_void_p(-1).value:\n\
         \x20       raise OSError(ctypes.get_errno(), 'refused')\n\
         \x20   return ctypes.string_at(p, 64)\n\
         def stat():\n\
         \x20   buf = ctypes.create_string_buffer(256)\n\
         \x20   if libc.shmctl({id}, 2, buf) == -1:\n\
         \x20       raise OSError(ctypes.get_errno(), 'refused')\n\
         \x20   return buf.raw[:16]\n\
         attempt('shmat', attach)\n\
         attempt('shmctl', stat)\n\
         print('DONE', flush=True)\n",
        id = segment.0
    );
    let run = sb.worker(&code);
    let out = run.output();
    println!("{out}");
    run.assert_ended_by_itself();
    assert_refused(&run, &["shmat", "shmctl"]);
    assert!(
        !out.contains(&sb.secret),
        "the worker read the segment:\n{out}"
    );
}

#[test]
fn the_clock_and_the_host_name_stay_as_they_are() {
    let sb = Sandbox::new("admin");
    let hostname = std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap();
    // The invalid clock and the over-long name make the kernel itself answer EINVAL (the
    // clock id is checked before any permission): EPERM there is the filter's verdict, not
    // a missing capability.
    let code = format!(
        "{ATTEMPT}import ctypes, time\n\
         libc = ctypes.CDLL(None, use_errno=True)\n\
         def raw(f):\n\
         \x20   def call():\n\
         \x20       r = f()\n\
         \x20       if r == -1:\n\
         \x20           raise OSError(ctypes.get_errno(), 'refused')\n\
         \x20       return r\n\
         \x20   return call\n\
         class timespec(ctypes.Structure):\n\
         \x20   _fields_ = [('s', ctypes.c_long), ('ns', ctypes.c_long)]\n\
         now = timespec(int(time.time()), 0)\n\
         tv = timespec(int(time.time()), 0)\n\
         attempt('clock_settime', lambda: time.clock_settime(time.CLOCK_REALTIME, time.time()))\n\
         attempt('clock_settime-bad-clock', raw(lambda: libc.clock_settime(12345, ctypes.byref(now))))\n\
         attempt('settimeofday', raw(lambda: libc.settimeofday(ctypes.byref(tv), None)))\n\
         attempt('adjtimex', raw(lambda: libc.adjtimex(ctypes.create_string_buffer(512))))\n\
         attempt('sethostname', raw(lambda: libc.sethostname(b'pdfagent-was-here', 17)))\n\
         attempt('sethostname-too-long', raw(lambda: libc.sethostname(b'x' * 200, 200)))\n\
         attempt('setdomainname', raw(lambda: libc.setdomainname(b'pdfagent', 8)))\n\
         attempt('klogctl', raw(lambda: libc.klogctl(10, None, 0)))\n\
         print('DONE', flush=True)\n"
    );
    let run = sb.worker(&code);
    let out = run.output();
    println!("{out}");
    run.assert_ended_by_itself();
    assert_refused(
        &run,
        &[
            "clock_settime",
            "clock_settime-bad-clock",
            "settimeofday",
            "adjtimex",
            "sethostname",
            "sethostname-too-long",
            "setdomainname",
            "klogctl",
        ],
    );
    assert_eq!(
        std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap(),
        hostname,
        "the host name changed"
    );
}

/// As fork-server children: one child tries the server's limits and signals; the server
/// keeps serving and the next figure is made.
#[test]
fn a_fork_server_child_leaves_the_server_serving() {
    let sb = Sandbox::new("forkkernel");
    let run_b = sb.src.with_file_name("run-b");
    std::fs::create_dir(&run_b).unwrap();
    let a = format!(
        "{ATTEMPT}import resource as r, signal\n\
         server = os.getppid()\n\
         attempt('cpu-server', lambda: r.prlimit(server, r.RLIMIT_CPU, (1, 1)))\n\
         attempt('fsize-server', lambda: r.prlimit(server, r.RLIMIT_FSIZE, (0, 0)))\n\
         attempt('nofile-server', lambda: r.prlimit(server, r.RLIMIT_NOFILE, (3, 3)))\n\
         attempt('stop-server', lambda: os.kill(server, signal.SIGSTOP))\n\
         attempt('term-server', lambda: os.kill(server, signal.SIGTERM))\n\
         attempt('group', lambda: os.killpg(0, signal.SIGTERM))\n\
         print('A-DONE', flush=True)\n"
    );
    let b = "plt.plot([1, 2, 3], [1, 4, 9])\nplt.savefig(OUT)\nprint('B-DONE', flush=True)\n";
    let mut server = sb.fork_server(&[(&sb.run, &a), (&run_b, b)], &[], |_| {});
    // The server sets its own limits as it starts: read them once it has forked A.
    server.send_part(0, "fork");
    assert!(server.reply(1, "pid", LIMIT).is_some(), "A was not forked");
    let before = limits(server.pid());
    server.send_part(0, "go");
    let a_exit = server.reply(1, "exit", LIMIT).expect("A ended")["exit"].as_i64();
    let a_out =
        std::fs::read_to_string(server.requests[0]["stdout"].as_str().unwrap()).unwrap_or_default();
    let a_err =
        std::fs::read_to_string(server.requests[0]["stderr"].as_str().unwrap()).unwrap_or_default();
    println!("{a_out}{a_err}");
    if a_exit != Some(0) {
        let server_err = String::from_utf8_lossy(&server.close()).into_owned();
        panic!("A ended with {a_exit:?}: {a_out}{a_err}\nserver: {server_err}");
    }
    assert!(
        a_out.contains("SECCOMP 2") && a_out.contains("A-DONE"),
        "{a_out}"
    );
    assert!(!a_out.contains("ESCAPED"), "{a_out}");
    for name in [
        "cpu-server",
        "fsize-server",
        "nofile-server",
        "stop-server",
        "term-server",
        "group",
    ] {
        let line = format!("{name} errno {}", libc::EPERM);
        assert!(a_out.lines().any(|l| l == line), "{name}:\n{a_out}");
    }
    assert_eq!(limits(server.pid()), before, "the server's limits changed");
    assert!(server.is_running(), "the server was stopped or killed");
    server.send(1);
    let b_exit = server.reply(2, "exit", LIMIT).expect("B ended")["exit"].as_i64();
    let b_out =
        std::fs::read_to_string(server.requests[1]["stdout"].as_str().unwrap()).unwrap_or_default();
    let b_err =
        std::fs::read_to_string(server.requests[1]["stderr"].as_str().unwrap()).unwrap_or_default();
    assert_eq!(b_exit, Some(0), "the next figure failed: {b_out}{b_err}");
    assert!(b_out.contains("B-DONE"), "{b_out}{b_err}");
    let out = server.requests[1]["out"].as_str().expect("B's figure path");
    assert!(
        std::fs::metadata(out).is_ok_and(|m| m.len() > 0),
        "B's figure {out} was not written"
    );
    assert!(server.is_running());
    server.close();
}
