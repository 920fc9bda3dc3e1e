//! Shared set-up for the Layer-2 security suites (`security_*.rs`).
//!
//! Layer 1 is bypassed without any switch in the shipped executable: the test asks the
//! hidden `pdfagent internal-prepare-run` for the worker script (preamble + the attack code,
//! unchecked) and the exact environment the runner would give the worker, then starts the
//! real executable in worker mode itself — `env -i PDFAGENT_PYRUN=… PDFAGENT_CONFINE=…` —
//! the way the runner does. So the attacks meet only Layer 2 (and the attacks go around the
//! preamble's Python-level guard on purpose: `posix`, `_socket`, `importlib.reload`).
//!
//! Each test then proves the effect did not happen, from outside the worker.
//!
//! The run-time guard (`python-runtime/worker/guard.py`, issue #40) is a tripwire in front
//! of Layer 2: these suites prove the wall alone, so a [`Sandbox::new`] runs the worker
//! script with the guard left unarmed (its one arming line replaced, see
//! [`blackbox::prepared::disarm_guard`]); `security_guard.rs` proves the guard with
//! [`Sandbox::guarded`].

#![allow(dead_code)]

use blackbox::prepared::PrepareRun;
use blackbox::procfs;
use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// A secret the attacks try to exfiltrate; unique per sandbox.
pub fn secret_token(tag: &str) -> String {
    format!("PDFAGENT-SECRET-{tag}-{}-7f3a9c", std::process::id())
}

/// A fresh set of folders: `src/` (the data), `outside/` (with `secret.txt`/`secret.csv`
/// and `victim.txt`, all outside SRC), `run/` (the worker's run directory) and
/// `figures/`. Everything lives under one temporary root, removed on drop.
pub struct Sandbox {
    pub root: tempfile::TempDir,
    pub src: PathBuf,
    pub outside: PathBuf,
    pub run: PathBuf,
    pub figures: PathBuf,
    pub secret: String,
    /// Whether the worker runs with the run-time guard armed (see the module docs).
    pub guard: bool,
}

impl Sandbox {
    pub fn new(tag: &str) -> Sandbox {
        let root = tempfile::Builder::new()
            .prefix(&format!("pdfagent-sec-{tag}-"))
            .tempdir()
            .expect("create a temporary folder for the test");
        let real = root.path().canonicalize().expect("resolve the temp folder");
        let src = real.join("src");
        let outside = real.join("outside");
        let run = real.join("run");
        let figures = real.join("figures");
        for d in [&src, &outside, &run, &figures] {
            std::fs::create_dir(d).expect("create a test folder");
        }
        let secret = secret_token(tag);
        std::fs::write(outside.join("secret.txt"), &secret).unwrap();
        std::fs::write(outside.join("secret.csv"), format!("a,b\n{secret},1\n")).unwrap();
        std::fs::write(outside.join("victim.txt"), "original").unwrap();
        std::fs::write(src.join("data.csv"), "x,y\n1,2\n2,4\n3,9\n").unwrap();
        Sandbox {
            root,
            src,
            outside,
            run,
            figures,
            secret,
            guard: false,
        }
    }

    /// A sandbox whose workers run with the run-time guard armed, as shipped.
    pub fn guarded(tag: &str) -> Sandbox {
        Sandbox {
            guard: true,
            ..Sandbox::new(tag)
        }
    }

    /// `path` as a Python string literal.
    pub fn py(path: &Path) -> String {
        let s = path.to_str().expect("test paths are UTF-8");
        format!("{s:?}")
    }

    /// Every file under the sandbox except the run directory, with its content: a snapshot
    /// to prove that nothing outside the run directory changed.
    pub fn snapshot(&self) -> BTreeMap<PathBuf, Vec<u8>> {
        let mut files = BTreeMap::new();
        let root = self.src.parent().expect("src has a parent").to_path_buf();
        let skip = [
            self.run.clone(),
            root.join("runs"),
            root.join("inputs"),
            self.data_home(),
        ];
        snapshot_into(&root, &skip, &mut files);
        files
    }

