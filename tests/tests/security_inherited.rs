//! Layer 2, what a worker inherits from whoever started it (issue 27): no administrator
//! rights (capabilities) even when started as root, no descriptor it was not handed, no file
//! beside the executable; and a host started under a small file-size limit survives writing
//! a figure past it (SIGXFSZ ignored) with an error that says so.
//!
//! Runs on the cold path and, with `PDFAGENT_LAYER2_VIA=fork-server`, as fork-server
//! children (scripts/test), except the copied executable's case, which starts the copy
//! itself.

#![cfg(target_os = "linux")] // Capabilities, /proc and descriptors as Linux has them.

mod security_support;

use blackbox::prepared::PrepareRun;
use security_support::{Sandbox, limit_file_size, run_bounded};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

/// The `Cap*` lines of a `/proc/PID/status` text, as (name, value) pairs.
fn capability_sets(status: &str) -> Vec<(String, u64)> {
    status
        .lines()
        .filter(|l| l.starts_with("Cap"))
        .filter_map(|l| {
            let (name, value) = l.split_once(':')?;
            Some((name.to_owned(), u64::from_str_radix(value.trim(), 16).ok()?))
        })
        .collect()
}

fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

#[test]
fn a_worker_keeps_no_capabilities_even_when_started_by_root() {
    let own = std::fs::read_to_string("/proc/self/status").expect("read this test's status");
    let own_effective = capability_sets(&own)
        .into_iter()
        .find(|(n, _)| n == "CapEff")
        .map(|(_, v)| v)
        .expect("CapEff in /proc/self/status");
    if is_root() {
        // Not vacuous: the process starting the worker has capabilities to hand on.
        assert_ne!(own_effective, 0, "root without capabilities proves nothing");
    }
    let sb = Sandbox::new("caps");
    let owned = sb.run.join("owned-by-worker.txt");
    let (ready, done) = (sb.run.join("ready"), sb.run.join("done"));
    // The worker tries a privileged call, says it is there (its pid, in its run directory)
    // and waits, so that the test reads its capabilities from outside, in /proc/PID/status.
    let code = format!(
        "import posix, time\n\
         path = {owned}\n\
         posix.close(posix.open(path, posix.O_WRONLY | posix.O_CREAT, 0o600))\n\
         try:\n\
         \x20   posix.chown(path, 1, 1)\n\
         \x20   print('CHOWN SUCCEEDED')\n\
         except OSError as e:\n\
         \x20   print('chown refused:', e)\n\
         fd = posix.open({ready} + '.tmp', posix.O_WRONLY | posix.O_CREAT, 0o600)\n\
         posix.write(fd, str(posix.getpid()).encode())\n\
         posix.close(fd)\n\
         posix.rename({ready} + '.tmp', {ready})\n\
         for _ in range(1200):\n\
         \x20   try:\n\
         \x20       posix.stat({done})\n\
         \x20       break\n\
         \x20   except OSError:\n\
         \x20       time.sleep(0.05)\n",
        owned = Sandbox::py(&owned),
        ready = Sandbox::py(&ready),
        done = Sandbox::py(&done),
    );
    let (run, status) = std::thread::scope(|scope| {
        let worker = scope.spawn(|| sb.worker(&code));
        let started = std::time::Instant::now();
        let pid = loop {
            if let Ok(pid) = std::fs::read_to_string(&ready) {
                break pid;
            }
            assert!(
                started.elapsed() < Duration::from_secs(60) && !worker.is_finished(),
                "the worker never said it was ready"
            );
            std::thread::sleep(Duration::from_millis(20));
        };
        let status = std::fs::read_to_string(format!("/proc/{}/status", pid.trim()))
            .expect("read the worker's status from outside");
        std::fs::write(&done, "").unwrap();
        (worker.join().expect("the worker's thread"), status)
    });
    let out = run.stdout();
    println!("{status}\n{out}\n{}", run.stderr());
    assert!(run.status.success(), "{}", run.output());
    assert!(
        status.contains("Name:\tpdfagent"),
        "not the worker: {status}"
    );
    let sets = capability_sets(&status);
    let names: Vec<&str> = sets.iter().map(|(n, _)| n.as_str()).collect();
    for needed in ["CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb"] {
        assert!(names.contains(&needed), "{needed} missing from {status}");
    }
    for (name, value) in &sets {
        // A plain user's bounding set is full and cannot be emptied without CAP_SETPCAP;
        // it only caps what an execve could gain, and execve is denied.
        if name == "CapBnd" && !is_root() {
            continue;
        }
        assert_eq!(*value, 0, "{name} is {value:016x} inside the worker");
    }
    // The effect, read from outside: the file the worker made is still the test's user's.
    assert!(out.contains("chown refused"), "{out}");
    use std::os::unix::fs::MetadataExt;
    let meta = std::fs::metadata(&owned).expect("the worker created its file");
    // SAFETY: getuid has no preconditions.
    let me = unsafe { libc::getuid() };
    assert_eq!(meta.uid(), me, "the file was given away");
}

