//! No worker outlives its host, whatever its code does (issue #40, item 3). Layer 1
//! bypassed (`security_support`): the code parks the worker's host-watch thread by each means
//! a red team used — a C signal handler that calls `pause()`, sent to that very thread; a
//! long sleep; a busy loop; a thread that blocks every signal — while it writes files into
//! its run directory; then its host is killed with SIGKILL (no clean-up runs). Proven from
//! outside: no worker process is left 2 s later (`/proc`), and the next host's sweep removes
//! the run directory.
//!
//! The host of the parking tests is a stand-in: `sh`, which starts the worker (or the fork
//! server) with the very environment the runner would give it and waits, as a host does; the
//! worker watches its parent, whoever that is. The real host is driven too: `pdfagent mcp`
//! (its warm pool is the window's: a fork server on Linux), killed while a figure's code —
//! checked by Layer 1, the guard armed — sleeps or spins. `pdfagent make-figure`'s own
//! worker is covered by `pipeline_cli`'s `a_worker_ends_when_its_host_is_killed_outright`.
//!
//! The kernel's wall-clock timer is proven with a host that stays alive and never stops its
//! worker: the worker, ignoring every signal it can, is killed by SIGKILL at its time-out.

#![cfg(target_os = "linux")]

mod security_support;

use blackbox::prepared::{PrepareRun, Prepared};
use blackbox::procfs;
use security_support::Sandbox;
use std::io::BufRead;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// How long after its host's death a worker may still be seen.
const GRACE: Duration = Duration::from_secs(2);

/// The code's helpers: its host-watch thread by name (the kernel keeps 15 characters of a
/// thread name), a file writer that never stops, and `ready()`: the marker the test waits
/// for before killing the host.
const HELPERS: &str = r#"
import ctypes, os, platform, signal, sys, threading, time
RUN = os.path.dirname(OUT)  # the working directory is the (read-only) data folder

def watch_thread():
    for tid in os.listdir('/proc/self/task'):
        with open('/proc/self/task/%s/comm' % tid) as f:
            if f.read().strip() == 'pdfagent-host-w':
                return int(tid)
    return None

def write_forever():
    i = 0
    while True:
        with open(os.path.join(RUN, 'junk-%d.bin' % i), 'wb') as f:
            f.write(b'x' * 65536)
        i += 1
        time.sleep(0.02)

def ready(note):
    # Written whole, then renamed: the test reads the marker as soon as it exists.
    with open(os.path.join(RUN, 'parked.part'), 'w') as f:
        f.write(note)
    os.rename(os.path.join(RUN, 'parked.part'), os.path.join(RUN, 'parked'))
"#;

/// The parking means, each as the code that runs after [`HELPERS`].
const MEANS: &[(&str, &str)] = &[
    (
        "a C handler that calls pause(), sent to the watch thread",
        r#"
libc = ctypes.CDLL(None, use_errno=True)
libc.signal.restype = ctypes.c_void_p
libc.signal.argtypes = [ctypes.c_int, ctypes.c_void_p]
pause = ctypes.cast(libc.pause, ctypes.c_void_p).value
libc.signal(signal.SIGUSR1, pause)
tid = watch_thread()
tgkill = 234 if platform.machine() == 'x86_64' else 131
sent = libc.syscall(tgkill, os.getpid(), tid, signal.SIGUSR1) if tid else -1
threading.Thread(target=write_forever, daemon=True).start()
ready('watch thread %s, tgkill %s' % (tid, sent))
while True:
    time.sleep(1)
"#,
    ),
    (
        "a long sleep",
        r#"
threading.Thread(target=write_forever, daemon=True).start()
ready('sleeping')
time.sleep(600)
"#,
    ),
    (
        "a busy loop",
        r#"
threading.Thread(target=write_forever, daemon=True).start()
ready('spinning')
while True:
    pass
"#,
    ),
    (
        "a thread that blocks every signal",
        r#"
def masked():
    signal.pthread_sigmask(signal.SIG_BLOCK, signal.valid_signals())
    write_forever()
threading.Thread(target=masked, daemon=True).start()
for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT, signal.SIGUSR1):
    signal.signal(sig, signal.SIG_IGN)
ready('masked')
while True:
    time.sleep(1)
"#,
    ),
];