    /// Run `code` in the real executable's worker mode, Layer 1 bypassed.
    pub fn worker(&self, code: &str) -> WorkerRun {
        self.worker_with(code, &[])
    }

    pub fn worker_with(&self, code: &str, extra_args: &[&str]) -> WorkerRun {
        self.worker_with_env(code, extra_args, |_| {})
    }

    /// As [`Sandbox::worker_with`], with a chance to edit the worker's environment first.
    ///
    /// With `PDFAGENT_LAYER2_VIA=fork-server` (scripts/test runs the suites once more so)
    /// the code runs instead as a child of a fork server started the way the window's and
    /// the MCP server's pool starts one — in this sandbox's run directory, confined by its
    /// own plan on top of the server's — and `edit` applies to the server's environment.
    pub fn worker_with_env(
        &self,
        code: &str,
        extra_args: &[&str],
        edit: impl FnOnce(&mut BTreeMap<String, String>),
    ) -> WorkerRun {
        #[cfg(target_os = "linux")]
        if via_fork_server() {
            return self.worker_via_fork_server(code, extra_args, edit);
        }
        let code_file = self.inputs().join("attack.py");
        std::fs::write(&code_file, code).unwrap();
        let mut env = PrepareRun::new(&self.src)
            .request(&self.run, &code_file)
            .args(extra_args)
            .prepare(self.guard)
            .env;
        edit(&mut env);
        let mut cmd = blackbox::pdfagent();
        cmd.env_clear()
            .envs(&env)
            .current_dir(&self.run)
            .stdin(Stdio::null());
        run_bounded(&mut cmd, Duration::from_secs(120))
    }