/// The secret of `sb`, open in this test process at descriptor 900 or above without
/// close-on-exec: every process this test binary starts from now on inherits it (as a
/// shell's redirection or an IDE's pipe would hand it on). Closed by the guard.
struct Inherited(i32);

impl Inherited {
    fn open(path: &Path) -> Inherited {
        use std::os::fd::AsRawFd;
        let file = std::fs::File::open(path).expect("open the secret");
        // SAFETY: F_DUPFD on a descriptor we own; the copy (without close-on-exec) is owned
        // by the guard and closed on drop.
        let fd = unsafe { libc::fcntl(file.as_raw_fd(), libc::F_DUPFD, 900) };
        assert!(
            fd >= 900,
            "dup the secret: {}",
            std::io::Error::last_os_error()
        );
        Inherited(fd)
    }
}

impl Drop for Inherited {
    fn drop(&mut self) {
        // SAFETY: closes the descriptor this guard owns, once.
        unsafe { libc::close(self.0) };
    }
}

#[test]
fn a_descriptor_the_launcher_holds_open_is_unreadable_in_the_worker() {
    let sb = Sandbox::new("fd");
    let inherited = Inherited::open(&sb.outside.join("secret.txt"));
    let fd = inherited.0;
    // Not vacuous: a process this test starts does get the descriptor, and it is readable.
    let seen = Command::new("cat")
        .arg(format!("/proc/self/fd/{fd}"))
        .output()
        .expect("run cat");
    assert_eq!(String::from_utf8_lossy(&seen.stdout), sb.secret);
    let code = format!(
        "import posix\n\
         try:\n\
         \x20   posix.lseek({fd}, 0, 0)\n\
         \x20   print('READ:', posix.read({fd}, 4096))\n\
         except OSError as e:\n\
         \x20   print('read refused: errno', e.errno)\n\
         import matplotlib.pyplot as plt\n\
         plt.plot([1, 2])\n\
         plt.savefig(OUT)\n"
    );
    let run = sb.worker(&code);
    drop(inherited);
    println!("{}\n{}", run.stdout(), run.stderr());
    assert!(run.status.success(), "{}", run.output());
    assert!(
        run.stdout()
            .contains(&format!("read refused: errno {}", libc::EBADF)),
        "{}",
        run.output()
    );
    assert!(!run.output().contains(&sb.secret), "the secret leaked");
    // Nor in anything the worker wrote.
    let mut leaked = Vec::new();
    for (path, bytes) in walk(&sb.run).into_iter().chain(walk(&sb.figures)) {
        if String::from_utf8_lossy(&bytes).contains(&sb.secret) {
            leaked.push(path);
        }
    }
    assert!(leaked.is_empty(), "the secret is in {leaked:?}");
}

fn walk(dir: &Path) -> Vec<(std::path::PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else if let Ok(bytes) = std::fs::read(&path) {
            out.push((path, bytes));
        }
    }
    out
}

