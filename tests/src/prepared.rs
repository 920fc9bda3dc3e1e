//! Worker runs prepared by the hidden `pdfagent internal-prepare-run`: the worker script
//! (preamble + the code, Layer 1 bypassed) and the exact environment the runner would give
//! the worker — or a fork server and its requests — for a security suite to start itself.
//!
//! The run-time guard (`python-runtime/worker/guard.py`) is a tripwire in front of Layer 2:
//! the suites that prove the wall alone prepare with the guard left unarmed (its one arming
//! line replaced, see [`disarm_guard`]).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The preamble's line that arms the run-time guard (`preamble.py`), and what a worker
/// without the guard runs instead.
pub const GUARD_ARM_LINE: &str = "guard_refusals = arm_guard(namespace, run_dir, compiled)";
const GUARD_UNARMED_LINE: &str = "guard_refusals = []";

/// Leave the guard unarmed in the worker script at `script`: its one arming line replaced.
/// Fails loudly if the line is not there exactly once (the preamble changed).
pub fn disarm_guard(script: &Path) {
    let text = std::fs::read_to_string(script).expect("read the prepared worker script");
    assert_eq!(
        text.matches(GUARD_ARM_LINE).count(),
        1,
        "the worker script arms the guard with `{GUARD_ARM_LINE}` exactly once"
    );
    std::fs::write(script, text.replace(GUARD_ARM_LINE, GUARD_UNARMED_LINE))
        .expect("write the worker script back");
}

/// An `internal-prepare-run` invocation being built: `--src`, then an optional
/// `--fork-server DIR`, one `--run-dir`/`--code` pair per request, and any other arguments
/// (`--timeout S`, `--memory MB`).
pub struct PrepareRun {
    cmd: Command,
}

/// What `internal-prepare-run` printed, and the environment to start the worker (or the
/// fork server) with, its worker variables checked.
pub struct Prepared {
    pub json: serde_json::Value,
    pub env: BTreeMap<String, String>,
}

impl PrepareRun {
    /// A run of the executable under test with `src` as `SRC`.
    pub fn new(src: &Path) -> PrepareRun {
        PrepareRun::with_exe(&crate::pdfagent_bin(), src)
    }

    /// A run of the executable `exe` (a copy of the one under test) with `src` as `SRC`.
    pub fn with_exe(exe: &Path, src: &Path) -> PrepareRun {
        let mut cmd = Command::new(exe);
        cmd.arg("internal-prepare-run").arg("--src").arg(src);
        PrepareRun { cmd }
    }

    /// Prepare a fork server in the existing folder `server_dir` instead of a lone worker.
    pub fn fork_server(mut self, server_dir: &Path) -> PrepareRun {
        self.cmd.arg("--fork-server").arg(server_dir);
        self
    }

    /// One request: the code file `code` run in the existing folder `run_dir`.
    pub fn request(mut self, run_dir: &Path, code: &Path) -> PrepareRun {
        self.cmd
            .arg("--run-dir")
            .arg(run_dir)
            .arg("--code")
            .arg(code);
        self
    }

    pub fn args<S: AsRef<std::ffi::OsStr>>(
        mut self,
        args: impl IntoIterator<Item = S>,
    ) -> PrepareRun {
        self.cmd.args(args);
        self
    }

    /// Prepare (nothing runs), the guard left armed only when `guard`.
    pub fn prepare(mut self, guard: bool) -> Prepared {
        let json = prepare(&mut self.cmd);
        let env = prepared_env(&json);
        if !guard {
            disarm_guard(&PathBuf::from(&env["PDFAGENT_PYRUN"]));
        }
        Prepared { json, env }
    }
}

/// Run a hidden `internal-prepare-*` command (`cmd`) and return what it printed.
pub fn prepare(cmd: &mut Command) -> serde_json::Value {
    let out = crate::run(cmd);
    assert!(
        out.status.success(),
        "internal-prepare-run failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("internal-prepare-run prints JSON")
}

/// The environment `internal-prepare-run` printed, worker variables checked.
pub fn prepared_env(prepared: &serde_json::Value) -> BTreeMap<String, String> {
    let env: BTreeMap<String, String> = prepared["env"]
        .as_object()
        .expect("env object")
        .iter()
        .map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_owned()))
        .collect();
    assert!(env.contains_key("PDFAGENT_PYRUN") && env.contains_key("PDFAGENT_CONFINE"));
    env
}
