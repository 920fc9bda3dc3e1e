//! Layer 2 on the fork-server path (Linux), Layer 1 bypassed: what a figure's process — a
//! child the fork server forked and that confined itself with its own plan on top of the
//! server's — can do to the server, to a sibling, and after its host is gone. Each test
//! proves the effect did not happen, from outside.
//!
//! (`scripts/test` also runs every other `security_*` suite once more with
//! `PDFAGENT_LAYER2_VIA=fork-server`, so the same attacks run as children of a server.)

#![cfg(target_os = "linux")]

mod security_support;

use blackbox::procfs::{alive_after, children_of, stdout_dir};
use security_support::{Sandbox, StartedServer, secret_token};
use std::path::Path;
use std::time::{Duration, Instant};

const LIMIT: Duration = Duration::from_secs(120);

/// The attack scripts' `attempt(name, f)`: one line per attempt, ESCAPED (with what it got)
/// or BLOCKED (with the exception's type).
const ATTEMPT: &str = "def attempt(name, f):
    try:
        r = f()
        print(name, 'ESCAPED', repr(r)[:200], flush=True)
    except BaseException as e:
        print(name, 'BLOCKED', type(e).__name__, flush=True)
";

/// Whether a child of the fork server has taken its figure: the marker the preamble leaves in
/// its run directory (found through its stdout: its environment is still the server's).
fn took_a_figure(pid: u32) -> bool {
    stdout_dir(pid).is_some_and(|dir| dir.join(".pdfagent-warm-taken").exists())
}

/// Wait for the child of request `index` (request id `index + 1`) to end, assert that it
/// exited 0, and return what it printed.
fn exited_cleanly(server: &mut StartedServer, index: usize, what: &str) -> String {
    let exit = server
        .reply(index as u64 + 1, "exit", LIMIT)
        .unwrap_or_else(|| panic!("{what} never ended"))["exit"]
        .as_i64();
    assert_eq!(
        exit,
        Some(0),
        "{what} failed: {}",
        read(&server.requests[index]["stderr"])
    );
    read(&server.requests[index]["stdout"])
}

fn read(path: &serde_json::Value) -> String {
    std::fs::read_to_string(path.as_str().expect("a path")).unwrap_or_default()
}

fn py(path: &Path) -> String {
    Sandbox::py(path)
}

#[test]
fn a_child_cannot_touch_a_sibling_signal_the_server_or_fork() {
    let sb = Sandbox::new("forksib");
    let sibling_run = sb.src.with_file_name("run-b");
    std::fs::create_dir(&sibling_run).unwrap();
    let secret = secret_token("sibling");
    // A: keeps its run directory busy with a secret in it, then finishes normally.
    let a = format!(
        "import time\n\
         open('{}/secret-of-a.txt', 'w').write({secret:?})\n\
         time.sleep(4)\n\
         print('A-DONE', flush=True)\n",
        sb.run.display()
    );
    // B: everything against A, the server and process creation; one line per attempt.
    let marker = sibling_run.join("forked.txt");
    let b = format!(
        "import os, posix, signal\n\
         a = {a_dir}\n\
         {ATTEMPT}\
         attempt('write-sibling', lambda: open(a + '/from-b.txt', 'w').write('x'))\n\
         attempt('read-sibling', lambda: open(a + '/secret-of-a.txt').read())\n\
         attempt('list-sibling', lambda: os.listdir(a))\n\
         attempt('server-memory', lambda: open('/proc/%d/mem' % os.getppid(), 'rb').read(16))\n\
         attempt('server-environ', lambda: open('/proc/%d/environ' % os.getppid(), 'rb').read())\n\
         attempt('kill-server', lambda: os.kill(os.getppid(), signal.SIGKILL))\n\
         attempt('stop-server', lambda: os.kill(os.getppid(), signal.SIGSTOP))\n\
         def forked():\n\
         \x20   pid = posix.fork()\n\
         \x20   if pid == 0:\n\
         \x20       open({marker}, 'w').write('child')\n\
         \x20       os._exit(0)\n\
         \x20   return pid\n\
         attempt('fork', forked)\n\
         def group(pgid):\n\
         \x20   try:\n\
         \x20       os.killpg(pgid, signal.SIGKILL)\n\
         \x20   except OSError as e:\n\
         \x20       print('killpg', pgid, 'errno', e.errno, flush=True)\n\
         group(0)\n\
         group(os.getpgid(0))\n\
         print('B-END', flush=True)\n",
        a_dir = py(&sb.run),
        marker = py(&marker),
    );
    let c = "print('C-OK', flush=True)\n";
    let mut server = sb.fork_server(
        &[(&sb.run, &a), (&sibling_run, &b), (&sibling_run, c)],
        &[],
        |_| {},
    );
    let server_pid = server.pid();
    server.send(0);
    assert!(server.reply(1, "pid", LIMIT).is_some(), "A was not forked");
    // A has written its secret before B starts.
    let deadline = Instant::now() + LIMIT;
    while !sb.run.join("secret-of-a.txt").exists() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    server.send(1);
    let b_exit = server.reply(2, "exit", LIMIT).expect("B ended")["exit"].as_i64();
    let b_out = read(&server.requests[1]["stdout"]);
    for name in [
        "write-sibling",
        "read-sibling",
        "list-sibling",
        "server-memory",
        "server-environ",
        "kill-server",
        "stop-server",
        "fork",
    ] {
        assert!(
            b_out.contains(&format!("{name} BLOCKED")),
            "{name} was not blocked:\n{b_out}\n{}",
            read(&server.requests[1]["stderr"])
        );
    }
    assert!(!b_out.contains("ESCAPED"), "{b_out}");
    assert!(!b_out.contains(&secret), "B read A's secret:\n{b_out}");
    // killpg reaches nobody, not even B: B shares its process group with the server and A,
    // and the seccomp filter refuses a signal to anything but the caller's own pid (EPERM)
    // before Landlock's scoping (which would let it reach B itself) is asked.
    assert!(b_out.contains("B-END"), "{b_out}");
    let refused = format!("errno {}", libc::EPERM);
    let killpg: Vec<&str> = b_out.lines().filter(|l| l.starts_with("killpg")).collect();
    assert_eq!(killpg.len(), 2, "both killpg attempts must fail:\n{b_out}");
    assert!(
        killpg.iter().all(|l| l.ends_with(&refused)),
        "a process-group signal was not refused with EPERM:\n{b_out}"
    );
    assert_eq!(b_exit, Some(0), "B should have survived its own killpg");
    assert!(
        !sb.run.join("from-b.txt").exists(),
        "B wrote into A's run directory"
    );
    assert!(!marker.exists(), "B's fork ran a child");
    // A and the server are untouched: A finishes, the server forks the next figure.
    assert!(server.is_running(), "the server was stopped or killed");
    assert!(exited_cleanly(&mut server, 0, "A (disturbed?)").contains("A-DONE"));
    server.send(2);
    let c_exit = server.reply(3, "exit", LIMIT).expect("C ended")["exit"].as_i64();
    assert_eq!(c_exit, Some(0));
    assert!(read(&server.requests[2]["stdout"]).contains("C-OK"));
    assert!(server.is_running());
    assert!(alive_after(server_pid, Duration::ZERO));
    server.close();
}