#[test]
fn a_file_beside_a_copied_executable_is_unreadable() {
    let sb = Sandbox::new("beside");
    let app = sb.root.path().canonicalize().unwrap().join("app");
    std::fs::create_dir(&app).unwrap();
    let exe = app.join("pdfagent");
    std::fs::copy(blackbox::pdfagent_bin(), &exe).expect("copy the executable");
    // The portable layout: the runtime beside the executable (a link to the build's).
    let runtime = blackbox::workspace_root().join("python-runtime/dist");
    std::os::unix::fs::symlink(&runtime, app.join("runtime")).expect("link the runtime");
    let beside = app.join("secret.csv");
    std::fs::write(&beside, format!("a,b\n{},1\n", sb.secret)).unwrap();
    let code_file = sb.inputs().join("beside.py");
    std::fs::write(
        &code_file,
        format!(
            "import pandas as pd\n\
             try:\n\
             \x20   print('READ:', pd.read_csv({}).to_string())\n\
             except OSError as e:\n\
             \x20   print('read refused:', type(e).__name__, e.errno)\n\
             import matplotlib.pyplot as plt\n\
             plt.plot([1, 2])\n\
             plt.savefig(OUT)\n",
            Sandbox::py(&beside)
        ),
    )
    .unwrap();
    // Layer 2 alone, as in every other suite of it: the run-time guard unarmed.
    let env = PrepareRun::with_exe(&exe, &sb.src)
        .request(&sb.run, &code_file)
        .prepare(false)
        .env;
    // The plan names the copy itself and the runtime, never the folder they are in.
    let plan: serde_json::Value = serde_json::from_str(&env["PDFAGENT_CONFINE"]).unwrap();
    let read_only: Vec<&str> = plan["read_only"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|p| p.as_str())
        .collect();
    assert!(read_only.contains(&exe.to_str().unwrap()), "{read_only:?}");
    assert!(!read_only.contains(&app.to_str().unwrap()), "{read_only:?}");
    let run = run_bounded(
        Command::new(&exe)
            .env_clear()
            .envs(&env)
            .current_dir(&sb.run)
            .stdin(Stdio::null()),
        Duration::from_secs(120),
    );
    println!("{}\n{}", run.stdout(), run.stderr());
    assert!(run.status.success(), "{}", run.output());
    assert!(
        run.stdout().contains("read refused: PermissionError 13"),
        "{}",
        run.output()
    );
    assert!(!run.output().contains(&sb.secret), "the secret leaked");
}

#[test]
fn a_host_under_a_small_file_size_limit_fails_with_a_sentence_not_sigxfsz() {
    let sb = Sandbox::new("xfsz");
    // Bigger than anything the host writes before the figure (the run directory's font
    // cache is ~28 KiB), smaller than the figure: random pixels do not compress.
    const HOST_LIMIT: u64 = 256 << 10;
    let code = "import numpy as np\n\
                import matplotlib.pyplot as plt\n\
                rng = np.random.default_rng(0)\n\
                plt.imshow(rng.random((900, 900)))\n\
                plt.savefig(OUT, dpi=200)\n";
    let mut cmd = sb.make_figure_command("big", code, &[]);
    // Only the soft limit is lowered, so the worker may still set its own (higher) limit
    // below the unlimited hard one.
    limit_file_size(&mut cmd, HOST_LIMIT);
    let run = run_bounded(&mut cmd, Duration::from_secs(180));
    println!("{}\n{}", run.stdout(), run.stderr());
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(
        run.status.signal(),
        None,
        "the host was killed by a signal: {}",
        run.output()
    );
    let json: serde_json::Value = serde_json::from_slice(&run.stdout)
        .unwrap_or_else(|e| panic!("the host printed no JSON ({e}): {}", run.output()));
    assert_eq!(json["ok"], false, "{json}");
    let text = json.to_string();
    assert!(
        text.contains("too large") || text.contains("File too large"),
        "the error must say the file was too large: {json}"
    );
    // Not vacuous: the worker drew a figure bigger than the host's limit.
    assert!(!sb.figures.join("big.png").exists());
    let stray: Vec<String> = std::fs::read_dir(&sb.figures)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert!(stray.is_empty(), "left in the figures folder: {stray:?}");
}