/// A run directory as a host makes one: named like one, in `temp`, holding the host's pid
/// (written by the stand-in host itself once it runs), so the next host's sweep may take it.
fn run_dir_in(temp: &Path, tag: &str) -> PathBuf {
    let dir = temp.join(format!("pdfagent-run-orphan-{tag}"));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Prepare `code` (Layer 1 bypassed) for `run_dir` and start it under a stand-in host:
/// `sh`, which records its own pid as the run directory's host and the worker's pid, then
/// waits for the worker and records its exit status. Returns the host and the worker's pid.
fn start_under_host(sb: &Sandbox, run_dir: &Path, code: &str, timeout_s: u64) -> (Child, u32) {
    let code_file = sb.inputs().join("orphan.py");
    std::fs::write(&code_file, format!("{HELPERS}\n{code}")).unwrap();
    // Layer 2 alone (the code parks its watch with ctypes and signals): the guard unarmed.
    let env = PrepareRun::new(&sb.src)
        .request(run_dir, &code_file)
        .args(["--timeout".to_owned(), timeout_s.to_string()])
        .prepare(false)
        .env;
    let pid_file = run_dir.with_file_name("worker.pid");
    for stale in [&pid_file, &run_dir.with_file_name("worker.status")] {
        let _ = std::fs::remove_file(stale);
    }
    let host = Command::new("/bin/sh")
        .arg("-c")
        .arg(r#"echo $$ > .pdfagent-host; "$0" & echo $! > ../worker.pid; wait $!; echo $? > ../worker.status"#)
        .arg(blackbox::pdfagent_bin())
        .env_clear()
        .envs(&env)
        .current_dir(run_dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()
        .expect("start the stand-in host");
    let worker = wait_for_value("the stand-in host never started the worker", || {
        std::fs::read_to_string(&pid_file).ok()?.trim().parse().ok()
    });
    (host, worker)
}

/// Poll `value` every 20 ms for up to 120 s; fail naming `what`.
fn wait_for_value<T>(what: &str, mut value: impl FnMut() -> Option<T>) -> T {
    let started = Instant::now();
    loop {
        if let Some(v) = value() {
            return v;
        }
        assert!(started.elapsed() < Duration::from_secs(120), "{what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Whether none of `pids` is running within `limit`.
fn all_gone_within(pids: &[u32], limit: Duration) -> bool {
    let started = Instant::now();
    loop {
        if pids.iter().all(|p| !procfs::running_now(*p)) {
            return true;
        }
        if started.elapsed() > limit {
            return false;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn kill_group(child: &Child) {
    // SAFETY: plain syscall on the process group this test started.
    unsafe {
        libc::killpg(child.id() as libc::pid_t, libc::SIGKILL);
    }
}

fn files_in(dir: &Path) -> usize {
    std::fs::read_dir(dir).map(|d| d.count()).unwrap_or(0)
}

#[test]
fn a_cold_worker_dies_with_its_killed_host_however_the_code_parks_its_watch() {
    let sb = Sandbox::new("orphan-cold");
    let temp = sb.runs_dir();
    let mut left = Vec::new();
    for (i, (means, code)) in MEANS.iter().enumerate() {
        let run_dir = run_dir_in(&temp, &i.to_string());
        let (mut host, worker) = start_under_host(&sb, &run_dir, code, 600);
        let note = wait_for_value(&format!("{means}: the code never got going"), || {
            std::fs::read_to_string(run_dir.join("parked")).ok()
        });
        // The means worked on the code's side: the worker runs on, writing, while its host
        // lives (so it is the host's death, below, that ends it).
        std::thread::sleep(Duration::from_millis(500));
        assert!(
            procfs::running_now(worker),
            "{means}: the worker ended before its host was killed ({note})"
        );
        let written = files_in(&run_dir);
        std::thread::sleep(Duration::from_millis(300));
        assert!(
            files_in(&run_dir) > written,
            "{means}: the code was not writing ({note})"
        );
        if i == 0 {
            assert!(
                note.contains("tgkill 0") && !note.contains("watch thread None"),
                "the signal never reached the watch thread: {note}"
            );
        }
        host.kill().unwrap();
        host.wait().unwrap();
        let gone = all_gone_within(&[worker], GRACE);
        if !gone {
            // SAFETY: the test's own leftover worker.
            unsafe { libc::kill(worker as libc::pid_t, libc::SIGKILL) };
        }
        assert!(
            gone,
            "{means}: the worker {worker} outlived its killed host by {GRACE:?} ({note})"
        );
        left.push(run_dir);
    }
    // The next host sweeps what the orphans left behind (their hosts are dead).
    the_next_host_sweeps(&sb, "after", &left);
}

/// A next host (`make-figure` with the sandbox's `TMPDIR`) makes figure `name` and removes
/// every run directory in `left`, whose hosts are dead.
fn the_next_host_sweeps(sb: &Sandbox, name: &str, left: &[PathBuf]) {
    let next = sb.make_figure(
        name,
        "fig, ax = plt.subplots()\nax.plot([1, 2])\nplt.savefig(OUT)\n",
        &[],
    );
    assert_eq!(next.json["ok"], true, "{}", next.json);
    for dir in left {
        let started = Instant::now();
        while dir.exists() && started.elapsed() < Duration::from_secs(30) {
            std::thread::sleep(Duration::from_millis(50));
        }
        assert!(
            !dir.exists(),
            "the next host did not remove `{}`",
            dir.display()
        );
    }
}

#[test]
fn a_worker_whose_host_lives_on_but_never_stops_it_is_killed_by_the_kernel_at_its_time_out() {
    let sb = Sandbox::new("orphan-timer");
    let run_dir = run_dir_in(&sb.runs_dir(), "timer");
    // Everything a worker can do against a time limit: every catchable signal ignored or
    // blocked, and the timer calls tried (the filter refuses them).
    let code = r#"
for sig in signal.valid_signals():
    try:
        signal.signal(sig, signal.SIG_IGN)
    except (OSError, ValueError, RuntimeError):
        pass
signal.pthread_sigmask(signal.SIG_BLOCK, signal.valid_signals())
libc = ctypes.CDLL(None, use_errno=True)
x86 = platform.machine() == 'x86_64'
tried = []
for name, nr, args in (
    ('timer_delete', 226 if x86 else 111, (0,)),
    ('timer_settime', 223 if x86 else 110, (0, 0, None, None)),
    ('timer_create', 222 if x86 else 107, (1, None, None)),
):
    rc = libc.syscall(nr, *args)
    tried.append('%s %s errno %s' % (name, rc, ctypes.get_errno()))
ready('; '.join(tried))
while True:
    time.sleep(0.1)
"#;
    let (host, worker) = start_under_host(&sb, &run_dir, code, 3);
    let note = wait_for_value("the code never got going", || {
        std::fs::read_to_string(run_dir.join("parked")).ok()
    });
    for call in ["timer_delete", "timer_settime", "timer_create"] {
        assert!(
            note.contains(&format!("{call} -1 errno {}", libc::EPERM)),
            "{call} was not refused: {note}"
        );
    }
    let status_file = run_dir.with_file_name("worker.status");
    let status: i32 = wait_for_value("the worker was never killed", || {
        std::fs::read_to_string(&status_file)
            .ok()?
            .trim()
            .parse()
            .ok()
    });
    kill_group(&host);
    assert_eq!(
        status,
        128 + libc::SIGKILL,
        "the worker ended otherwise than by the kernel's SIGKILL ({note})"
    );
    assert!(!procfs::running_now(worker));
}

/// A fork server under a stand-in host, as the window's and the MCP server's pool start one:
/// the host is killed while a figure runs in a child; server and child are gone 2 s later.
/// With a short time-out and a host that lives on, the child is killed at its time-out by its
/// own kernel timer (armed when its figure started: the child waited as a spare first).
#[test]
fn a_fork_server_and_its_child_die_with_their_killed_host_and_on_time() {
    let sb = Sandbox::new("orphan-fork");
    for (kill_host, timeout) in [(true, 600u64), (false, 3)] {
        let server_dir = run_dir_in(&sb.runs_dir(), &format!("server-{kill_host}"));
        let child_dir = server_dir.join("runs").join("child");
        std::fs::create_dir_all(&child_dir).unwrap();
        let code_file = sb.inputs().join("fork-orphan.py");
        let code = r#"
for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
    signal.signal(sig, signal.SIG_IGN)
threading.Thread(target=write_forever, daemon=True).start()
ready('child %d' % os.getpid())
while True:
    time.sleep(0.1)
"#;
        std::fs::write(&code_file, format!("{HELPERS}\n{code}")).unwrap();
        let Prepared { json, env } = PrepareRun::new(&sb.src)
            .fork_server(&server_dir)
            .request(&child_dir, &code_file)
            .args(["--timeout".to_owned(), timeout.to_string()])
            .prepare(false);
        let request = json["requests"][0].clone();
        let _ = std::fs::remove_file(server_dir.with_file_name("server.pid"));
        // fd 3: the test's pipe, handed on as the server's stdin (an asynchronous list's
        // stdin would otherwise be /dev/null).
        let mut host = Command::new("/bin/sh")
            .arg("-c")
            .arg(r#"exec 3<&0; "$0" <&3 3<&- & echo $! > ../server.pid; wait $!"#)
            .arg(blackbox::pdfagent_bin())
            .env_clear()
            .envs(&env)
            .current_dir(&server_dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()
            .expect("start the stand-in host");
        let mut stdin = host.stdin.take().unwrap();
        let replies = std::io::BufReader::new(host.stdout.take().unwrap());
        let (tx, rx) = std::sync::mpsc::channel::<serde_json::Value>();
        std::thread::spawn(move || {
            for line in replies.lines() {
                let Ok(line) = line else { break };
                if let Ok(v) = serde_json::from_str(&line)
                    && tx.send(v).is_err()
                {
                    break;
                }
            }
        });
        use std::io::Write;
        for part in ["fork", "go"] {
            let line = request[part].as_str().unwrap();
            stdin.write_all(line.trim_end().as_bytes()).unwrap();
            stdin.write_all(b"\n").unwrap();
        }
        stdin.flush().unwrap();
        let server: u32 = wait_for_value("the stand-in host never started the server", || {
            std::fs::read_to_string(server_dir.with_file_name("server.pid"))
                .ok()?
                .trim()
                .parse()
                .ok()
        });
        let note = wait_for_value("the child's code never got going", || {
            std::fs::read_to_string(child_dir.join("parked")).ok()
        });
        let child: u32 = note
            .trim_start_matches("child ")
            .parse()
            .expect("the child's pid");
        if kill_host {
            host.kill().unwrap();
            host.wait().unwrap();
            let gone = all_gone_within(&[server, child], GRACE);
            if !gone {
                for pid in [server, child] {
                    // SAFETY: the test's own leftovers.
                    unsafe { libc::kill(pid as libc::pid_t, libc::SIGKILL) };
                }
            }
            assert!(
                gone,
                "the fork server {server} or its child {child} outlived the killed host"
            );
        } else {
            let exit = wait_for_value("the child was never killed", || {
                rx.recv_timeout(Duration::from_millis(100))
                    .ok()
                    .filter(|r| r.get("exit").is_some())
            });
            drop(stdin);
            kill_group(&host);
            let _ = host.wait();
            assert_eq!(
                exit["exit"].as_i64(),
                Some(-i64::from(libc::SIGKILL)),
                "the child ended otherwise than by its kernel timer: {exit}"
            );
        }
    }
}

/// Every process `pid` started, and theirs, depth first (read from `/proc`).
fn descendants(pid: u32) -> Vec<u32> {
    let mut found = Vec::new();
    let mut next = vec![pid];
    while let Some(p) = next.pop() {
        for child in procfs::children_of(p) {
            found.push(child);
            next.push(child);
        }
    }
    found
}

/// The real host, not a stand-in: `pdfagent mcp` (on Linux its warm pool — the window's
/// too — is a fork server, whose child runs each figure), SIGKILLed while a figure's code,
/// accepted by Layer 1 and run with the guard armed, blocks in a long sleep or spins in a
/// busy loop after saving its figure. Proven from `/proc`: 2 s later no process the host
/// started is left — the fork server, the running child, the spare child forked ahead —
/// and no process has its run directory or working directory under the host's `TMPDIR`;
/// the next host (`make-figure` with the same `TMPDIR`) removes every run directory the
/// killed one left.
#[test]
fn a_real_mcp_host_killed_mid_figure_leaves_no_worker_and_its_run_directories_are_swept() {
    use std::io::Write;
    let sb = Sandbox::new("orphan-mcp");
    let temp = sb.runs_dir();
    std::fs::create_dir_all(&temp).unwrap();
    let blocking = [
        ("a long sleep", "import time\ntime.sleep(600)\n"),
        ("a busy loop", "while True:\n    pass\n"),
    ];
    for (i, (means, tail)) in blocking.iter().enumerate() {
        let mut host = blackbox::pdfagent()
            .arg("mcp")
            .arg("--src")
            .arg(&sb.src)
            .arg("--figures")
            .arg(&sb.figures)
            .env("TMPDIR", &temp)
            .env("XDG_DATA_HOME", sb.data_home())
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start pdfagent mcp");
        let host_pid = host.id();
        let mut stdin = host.stdin.take().expect("the host's stdin");
        let code = format!("plt.plot([1, 2])\nplt.savefig(OUT)\n{tail}");
        let messages = [
            serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                "protocolVersion": "2025-06-18", "capabilities": {},
                "clientInfo": {"name": "orphan-test", "version": "1"}}}),
            serde_json::json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
            serde_json::json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
                "name": "make_figure", "arguments": {"name": format!("parked{i}"), "code": code}}}),
        ];
        for message in messages {
            writeln!(stdin, "{message}").expect("write to the MCP host");
        }
        stdin.flush().expect("flush");
        // The figure's code is past its savefig: the run directory of the child that took
        // it (where its stdout goes) holds the figure.
        let running = wait_for_value(&format!("{means}: the figure never ran"), || {
            descendants(host_pid).into_iter().find(|pid| {
                procfs::stdout_dir(*pid).is_some_and(|dir| {
                    dir.join(".pdfagent-warm-taken").exists()
                        && std::fs::read_dir(&dir).is_ok_and(|entries| {
                            entries
                                .flatten()
                                .any(|e| e.file_name().to_string_lossy().ends_with(".png"))
                        })
                })
            })
        });
        std::thread::sleep(Duration::from_millis(300));
        assert!(
            procfs::running_now(running),
            "{means}: the figure's process ended before its host was killed"
        );
        let started = descendants(host_pid);
        assert!(
            started.len() >= 2,
            "{means}: the host runs no fork server with a child: {started:?}"
        );
        // SIGKILL to the host alone (not its group): no clean-up of its own runs.
        // SAFETY: plain syscall on the host this test started.
        unsafe {
            libc::kill(host_pid as libc::pid_t, libc::SIGKILL);
        }
        let _ = host.wait();
        drop(stdin);
        let gone = all_gone_within(&started, GRACE);
        let left_under = security_support::processes_under(&temp);
        if !gone || !left_under.is_empty() {
            for pid in started.iter().chain(&left_under) {
                // SAFETY: the test's own leftovers.
                unsafe { libc::kill(*pid as libc::pid_t, libc::SIGKILL) };
            }
        }
        assert!(
            gone,
            "{means}: processes of the killed host outlived it by {GRACE:?}: {:?}",
            started
                .iter()
                .filter(|p| procfs::running_now(**p))
                .collect::<Vec<_>>()
        );
        assert!(
            left_under.is_empty(),
            "{means}: processes with a run directory of the killed host: {left_under:?}"
        );
        assert!(!sb.figures.join(format!("parked{i}.png")).exists());
    }
    let left: Vec<PathBuf> = std::fs::read_dir(&temp)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    assert!(
        !left.is_empty(),
        "the killed hosts left no run directory behind: nothing to prove the sweep on"
    );
    the_next_host_sweeps(&sb, "after-mcp", &left);
}