    /// Linux: prepare a fork server in `runs/fork-server-N/` of this sandbox with one request per
    /// `(run directory, code)`, and start it (nothing is sent yet).
    #[cfg(target_os = "linux")]
    pub fn fork_server(
        &self,
        runs: &[(&Path, &str)],
        extra_args: &[&str],
        edit: impl FnOnce(&mut BTreeMap<String, String>),
    ) -> StartedServer {
        let server_dir = tempfile::Builder::new()
            .prefix("fork-server-")
            .tempdir_in({
                std::fs::create_dir_all(self.runs_dir()).unwrap();
                self.runs_dir()
            })
            .expect("a folder for the fork server")
            .keep();
        let mut prepare = PrepareRun::new(&self.src).fork_server(&server_dir);
        for (i, (run_dir, code)) in runs.iter().enumerate() {
            let code_file = self.inputs().join(format!("attack-{i}.py"));
            std::fs::write(&code_file, code).unwrap();
            prepare = prepare.request(run_dir, &code_file);
        }
        let blackbox::prepared::Prepared {
            json: prepared,
            mut env,
        } = prepare.args(extra_args).prepare(self.guard);
        edit(&mut env);
        let mut cmd = blackbox::pdfagent();
        cmd.env_clear()
            .envs(&env)
            .current_dir(&server_dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        {
            use std::os::unix::process::CommandExt;
            cmd.process_group(0);
        }
        let mut child = cmd.spawn().expect("start the fork server");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("piped stdout");
        let mut stderr = child.stderr.take().expect("piped stderr");
        let (tx, replies) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            use std::io::BufRead;
            for line in std::io::BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if let Ok(reply) = serde_json::from_str::<serde_json::Value>(&line)
                    && tx.send(reply).is_err()
                {
                    break;
                }
            }
        });
        let stderr_reader = std::thread::spawn(move || {
            let mut buf = Vec::new();
            let _ = stderr.read_to_end(&mut buf);
            buf
        });
        StartedServer {
            child,
            stdin,
            replies,
            seen: Vec::new(),
            requests: prepared["requests"].as_array().expect("requests").clone(),
            stderr_reader: Some(stderr_reader),
        }
    }

    #[cfg(target_os = "linux")]
    fn worker_via_fork_server(
        &self,
        code: &str,
        extra_args: &[&str],
        edit: impl FnOnce(&mut BTreeMap<String, String>),
    ) -> WorkerRun {
        let limit = Duration::from_secs(120);
        let started = Instant::now();
        let mut server = self.fork_server(&[(&self.run, code)], extra_args, edit);
        server.send(0);
        let pid = server
            .reply(1, "pid", limit)
            .and_then(|r| r["pid"].as_u64())
            .expect("the fork server forked a child for the code") as u32;
        let mut peak_rss_kib = None;
        let mut killed_by_test = false;
        let exit = loop {
            if let Some(hwm) = vm_hwm_kib(pid) {
                peak_rss_kib = Some(hwm);
            }
            if let Some(reply) = server.reply(1, "exit", Duration::from_millis(20)) {
                break reply["exit"].as_i64().unwrap_or(-9);
            }
            if started.elapsed() > limit {
                killed_by_test = true;
                server.kill(1);
                break server
                    .reply(1, "exit", Duration::from_secs(10))
                    .and_then(|r| r["exit"].as_i64())
                    .unwrap_or(-9);
            }
        };
        let request = server.requests[0].clone();
        let server_err = server.close();
        let file = |key: &str| std::fs::read(request[key].as_str().unwrap()).unwrap_or_default();
        let mut stderr = file("stderr");
        stderr.extend_from_slice(&server_err);
        use std::os::unix::process::ExitStatusExt;
        let raw = if exit >= 0 {
            (exit as i32) << 8
        } else {
            -exit as i32
        };
        WorkerRun {
            status: ExitStatus::from_raw(raw),
            stdout: file("stdout"),
            stderr,
            elapsed: started.elapsed(),
            killed_by_test,
            pid,
            peak_rss_kib,
        }
    }

    /// `pdfagent make-figure --json` with `code`, run directories under `runs/` of this
    /// sandbox (via `TMPDIR`), so a test can see that they are removed.
    pub fn make_figure(&self, name: &str, code: &str, extra_args: &[&str]) -> FigureRun {
        let mut cmd = self.make_figure_command(name, code, extra_args);
        let run = run_bounded(&mut cmd, Duration::from_secs(180));
        let json = serde_json::from_slice(&run.stdout).unwrap_or_else(|e| {
            panic!(
                "make-figure did not print one JSON object ({e}): stdout {:?} stderr {:?}",
                String::from_utf8_lossy(&run.stdout),
                String::from_utf8_lossy(&run.stderr)
            )
        });
        FigureRun { run, json }
    }

    /// The command [`Sandbox::make_figure`] runs, not started: for a test that starts it its
    /// own way (its stdout a pipe to watch while it runs, a lowered limit of the host's).
    /// The code goes to `inputs/figure.py`, replacing the last one.
    pub fn make_figure_command(&self, name: &str, code: &str, extra_args: &[&str]) -> Command {
        let code_file = self.inputs().join("figure.py");
        std::fs::write(&code_file, code).unwrap();
        let runs = self.runs_dir();
        std::fs::create_dir_all(&runs).unwrap();
        let mut cmd =
            blackbox::make_figure_command(&self.src, name.as_ref(), &code_file, &self.figures);
        cmd.args(extra_args)
            .env("TMPDIR", &runs)
            .env("XDG_DATA_HOME", self.data_home())
            .stdin(Stdio::null());
        cmd
    }

    /// Keep the figures the worker left in this sandbox's run directory, as a figure run
    /// does once its worker has exited (the hidden `internal-collect-run`): the parent's
    /// side of figure capture, under attack from a worker that ran with Layer 1 bypassed.
    pub fn collect(&self, name: &str) -> serde_json::Value {
        self.collect_with(name, &[])
    }

    /// [`Sandbox::collect`] with more arguments (`--code FILE --src DIR`: with records).
    pub fn collect_with(&self, name: &str, extra_args: &[&std::ffi::OsStr]) -> serde_json::Value {
        let out = blackbox::run(
            blackbox::pdfagent()
                .arg("internal-collect-run")
                .arg("--run-dir")
                .arg(&self.run)
                .arg("--figures")
                .arg(&self.figures)
                .arg("--name")
                .arg(name)
                .args(extra_args),
        );
        assert!(
            out.status.success(),
            "internal-collect-run failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).expect("internal-collect-run prints JSON")
    }

    /// The names in the figures folder (hidden bookkeeping files left out), sorted.
    pub fn figure_files(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(&self.figures)
            .map(|entries| {
                entries
                    .flatten()
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .filter(|n| !n.starts_with('.'))
                    .collect()
            })
            .unwrap_or_default();
        names.sort();
        names
    }

    /// Where the test keeps the code files it hands to the executable (not snapshotted).
    pub fn inputs(&self) -> PathBuf {
        let dir = self.src.with_file_name("inputs");
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    pub fn runs_dir(&self) -> PathBuf {
        self.src.with_file_name("runs")
    }

    /// The host's per-user data folder for [`Sandbox::make_figure`] (`XDG_DATA_HOME`): the
    /// input-hash cache goes there, not into the real home (snapshots skip it: the host
    /// writes it, never the code).
    pub fn data_home(&self) -> PathBuf {
        self.src.with_file_name("data-home")
    }
}

fn snapshot_into(dir: &Path, skip: &[PathBuf], files: &mut BTreeMap<PathBuf, Vec<u8>>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if skip.contains(&path) {
            continue;
        }
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_dir() {
            snapshot_into(&path, skip, files);
        } else {
            files.insert(path.clone(), std::fs::read(&path).unwrap_or_default());
        }
    }
}