#[test]
fn a_child_that_crashes_or_aborts_leaves_the_server_serving() {
    let sb = Sandbox::new("forkcrash");
    // A real fault (Rust's own SIGSEGV handler lets a signal merely sent with kill() pass).
    let crash = "import ctypes\nctypes.string_at(0)\n";
    let abort = "import os\nos.abort()\n";
    let bomb = "x = bytearray(1 << 40)\n";
    let fine = "print('STILL-SERVING', flush=True)\n";
    let mut server = sb.fork_server(
        &[
            (&sb.run, crash),
            (&sb.run, abort),
            (&sb.run, bomb),
            (&sb.run, fine),
        ],
        &["--memory", "1024"],
        |_| {},
    );
    for (index, expected) in [(0usize, -11i64), (1, -6)] {
        server.send(index);
        let exit = server
            .reply(index as u64 + 1, "exit", LIMIT)
            .expect("an exit")["exit"]
            .as_i64();
        assert_eq!(
            exit,
            Some(expected),
            "request {index}: {} {}",
            read(&server.requests[index]["stdout"]),
            read(&server.requests[index]["stderr"])
        );
        assert!(server.is_running(), "a crashing child took the server down");
    }
    server.send(2);
    let exit = server.reply(3, "exit", LIMIT).expect("an exit")["exit"].as_i64();
    assert_eq!(exit, Some(1), "the memory bomb must fail on its own limit");
    assert!(read(&server.requests[2]["stderr"]).contains("MemoryError"));
    server.send(3);
    let exit = server.reply(4, "exit", LIMIT).expect("an exit")["exit"].as_i64();
    assert_eq!(exit, Some(0));
    assert!(read(&server.requests[3]["stdout"]).contains("STILL-SERVING"));
    server.close();
}

