//! The warm path end to end: this test binary is its own worker (it honours
//! `PDFAGENT_PYRUN` first thing in `main`, as the `pdfagent` executable does), so every case
//! runs the real embedded interpreter under the real confinement. On Linux the pool keeps a
//! fork server: the pid it reports is the server's, and each figure runs in a child of it.
//!
//! `harness = false`: the worker path must run in the process's main thread before any
//! other thread exists. Run: `cargo test -p python-runtime --test warm`. Needs the runtime
//! (`scripts/build-runtime`); without it every case fails saying so.

#[cfg(target_os = "linux")]
fn main() {
    linux::main();
}

#[cfg(not(target_os = "linux"))]
fn main() {
    if let Some(code) = python_runtime::run_if_requested() {
        std::process::exit(code);
    }
    println!("warm: Linux-only suite (it watches workers through /proc); nothing to run here");
}

// The black-box suites' `/proc` helpers (std only), not all of them used here.
#[cfg(target_os = "linux")]
#[allow(dead_code)]
#[path = "../../tests/src/procfs.rs"]
mod procfs;

#[cfg(target_os = "linux")]
mod linux {
    use crate::procfs::{alive_after, children_of, env_var, running_now, status_field, stdout_dir};
    use python_runtime::CancelFlag;
    use python_runtime::WarmPool;
    use python_runtime::test_support::TAKEN_MARKER;
    use python_runtime::{FigureFormat, FigureRequest, Limits, Outcome, make_figure};
    use std::path::PathBuf;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::{Duration, Instant};

    const STANDARD: &str = "\
x = np.linspace(0, 10, 1000)
plt.plot(x, np.sin(x), label='sin')
plt.xlabel('time (s)')
plt.ylabel('signal')
plt.title('standard')
plt.legend()
plt.savefig(OUT)
";

    const READY: Duration = Duration::from_secs(60);

    struct Folders {
        _tmp: tempfile::TempDir,
        src: PathBuf,
        figures: PathBuf,
        root: PathBuf,
    }

    fn folders() -> Folders {
        let tmp = tempfile::tempdir().expect("temp dir");
        let root = tmp.path().canonicalize().expect("canonical temp dir");
        let src = root.join("src");
        let figures = root.join("figures");
        std::fs::create_dir(&src).expect("mkdir src");
        std::fs::write(src.join("data.csv"), "x,y\n1,2\n3,4\n").expect("write data");
        Folders {
            _tmp: tmp,
            src,
            figures,
            root,
        }
    }

    fn request(f: &Folders, name: &str, code: &str, limits: Limits) -> FigureRequest {
        FigureRequest {
            name: name.into(),
            code: code.as_bytes().to_vec(),
            src: f.src.clone(),
            figures: f.figures.clone(),
            format: Default::default(),
            limits,
            preview: false,
        }
    }

    fn no_cancel() -> CancelFlag {
        Arc::new(AtomicBool::new(false))
    }

    /// Whether `pid` is a live (not zombie) process, allowing a just-killed one time to die.
    fn alive(pid: u32) -> bool {
        alive_after(pid, Duration::from_secs(10))
    }

    /// Whether a child of the fork server has taken a figure (a child forked ahead waits
    /// for one without having run anything).
    fn took_a_figure(pid: u32) -> bool {
        stdout_dir(pid).is_some_and(|d| d.join(TAKEN_MARKER).exists())
    }

    /// Children of `server` that took a figure and are still live (not zombies), allowing
    /// killed ones time to die. The child forked ahead for the next figure is not one.
    fn live_children(server: u32) -> Vec<u32> {
        children_of(server)
            .into_iter()
            .filter(|c| took_a_figure(*c) && alive(*c))
            .collect()
    }

    /// The children of `server` forked ahead, waiting for a figure.
    fn spares_of(server: u32) -> Vec<u32> {
        children_of(server)
            .into_iter()
            .filter(|c| running_now(*c) && !took_a_figure(*c))
            .collect()
    }

    /// A child of the fork server seen while it ran a figure, with its confinement.
    struct SeenChild {
        pid: u32,
        seccomp_filters: Option<String>,
        no_new_privs: Option<String>,
    }