/// The provenance record of the SVG `figure` edited by `edit`, as an attacker could: only
/// what `edit` changes (a code hash is not recomputed unless `edit` does it).
pub fn forge_svg_record(figure: &Path, edit: impl FnOnce(&mut serde_json::Value)) {
    let text = std::fs::read_to_string(figure).unwrap();
    let open = "<metadata id=\"pdfagent-provenance\">";
    let start = text.find(open).expect("a record") + open.len();
    let end = start + text[start..].find("</metadata>").unwrap();
    let unescaped = text[start..end]
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&");
    let mut record: serde_json::Value = serde_json::from_str(&unescaped).unwrap();
    edit(&mut record);
    let escaped = record
        .to_string()
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;");
    std::fs::write(
        figure,
        format!("{}{escaped}{}", &text[..start], &text[end..]),
    )
    .unwrap();
}

/// Whether this run of the suites sends the attacks through a fork server.
pub fn via_fork_server() -> bool {
    std::env::var("PDFAGENT_LAYER2_VIA").is_ok_and(|v| v == "fork-server")
}

/// A fork server the test started itself (its host is the test), and its prepared requests.
#[cfg(target_os = "linux")]
pub struct StartedServer {
    child: std::process::Child,
    stdin: Option<std::process::ChildStdin>,
    replies: std::sync::mpsc::Receiver<serde_json::Value>,
    /// Replies read while waiting for another one.
    seen: Vec<serde_json::Value>,
    /// What `internal-prepare-run` printed for each request: `id`, `run_dir`, `out`,
    /// `stdout`, `stderr`, `fork`, `go` and `line` (both).
    pub requests: Vec<serde_json::Value>,
    stderr_reader: Option<std::thread::JoinHandle<Vec<u8>>>,
}

#[cfg(target_os = "linux")]
impl StartedServer {
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Write request `index`'s lines to the server: fork its child and start its figure.
    pub fn send(&mut self, index: usize) {
        self.send_part(index, "fork");
        self.send_part(index, "go");
    }

    /// Write one part of request `index`: `fork` (the child forked ahead, waiting) or `go`
    /// (its figure starts).
    pub fn send_part(&mut self, index: usize, part: &str) {
        let line = self.requests[index][part]
            .as_str()
            .expect("a prepared line")
            .to_owned();
        self.write(&line);
    }

    pub fn kill(&mut self, id: u64) {
        self.write(&format!("{{\"kill\": {id}}}\n"));
    }