/// A child forked ahead waits for its figure in its own run directory, with the figure's
/// request written there only at "go". A running figure (Layer 1 bypassed) tries to start it
/// early and to plant code for it: through every descriptor it may have inherited (the
/// server's "go" pipes), by writing the waiting child's request file, by reading or listing
/// its run directory. The waiting child must neither start nor run anything but its own
/// figure, and the planted code must not run.
#[test]
fn a_running_figure_cannot_start_or_plant_code_in_the_next_figures_child() {
    let sb = Sandbox::new("forkspare");
    let spare_run = sb.src.with_file_name("run-spare");
    std::fs::create_dir(&spare_run).unwrap();
    let planted = sb.src.with_file_name("planted.txt");
    let injected = format!(
        "{{\"out\": \"x.png\", \"code\": \"open({planted}, 'w').write('ran')\\n\", \
         \"options\": {{}}}}",
        planted = py(&planted).replace('"', "\\\"")
    );
    let spare_code = "print('SPARE-RAN-ITS-OWN', flush=True)\n";
    let attacker = format!(
        "import os\n\
         spare = {spare}\n\
         {ATTEMPT}\
         written = []\n\
         for fd in range(3, 1024):\n\
         \x20   try:\n\
         \x20       os.write(fd, b'g')\n\
         \x20       written.append(fd)\n\
         \x20   except OSError:\n\
         \x20       pass\n\
         print('WROTE-G-TO', written, flush=True)\n\
         attempt('plant-request', lambda: open(spare + '/request-1.json', 'w').write({injected:?}))\n\
         attempt('plant-other-request', lambda: open(spare + '/request-9.json', 'w').write('x'))\n\
         attempt('read-request', lambda: open(spare + '/request-1.json').read())\n\
         attempt('list-spare', lambda: os.listdir(spare))\n\
         print('ATTACKER-END', flush=True)\n",
        spare = py(&spare_run),
    );
    let mut server = sb.fork_server(
        &[(&spare_run, spare_code), (&sb.run, &attacker)],
        &[],
        |_| {},
    );
    // The spare is forked and waits; its request file is already there (the harness writes
    // it at preparation, as the pool does just before "go").
    server.send_part(0, "fork");
    let spare_pid = server
        .reply(1, "pid", LIMIT)
        .and_then(|r| r["pid"].as_u64())
        .expect("the spare was forked") as u32;
    server.send(1);
    let attacker_exit =
        server.reply(2, "exit", LIMIT).expect("the attacker ended")["exit"].as_i64();
    let out = read(&server.requests[1]["stdout"]);
    assert_eq!(
        attacker_exit,
        Some(0),
        "{out}\n{}",
        read(&server.requests[1]["stderr"])
    );
    assert!(out.contains("ATTACKER-END"), "{out}");
    for name in [
        "plant-request",
        "plant-other-request",
        "read-request",
        "list-spare",
    ] {
        assert!(
            out.contains(&format!("{name} BLOCKED")),
            "{name} was not blocked:\n{out}"
        );
    }
    assert!(!out.contains("ESCAPED"), "{out}");
    // No "go" reached the spare: it still waits, having taken nothing.
    assert!(
        alive_after(spare_pid, Duration::from_millis(500)),
        "the waiting child ended early"
    );
    assert!(
        !spare_run.join(".pdfagent-warm-taken").exists(),
        "the waiting child was started by the attacker"
    );
    assert!(read(&server.requests[0]["stdout"]).is_empty());
    assert!(server.reply(1, "exit", Duration::ZERO).is_none());
    // Its own "go": it runs its own figure, never the planted one.
    server.send_part(0, "go");
    assert!(exited_cleanly(&mut server, 0, "the spare").contains("SPARE-RAN-ITS-OWN"));
    assert!(!planted.exists(), "code planted by another figure ran");
    assert!(!spare_run.join("request-9.json").exists());
    server.close();
}

/// The real host: `pdfagent mcp`, whose pool keeps the fork server. A figure is running in
/// a child when the host is killed outright (no clean-up runs): the server and the child end.
#[test]
fn killing_the_host_ends_the_server_and_its_running_figure() {
    use std::io::Write;
    let sb = Sandbox::new("forkhost");
    let mut host = blackbox::pdfagent()
        .arg("mcp")
        .arg("--src")
        .arg(&sb.src)
        .arg("--figures")
        .arg(&sb.figures)
        .env("TMPDIR", {
            std::fs::create_dir_all(sb.runs_dir()).unwrap();
            sb.runs_dir()
        })
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("start pdfagent mcp");
    let host_pid = host.id();
    let mut stdin = host.stdin.take().expect("stdin");
    let messages = [
        serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "security-test", "version": "1"}}}),
        serde_json::json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        serde_json::json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
            "name": "make_figure", "arguments": {"name": "slow",
            "code": "import time\ntime.sleep(60)\nplt.plot([1, 2])\nplt.savefig(OUT)\n"}}}),
    ];
    for message in messages {
        writeln!(stdin, "{message}").expect("write to the MCP server");
    }
    stdin.flush().expect("flush");
    // The server is the host's child that has children of its own: the running figure (and
    // the next figure's child, forked ahead).
    let deadline = Instant::now() + LIMIT;
    let (server, figure) = loop {
        let found = children_of(host_pid).into_iter().find_map(|server| {
            children_of(server)
                .into_iter()
                .find(|c| took_a_figure(*c))
                .map(|figure| (server, figure))
        });
        if let Some(found) = found {
            break found;
        }
        assert!(
            Instant::now() < deadline,
            "no figure ever ran in a child of the server"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    // SAFETY: plain syscall on the host this test started.
    unsafe {
        libc::kill(host_pid as libc::pid_t, libc::SIGKILL);
    }
    let waiting = children_of(server);
    let _ = host.wait();
    assert!(
        !alive_after(server, Duration::from_secs(10)),
        "the fork server {server} outlived its host"
    );
    for child in waiting {
        assert!(
            !alive_after(child, Duration::from_secs(10)),
            "the server's child {child} outlived its host"
        );
    }
    assert!(
        !alive_after(figure, Duration::from_secs(10)),
        "the figure's process {figure} outlived its host"
    );
    assert!(!sb.figures.join("slow.png").exists());
}