    /// Submit `req` on another thread and return the first child of `server` seen while it
    /// runs, with the result.
    fn child_running(
        pool: &Arc<WarmPool>,
        server: u32,
        req: FigureRequest,
    ) -> (Option<SeenChild>, python_runtime::FigureResult) {
        let submitter = {
            let pool = Arc::clone(pool);
            std::thread::spawn(move || pool.submit(&req, &no_cancel(), &|_| {}))
        };
        let mut seen = None;
        while !submitter.is_finished() && seen.is_none() {
            if let Some(pid) = children_of(server).into_iter().find(|c| took_a_figure(*c)) {
                // Confined by then? Wait for the third filter: the child installs the worker's
                // first, then on "go" the one that locks its kernel wall clock (issue #40).
                let deadline = Instant::now() + Duration::from_secs(5);
                let mut filters = status_field(pid, "Seccomp_filters");
                while filters.as_deref() != Some("3") && Instant::now() < deadline {
                    std::thread::sleep(Duration::from_millis(5));
                    filters = status_field(pid, "Seccomp_filters");
                }
                seen = Some(SeenChild {
                    pid,
                    seccomp_filters: filters,
                    no_new_privs: status_field(pid, "NoNewPrivs"),
                });
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        let result = submitter.join().expect("the submitting thread");
        (seen, result)
    }

    fn ready_pool(f: &Folders, limits: &Limits) -> (WarmPool, u32) {
        let pool = WarmPool::new();
        pool.prepare(&f.src, &f.figures, limits).expect("prepare");
        assert!(pool.wait_ready(READY), "the warm worker never became ready");
        let pid = pool.warm_pid().expect("a warm worker");
        (pool, pid)
    }

    /// Kill `pid` (a warm worker or a waiting child of the pool's server) and prove the
    /// next figure is made all the same.
    fn a_figure_after_killing(pool: &WarmPool, f: &Folders, pid: u32) {
        // SAFETY: plain syscall on a process this test's pool started (not yet reaped).
        unsafe {
            libc::kill(pid as libc::pid_t, libc::SIGKILL);
        }
        assert!(!alive(pid));
        let r = pool.submit(
            &request(f, "after_kill", STANDARD, Limits::default()),
            &no_cancel(),
            &|_| {},
        );
        assert!(r.ok, "a figure must not wait on a killed process: {r:?}");
        assert!(f.figures.join("after_kill.png").is_file());
    }

    /// A PNG without its text chunks (`iTXt`/`tEXt`/`zTXt`: where the provenance record is).
    fn drawing_only(png: &[u8]) -> Vec<u8> {
        let mut out = png[..8].to_vec();
        let mut at = 8;
        while at + 12 <= png.len() {
            let len = u32::from_be_bytes([png[at], png[at + 1], png[at + 2], png[at + 3]]) as usize;
            let end = (at + 12 + len).min(png.len());
            if !matches!(&png[at + 4..at + 8], b"iTXt" | b"tEXt" | b"zTXt") {
                out.extend_from_slice(&png[at..end]);
            }
            at = end;
        }
        out
    }

    fn warm_figure_equals_cold_figure() {
        let f = folders();
        let (pool, pid) = ready_pool(&f, &Limits::default());
        let warm = pool.submit(
            &request(&f, "warm", STANDARD, Limits::default()),
            &no_cancel(),
            &|_| {},
        );
        assert!(warm.ok, "{warm:?}");
        assert!(
            running_now(pid),
            "the fork server {pid} must stay after a figure"
        );
        assert!(
            live_children(pid).is_empty(),
            "the figure's child is still running"
        );
        // A small figure, then at once the standard one: the child forked for it while the
        // small figure ran has most likely not finished drawing ahead when it comes, and leaves
        // that drawing at its next step (preamble.py). What it left behind must not show.
        for (name, code) in [
            ("small", "plt.figure(figsize=(1, 1))\nplt.savefig(OUT)\n"),
            ("after_small", STANDARD),
        ] {
            let r = pool.submit(
                &request(&f, name, code, Limits::default()),
                &no_cancel(),
                &|_| {},
            );
            assert!(r.ok, "{r:?}");
        }
        let cold = make_figure(
            &request(&f, "cold", STANDARD, Limits::default()),
            &no_cancel(),
            &|_| {},
        );
        assert!(cold.ok, "{cold:?}");
        // The figures' own drawing must be identical; their provenance records differ (name,
        // time) and are left out of the comparison.
        let cold_png =
            drawing_only(&std::fs::read(f.figures.join("cold.png")).expect("cold figure"));
        for warm in ["warm", "after_small"] {
            let warm_png = drawing_only(
                &std::fs::read(f.figures.join(format!("{warm}.png"))).expect("warm figure"),
            );
            assert!(warm_png.starts_with(b"\x89PNG"));
            assert!(
                warm_png == cold_png,
                "the warm figure {warm} ({} bytes) differs from the cold one ({} bytes)",
                warm_png.len(),
                cold_png.len()
            );
        }
    }

    fn submit_while_warming() {
        let f = folders();
        let pool = WarmPool::new();
        pool.prepare(&f.src, &f.figures, &Limits::default())
            .expect("prepare");
        // Give the background spawn a moment, but not the warm-up.
        let deadline = Instant::now() + Duration::from_secs(5);
        while pool.warm_pid().is_none() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
        let pid = pool.warm_pid().expect("a warm worker was started");
        let r = pool.submit(
            &request(&f, "early", STANDARD, Limits::default()),
            &no_cancel(),
            &|_| {},
        );
        assert!(r.ok, "{r:?}");
        assert_eq!(
            pool.warm_pid(),
            Some(pid),
            "the figure submitted while the server warmed up must not replace it"
        );
        assert!(running_now(pid), "the warming server {pid} is gone");
        assert!(f.figures.join("early.png").is_file());
    }

    fn format_chosen_at_submit() {
        let f = folders();
        let (pool, _) = ready_pool(&f, &Limits::default());
        for (format, ext, magic) in [
            (FigureFormat::Svg, "svg", &b"<?xml"[..]),
            (FigureFormat::Pdf, "pdf", &b"%PDF"[..]),
        ] {
            assert!(pool.wait_ready(READY));
            let pid = pool.warm_pid().expect("a warm worker");
            let mut req = request(&f, "vector", STANDARD, Limits::default());
            req.format = format;
            let r = pool.submit(&req, &no_cancel(), &|_| {});
            assert!(r.ok, "{r:?}");
            assert_eq!(pool.warm_pid(), Some(pid), "one server serves every format");
            let bytes = std::fs::read(f.figures.join(format!("vector.{ext}"))).expect("figure");
            assert!(bytes.starts_with(magic), "not a {ext} file");
        }
    }

    fn never_reused() {
        let f = folders();
        let (pool, server) = ready_pool(&f, &Limits::default());
        let pool = Arc::new(pool);
        let slow = format!("import time\ntime.sleep(1)\n{STANDARD}");
        let (first, r) = child_running(&pool, server, request(&f, "one", &slow, Limits::default()));
        assert!(r.ok, "{r:?}");
        let first = first.expect("the figure ran in a child of the server");
        // The child stacks the worker's seccomp filter on the server's, then the wall clock's
        // lock on "go", with no_new_privs.
        assert_eq!(
            first.seccomp_filters.as_deref(),
            Some("3"),
            "the child's seccomp filters"
        );
        assert_eq!(first.no_new_privs.as_deref(), Some("1"));
        let first = first.pid;
        assert!(!alive(first), "the child that ran code is still alive");
        let (second, r) =
            child_running(&pool, server, request(&f, "two", &slow, Limits::default()));
        assert!(r.ok, "{r:?}");
        let second = second.expect("the second figure ran in a child too").pid;
        assert_ne!(first, second, "a process that ran code was used again");
        assert!(!alive(second));
        assert_eq!(pool.warm_pid(), Some(server), "the server was replaced");
        assert!(running_now(server));
    }

    fn parallel_figures() {
        let f = folders();
        let (pool, server) = ready_pool(&f, &Limits::default());
        let pool = Arc::new(pool);
        let code = format!("import time\ntime.sleep(0.5)\n{STANDARD}");
        let runs: Vec<_> = (0..4)
            .map(|i| {
                let pool = Arc::clone(&pool);
                let req = request(&f, &format!("p{i}"), &code, Limits::default());
                std::thread::spawn(move || pool.submit(&req, &no_cancel(), &|_| {}))
            })
            .collect();
        for run in runs {
            let r = run.join().expect("a submitting thread");
            assert!(r.ok, "{r:?}");
        }
        for i in 0..4 {
            assert!(f.figures.join(format!("p{i}.png")).is_file());
        }
        assert_eq!(pool.warm_pid(), Some(server));
        assert!(live_children(server).is_empty());
    }

    fn a_failing_figure_leaves_the_server_serving() {
        let f = folders();
        let (pool, server) = ready_pool(&f, &Limits::default());
        for code in [
            "raise ValueError('broken on purpose')\n",
            "x = np.ones((1 << 40,))\n",
        ] {
            let r = pool.submit(
                &request(&f, "broken", code, Limits::default()),
                &no_cancel(),
                &|_| {},
            );
            assert!(!r.ok, "{r:?}");
            assert!(running_now(server), "a failing figure ended the server");
        }
        let r = pool.submit(
            &request(&f, "fine", STANDARD, Limits::default()),
            &no_cancel(),
            &|_| {},
        );
        assert!(r.ok, "{r:?}");
        assert_eq!(pool.warm_pid(), Some(server));
    }

    fn killed_worker_is_replaced() {
        let f = folders();
        let (pool, pid) = ready_pool(&f, &Limits::default());
        a_figure_after_killing(&pool, &f, pid);
        assert!(pool.wait_ready(READY), "the dead worker was not replaced");
        assert_ne!(pool.warm_pid(), Some(pid));
    }

    fn folder_change_discards() {
        let f = folders();
        let (pool, pid) = ready_pool(&f, &Limits::default());
        let other = f.root.join("other-src");
        std::fs::create_dir(&other).expect("mkdir");
        pool.prepare(&other, &f.figures, &Limits::default())
            .expect("prepare");
        assert!(!alive(pid), "the worker for the old folder was kept");
        assert!(pool.wait_ready(READY));
        let new_pid = pool.warm_pid().expect("a worker for the new folder");
        assert_ne!(new_pid, pid);
        // A submit for the new folder runs on it.
        let mut req = request(
            &f,
            "other",
            "plt.plot([1, 2]); plt.title(SRC); plt.savefig(OUT)\n",
            Limits::default(),
        );
        req.src = other.clone();
        let r = pool.submit(&req, &no_cancel(), &|_| {});
        assert!(r.ok, "{r:?}");
        assert!(
            running_now(new_pid),
            "the server for the new folder must stay"
        );
        // A settings change discards too.
        assert!(pool.wait_ready(READY));
        let pid3 = pool.warm_pid().expect("worker");
        let limits = Limits {
            timeout: Duration::from_secs(30),
            ..Limits::default()
        };
        pool.prepare(&other, &f.figures, &limits).expect("prepare");
        assert!(!alive(pid3), "the worker for the old limits was kept");
    }

    fn timeout_from_submit() {
        let f = folders();
        let limits = Limits {
            timeout: Duration::from_secs(2),
            ..Limits::default()
        };
        let (pool, pid) = ready_pool(&f, &limits);
        // Idle longer than the limit: the clock has not started.
        std::thread::sleep(Duration::from_secs(3));
        assert!(running_now(pid), "an idle warm worker was stopped");
        let r = pool.submit(
            &request(&f, "quick", STANDARD, limits),
            &no_cancel(),
            &|_| {},
        );
        assert!(r.ok, "idle time counted against the limit: {r:?}");
        assert!(pool.wait_ready(READY));
        let pid = pool.warm_pid().expect("worker");
        let r = pool.submit(
            &request(&f, "loop", "while True:\n    pass\n", limits),
            &no_cancel(),
            &|_| {},
        );
        assert_eq!(r.stage, Outcome::Timeout, "{r:?}");
        assert!(
            live_children(pid).is_empty(),
            "the timed-out child survived"
        );
        assert!(running_now(pid), "a time-out ended the server");
        assert!(!f.figures.join("loop.png").exists());
    }

    fn warm_worker_is_confined() {
        let f = folders();
        let outside = f.root.join("outside");
        std::fs::create_dir(&outside).expect("mkdir");
        let target = outside.join("escaped.svg");
        let (pool, _) = ready_pool(&f, &Limits::default());
        // Layer 1 lets a path through to matplotlib's writer (plt.savefig itself would be
        // captured into the run directory); Layer 2 must stop the write.
        let code = format!(
            "plt.plot([1, 2])\nplt.gcf().canvas.print_figure({:?})\n",
            target.display().to_string()
        );
        let r = pool.submit(
            &request(&f, "escape", &code, Limits::default()),
            &no_cancel(),
            &|_| {},
        );
        assert!(!r.ok, "{r:?}");
        assert!(
            !target.exists(),
            "the warm worker wrote outside its run directory"
        );
        // Refused by the run-time guard before Layer 2 is met (`[guard-open]`) or by Layer 2
        // itself; the suites that prove Layer 2 alone run it with the guard unarmed
        // (PDFAGENT_LAYER2_VIA=fork-server). The file not written is the proof here.
        assert!(
            r.stderr_tail.contains("Permission")
                || r.stderr_tail.contains("denied")
                || r.stderr_tail.contains("[guard-open]"),
            "{r:?}"
        );
        // The source folder is read-only too.
        let into_src = f.src.join("written.svg");
        let code = format!(
            "plt.plot([1, 2])\nplt.gcf().canvas.print_figure({:?})\n",
            into_src.display().to_string()
        );
        assert!(pool.wait_ready(READY));
        let r = pool.submit(
            &request(&f, "escape2", &code, Limits::default()),
            &no_cancel(),
            &|_| {},
        );
        assert!(!r.ok, "{r:?}");
        assert!(
            !into_src.exists(),
            "the warm worker wrote into the source folder"
        );
    }

    fn cancel_stops_a_warm_run() {
        let f = folders();
        let (pool, pid) = ready_pool(&f, &Limits::default());
        let cancel = no_cancel();
        let flag = Arc::clone(&cancel);
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(500));
            flag.store(true, Ordering::SeqCst);
        });
        let r = pool.submit(
            &request(&f, "spin", "while True:\n    pass\n", Limits::default()),
            &cancel,
            &|_| {},
        );
        assert_eq!(r.stage, Outcome::Run, "{r:?}");
        assert!(r.hint.as_deref().unwrap_or("").contains("cancel"), "{r:?}");
        assert!(
            live_children(pid).is_empty(),
            "the cancelled child survived"
        );
        assert!(running_now(pid), "a cancel ended the server");
    }

    fn shutdown_leaves_nothing() {
        let f = folders();
        let (pool, idle) = ready_pool(&f, &Limits::default());
        // The worker's run directory is its HOME (its working directory is SRC).
        let idle_dir = env_var(idle, "HOME")
            .map(PathBuf::from)
            .expect("the worker's HOME");
        assert!(
            idle_dir.join(".pdfagent-warm-ready").is_file(),
            "{idle_dir:?}"
        );
        // A figure, then shutdown at once: the replacement is being spawned right then.
        let r = pool.submit(
            &request(&f, "last", STANDARD, Limits::default()),
            &no_cancel(),
            &|_| {},
        );
        assert!(r.ok, "{r:?}");
        assert!(
            pool.shutdown(Duration::from_secs(30)),
            "spawns did not finish"
        );
        assert_eq!(pool.warm_pid(), None, "a worker is kept after shutdown");
        assert!(!alive(idle));
        assert!(
            !idle_dir.exists(),
            "the run directory {idle_dir:?} was left behind"
        );
        // Nothing is started any more; figures still run (cold).
        pool.prepare(&f.src, &f.figures, &Limits::default())
            .expect("prepare");
        let r = pool.submit(
            &request(&f, "after", STANDARD, Limits::default()),
            &no_cancel(),
            &|_| {},
        );
        assert!(r.ok, "{r:?}");
        std::thread::sleep(Duration::from_millis(500));
        assert_eq!(pool.warm_pid(), None, "a worker was started after shutdown");
        assert!(!pool.wait_ready(Duration::from_secs(1)));
    }

    /// Poll `found` until it gives a value, at most 30 s.
    fn wait_for<T>(mut found: impl FnMut() -> Option<T>, what: &str) -> T {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            if let Some(value) = found() {
                return value;
            }
            assert!(Instant::now() < deadline, "gave up waiting for {what}");
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    fn a_child_waits_confined_for_the_next_figure() {
        let f = folders();
        let (pool, server) = ready_pool(&f, &Limits::default());
        let spare = wait_for(
            || spares_of(server).first().copied(),
            "a child forked ahead",
        );
        // Confined before any figure came: the worker's filter on the server's.
        wait_for(
            || (status_field(spare, "Seccomp_filters").as_deref() == Some("2")).then_some(()),
            "the waiting child's own seccomp filter",
        );
        assert_eq!(status_field(spare, "NoNewPrivs").as_deref(), Some("1"));
        assert!(!took_a_figure(spare));
        let pool = Arc::new(pool);
        let slow = format!("import time\ntime.sleep(1)\n{STANDARD}");
        let (seen, r) = child_running(
            &pool,
            server,
            request(&f, "ahead", &slow, Limits::default()),
        );
        assert!(r.ok, "{r:?}");
        let seen = seen.expect("the figure ran in a child of the server");
        assert_eq!(
            seen.pid, spare,
            "the figure did not run in the child forked ahead"
        );
        assert!(!alive(spare), "the child that ran code is still alive");
        let next = wait_for(
            || spares_of(server).first().copied(),
            "the next figure's child, forked ahead",
        );
        assert_ne!(next, spare);
        // One killed while it waits: the next figure is made all the same.
        a_figure_after_killing(&pool, &f, next);
        assert!(running_now(server), "a killed child ended the server");
    }

    /// Pasted after `fork_server.py`: reads the host's lines with the server's own
    /// `_pdfagent_serve_message` and prints what it understood, then writes one reply of each
    /// kind with the server's own `_pdfagent_serve_reply`.
    const PROTOCOL_DRIVER: &str = r#"
def _pdfagent_protocol_driver():
    import json
    import sys

    for line in sys.stdin:
        if not line.strip():
            continue
        kind, rid, fork = _pdfagent_serve_message(line)
        understood = {"kind": kind, "id": rid}
        if fork is not None:
            run_dir, plan, request_file, draw = fork
            understood.update(
                run_dir=run_dir, plan=json.loads(plan), request_file=request_file, draw=draw
            )
        sys.stdout.write(json.dumps(understood) + "\n")
    for rid, key, value in ((1, "pid", 4242), (2, "exit", -9), (3, "error", "could not fork")):
        sys.stdout.write(_pdfagent_serve_reply(rid, key, value).decode("utf-8"))


_pdfagent_protocol_driver()
"#;

    /// The host's messages, as `protocol.rs` writes them, read by the real `fork_server.py`
    /// in the bundled runtime (this binary is its own worker, here unconfined); its replies,
    /// as the server writes them, read back by `protocol.rs`.
    fn the_fork_server_protocol_round_trips() {
        use python_runtime::test_support::ConfinePlan;
        use python_runtime::test_support::{ForkRequest, HostMessage, ServerReply};
        use std::io::Write;
        use std::process::{Command, Stdio};

        let f = folders();
        let script = f.root.join("protocol.py");
        let text = format!(
            "{}\n\n{PROTOCOL_DRIVER}",
            python_runtime::test_support::FORK_SERVER
        );
        std::fs::write(&script, text).expect("write the driver");
        let run_dir = f.root.join("runs").join("r \u{e9}");
        let plan = ConfinePlan {
            read_only: vec![f.src.clone()],
            code: vec![],
            executable: std::path::PathBuf::new(),
            runtime: std::path::PathBuf::new(),
            read_write: vec![run_dir.clone()],
            memory_bytes: 1 << 30,
            cpu_seconds: 60,
            file_size_bytes: 1 << 20,
            wall_clock_ms: 0,
            role: Default::default(),
            landlock_scopes: true,
            library_bytes: None,
        };
        let fork = ForkRequest::new(5, &run_dir, &plan, true);
        let sent = [
            HostMessage::Fork(fork.clone()),
            HostMessage::Go { go: 5 },
            HostMessage::Kill { kill: 6 },
        ];
        let mut child = Command::new(std::env::current_exe().expect("this test binary"))
            .env_clear()
            .env("PDFAGENT_PYRUN", &script)
            .current_dir(&f.root)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start the worker");
        {
            let mut stdin = child.stdin.take().expect("its stdin");
            for message in &sent {
                let line = message.to_line().expect("a message as a line");
                stdin.write_all(line.as_bytes()).expect("write a message");
            }
        }
        let out = child.wait_with_output().expect("the worker's output");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "the driver failed: {}\n{stdout}",
            String::from_utf8_lossy(&out.stderr)
        );
        let lines: Vec<&str> = stdout.lines().collect();
        assert_eq!(lines.len(), 6, "{stdout}");
        let read: Vec<serde_json::Value> = lines[..3]
            .iter()
            .map(|l| serde_json::from_str(l).expect("what the server understood"))
            .collect();
        assert_eq!(read[0]["kind"], "fork");
        assert_eq!(read[0]["id"], 5);
        assert_eq!(read[0]["run_dir"], fork.run_dir.as_str());
        assert_eq!(read[0]["request_file"], fork.request_file.as_str());
        assert_eq!(read[0]["draw"], true);
        let plan_read: ConfinePlan =
            serde_json::from_value(read[0]["plan"].clone()).expect("the plan the child applies");
        assert_eq!(plan_read, plan);
        assert_eq!(read[1], serde_json::json!({"kind": "go", "id": 5}));
        assert_eq!(read[2], serde_json::json!({"kind": "kill", "id": 6}));
        let replies: Vec<Option<ServerReply>> =
            lines[3..].iter().map(|l| ServerReply::parse(l)).collect();
        assert_eq!(
            replies,
            [
                Some(ServerReply::Forked { id: 1, pid: 4242 }),
                Some(ServerReply::Exited { id: 2, exit: -9 }),
                Some(ServerReply::Failed {
                    id: 3,
                    error: "could not fork".into()
                }),
            ]
        );
    }

    pub fn main() {
        if let Some(code) = python_runtime::run_if_requested() {
            std::process::exit(code);
        }
        if let Err(err) = python_runtime::test_support::runtime_dir() {
            eprintln!("warm: FAILED before any case: {err}");
            std::process::exit(1);
        }
        let cases: [(&str, fn()); 14] = [
            (
                "the_fork_server_protocol_round_trips",
                the_fork_server_protocol_round_trips,
            ),
            ("the_format_is_chosen_at_submit", format_chosen_at_submit),
            (
                "a_submit_while_warming_up_uses_that_worker",
                submit_while_warming,
            ),
            (
                "warm_figure_equals_cold_figure",
                warm_figure_equals_cold_figure,
            ),
            ("a_process_that_ran_code_is_never_reused", never_reused),
            ("figures_run_side_by_side", parallel_figures),
            (
                "a_child_waits_confined_for_the_next_figure",
                a_child_waits_confined_for_the_next_figure,
            ),
            (
                "a_failing_figure_leaves_the_server_serving",
                a_failing_figure_leaves_the_server_serving,
            ),
            (
                "a_killed_warm_worker_is_replaced",
                killed_worker_is_replaced,
            ),
            (
                "a_folder_change_discards_the_warm_worker",
                folder_change_discards,
            ),
            (
                "time_limit_counts_from_submit_and_kills_the_group",
                timeout_from_submit,
            ),
            ("the_warm_worker_is_confined", warm_worker_is_confined),
            ("cancel_stops_a_warm_run", cancel_stops_a_warm_run),
            (
                "shutdown_kills_the_warm_worker_and_starts_no_other",
                shutdown_leaves_nothing,
            ),
        ];
        let filter: Vec<String> = std::env::args()
            .skip(1)
            .filter(|a| !a.starts_with('-'))
            .collect();
        let mut failed = Vec::new();
        for (name, case) in cases {
            if !filter.is_empty() && !filter.iter().any(|f| name.contains(f.as_str())) {
                continue;
            }
            let t = Instant::now();
            match std::panic::catch_unwind(case) {
                Ok(()) => println!("test {name} ... ok ({:.1} s)", t.elapsed().as_secs_f64()),
                Err(_) => {
                    println!("test {name} ... FAILED");
                    failed.push(name);
                }
            }
        }
        if failed.is_empty() {
            println!("warm: all cases passed");
        } else {
            println!("warm: FAILED: {}", failed.join(", "));
            std::process::exit(1);
        }
    }
}