    fn write(&mut self, line: &str) {
        use std::io::Write;
        let stdin = self.stdin.as_mut().expect("the server's stdin is open");
        stdin
            .write_all(line.as_bytes())
            .expect("write to the fork server");
        stdin.flush().expect("flush to the fork server");
    }

    /// The server's reply to request `id` that has `key` (`pid`, `exit`, `error`), waiting
    /// at most `limit`.
    pub fn reply(&mut self, id: u64, key: &str, limit: Duration) -> Option<serde_json::Value> {
        let matches = |r: &serde_json::Value| r["id"].as_u64() == Some(id) && r.get(key).is_some();
        if let Some(at) = self.seen.iter().position(matches) {
            return Some(self.seen.remove(at));
        }
        let deadline = Instant::now() + limit;
        while let Some(left) = deadline.checked_duration_since(Instant::now()) {
            match self.replies.recv_timeout(left) {
                Ok(reply) if matches(&reply) => return Some(reply),
                Ok(reply) => self.seen.push(reply),
                Err(_) => return None,
            }
        }
        None
    }

    /// Whether the server process is still there (not a zombie).
    pub fn is_running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Close the server's stdin (it ends, and its children with it), wait for it (killing
    /// its group after 20 s) and return what it printed on stderr.
    pub fn close(mut self) -> Vec<u8> {
        drop(self.stdin.take());
        let deadline = Instant::now() + Duration::from_secs(20);
        while matches!(self.child.try_wait(), Ok(None)) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(10));
        }
        // SAFETY: plain syscall on the group of the server this test started.
        unsafe {
            libc::killpg(self.child.id() as libc::pid_t, libc::SIGKILL);
        }
        let _ = self.child.wait();
        self.stderr_reader
            .take()
            .and_then(|r| r.join().ok())
            .unwrap_or_default()
    }
}

#[cfg(target_os = "linux")]
impl Drop for StartedServer {
    fn drop(&mut self) {
        if self.stderr_reader.is_some() {
            // SAFETY: as in `close`.
            unsafe {
                libc::killpg(self.child.id() as libc::pid_t, libc::SIGKILL);
            }
            let _ = self.child.wait();
        }
    }
}

/// A finished process: status, output, how long it took, and whether the test had to kill
/// it (which no run should need: the worker's own limits must end it).
pub struct WorkerRun {
    pub status: ExitStatus,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    pub elapsed: Duration,
    pub killed_by_test: bool,
    pub pid: u32,
    /// The process's peak resident memory (`VmHWM`), in KiB, as last seen while it ran.
    pub peak_rss_kib: Option<u64>,
}

impl WorkerRun {
    pub fn stdout(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }
    pub fn stderr(&self) -> String {
        String::from_utf8_lossy(&self.stderr).into_owned()
    }
    /// Everything the worker printed.
    pub fn output(&self) -> String {
        format!("{}{}", self.stdout(), self.stderr())
    }
    pub fn assert_ended_by_itself(&self) {
        assert!(
            !self.killed_by_test,
            "the run had to be killed by the test after {:?}: the limits did not end it\n{}",
            self.elapsed,
            self.output()
        );
    }
}

pub struct FigureRun {
    pub run: WorkerRun,
    pub json: serde_json::Value,
}

impl FigureRun {
    pub fn exit_code(&self) -> Option<i32> {
        self.run.status.code()
    }
    pub fn stage(&self) -> &str {
        self.json["stage"].as_str().unwrap_or("")
    }
}

/// Run to completion, killing the process (and its group) if it outlives `limit` — a safety
/// net so a broken limit fails the test instead of hanging it.
pub fn run_bounded(cmd: &mut Command, limit: Duration) -> WorkerRun {
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    let started = Instant::now();
    let mut child = cmd
        .spawn()
        .unwrap_or_else(|e| panic!("could not start {:?}: {e}", cmd.get_program()));
    let pid = child.id();
    let mut out_pipe = child.stdout.take().expect("piped stdout");
    let mut err_pipe = child.stderr.take().expect("piped stderr");
    let out_reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = out_pipe.read_to_end(&mut buf);
        buf
    });
    let err_reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = err_pipe.read_to_end(&mut buf);
        buf
    });
    let mut killed_by_test = false;
    let mut peak_rss_kib = None;
    let status = loop {
        if let Some(hwm) = vm_hwm_kib(pid) {
            peak_rss_kib = Some(hwm);
        }
        if let Some(status) = child.try_wait().expect("wait for the process") {
            break status;
        }
        if started.elapsed() > limit {
            killed_by_test = true;
            let _ = child.kill();
            break child.wait().expect("wait for the killed process");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let elapsed = started.elapsed();
    WorkerRun {
        status,
        stdout: out_reader.join().unwrap_or_default(),
        stderr: err_reader.join().unwrap_or_default(),
        elapsed,
        killed_by_test,
        pid,
        peak_rss_kib,
    }
}

fn vm_hwm_kib(pid: u32) -> Option<u64> {
    let value = procfs::status_field(pid, "VmHWM")?;
    value.split_whitespace().next()?.parse().ok()
}

/// Lower `cmd`'s soft limit on file size to `bytes` before it starts: a host that may write
/// only so much. The hard limit stays unlimited, so the worker may still set its own.
#[cfg(unix)]
pub fn limit_file_size(cmd: &mut Command, bytes: u64) {
    use std::os::unix::process::CommandExt;
    // SAFETY: setrlimit is async-signal-safe; the struct lives on the child's stack.
    unsafe {
        cmd.pre_exec(move || {
            let limit = libc::rlimit {
                rlim_cur: bytes,
                rlim_max: libc::RLIM_INFINITY,
            };
            if libc::setrlimit(libc::RLIMIT_FSIZE, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
}

/// A worker's run directory: its `HOME` (the runner sets it to the run directory; the
/// worker's working directory is `SRC`), from the environment it was started with.
pub fn run_dir_of(pid: u32) -> Option<PathBuf> {
    // Between fork and exec a child still shows its parent's environment.
    procfs::env_var(pid, "PDFAGENT_PYRUN")?;
    procfs::env_var(pid, "HOME").map(PathBuf::from)
}

/// Processes whose run directory (`HOME`) or working directory lies under `dir`: a worker
/// or anything it started that is still alive.
pub fn processes_under(dir: &Path) -> Vec<u32> {
    let mut found = Vec::new();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return found;
    };
    for entry in entries.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|s| s.parse::<u32>().ok())
        else {
            continue;
        };
        let cwd = std::fs::read_link(entry.path().join("cwd")).ok();
        if cwd.is_some_and(|c| c.starts_with(dir))
            || run_dir_of(pid).is_some_and(|h| h.starts_with(dir))
        {
            found.push(pid);
        }
    }
    found
}

/// A TCP listener on 127.0.0.1 that records whether anything connected.
pub struct Listener {
    pub port: u16,
    inner: std::net::TcpListener,
}

impl Listener {
    pub fn new() -> Listener {
        let inner = std::net::TcpListener::bind("127.0.0.1:0").expect("bind a local listener");
        inner.set_nonblocking(true).unwrap();
        let port = inner.local_addr().unwrap().port();
        Listener { port, inner }
    }

    /// Whether a connection is waiting (checked after the worker has ended).
    pub fn was_connected(&self) -> bool {
        self.inner.accept().is_ok()
    }
}

/// Assert that nothing in `before` changed and no new file appeared outside the run dir.
pub fn assert_unchanged(sandbox: &Sandbox, before: &BTreeMap<PathBuf, Vec<u8>>, context: &str) {
    let after = sandbox.snapshot();
    for (path, content) in &after {
        match before.get(path) {
            None => panic!(
                "{context}: `{}` was created outside the run directory",
                path.display()
            ),
            Some(old) if old != content => {
                panic!("{context}: `{}` was changed", path.display())
            }
            _ => {}
        }
    }
    for path in before.keys() {
        assert!(
            after.contains_key(path),
            "{context}: `{}` was removed",
            path.display()
        );
    }
}
