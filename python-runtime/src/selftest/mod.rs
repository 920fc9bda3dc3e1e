//! `pdfagent selftest`: prove the bundled runtime works, through the very path a real
//! figure takes — the executable re-launched as a confined worker with an environment built
//! from scratch — and report what was found.
//!
//! The report is a list of named checks so later work can add canaries (a write outside the
//! run directory that must fail, a connection that must not be made, …) as more items.

pub mod canary;
mod canary_kernel;
#[cfg(unix)]
mod canary_orphan;

use crate::confine::ConfineReport;
use crate::pipeline::running::runner::{CancelFlag, WorkerExit};
use crate::pipeline::{Limits, running::job::WorkerJob};
use crate::policy::Policy;
use crate::{install_identity, locate};
use canary::{CanaryReport, CanarySetupError};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Prefix of the one stdout line carrying the script's JSON.
const MARKER: &str = "PDFAGENT-SELFTEST ";
const FIGURE: &str = "selftest.png";

/// A figure's limits, with more time (every allowlisted module is imported, some of them
/// slow on a first start) and more output kept (the report is one long line).
fn limits() -> Limits {
    Limits {
        timeout: Duration::from_secs(180),
        output_cap: 256 * 1024,
        ..Limits::default()
    }
}

/// One pass/fail line of the report.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, ts_rs::TS)]
pub struct SelftestItem {
    pub name: String,
    pub ok: bool,
    pub detail: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, ts_rs::TS)]
pub struct ImportResult {
    pub name: String,
    pub ok: bool,
    pub error: String,
    pub ms: f64,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Default, ts_rs::TS)]
pub struct Imports {
    /// How many allowlisted modules imported.
    pub ok: usize,
    /// How many the policy allows (N in "imports N/N").
    pub total: usize,
    pub modules: Vec<ImportResult>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, ts_rs::TS)]
pub struct Savefig {
    pub ok: bool,
    /// Size of the saved PNG as the parent found it (0 when missing).
    pub bytes: u64,
    pub error: String,
    pub ms: f64,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, ts_rs::TS)]
pub struct PathEntry {
    pub path: String,
    pub inside_runtime: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, ts_rs::TS)]
pub struct InterpreterFacts {
    pub version: String,
    pub prefix: String,
    pub prefix_inside_runtime: bool,
    pub executable: String,
    pub isolated: i64,
    pub ignore_environment: i64,
    pub no_user_site: i64,
    pub safe_path: bool,
    pub utf8_mode: i64,
    pub filesystem_encoding: String,
    pub path: Vec<PathEntry>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, ts_rs::TS)]
pub struct Step {
    pub name: String,
    pub ms: f64,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, ts_rs::TS)]
pub struct SelftestReport {
    /// True only when every check passed.
    pub ok: bool,
    pub runtime: Option<PathBuf>,
    pub checks: Vec<SelftestItem>,
    pub imports: Imports,
    pub savefig: Option<Savefig>,
    pub interpreter: Option<InterpreterFacts>,
    /// The `libpython` this executable loaded (Linux: from `/proc/self/maps`). The worker
    /// is the same file started with a cleared environment, so the loader resolves the same.
    pub libpython: Option<PathBuf>,
    /// What the worker reported about its own confinement (`None` if it never said).
    pub confinement: Option<ConfineReport>,
    /// PDFAgent was updated while the host ran: nothing was started (no check, no canary
    /// ran), and this sentence says to restart (`install_identity`).
    pub updated: Option<String>,
    /// The worker's exit, e.g. `exited 0`, `timed out`.
    pub worker_exit: String,
    pub stderr_tail: String,
    pub steps: Vec<Step>,
    pub total_ms: f64,
}

impl SelftestReport {
    fn check(&mut self, name: &str, ok: bool, detail: impl Into<String>) {
        self.checks.push(SelftestItem {
            name: name.into(),
            ok,
            detail: detail.into(),
        });
    }

    fn step(&mut self, name: &str, ms: f64) {
        self.steps.push(Step {
            name: name.into(),
            ms: round1(ms),
        });
    }
}

/// What the selftest script prints (its one marked line).
#[derive(Debug, Deserialize)]
struct ScriptOutput {
    facts: ScriptFacts,
    imports: Vec<ImportResult>,
    savefig: ScriptSavefig,
    confinement: Option<ConfineReport>,
    script_ms: f64,
}

#[derive(Debug, Deserialize)]
struct ScriptFacts {
    version: String,
    prefix: String,
    executable: String,
    isolated: i64,
    ignore_environment: i64,
    no_user_site: i64,
    safe_path: bool,
    utf8_mode: i64,
    filesystem_encoding: String,
    path: Vec<String>,
}

#[derive(Debug, Deserialize)]
struct ScriptSavefig {
    ok: bool,
    error: String,
    ms: f64,
}

/// Run the selftest through the real worker path. Never fails: every problem becomes a
/// failed check in the report. An installation updated under the host is not a problem of
/// it: the report then only says to restart, before a worker starts and, should the update
/// come while the checks run, instead of their failures.
pub fn run() -> SelftestReport {
    let started = Instant::now();
    if let Err(updated) = install_identity::check() {
        return updated_report(updated, started);
    }
    let mut report = empty_report();
    // The canaries run in their own workers beside the import check's worker.
    let canaries = std::thread::scope(|scope| {
        let canaries = scope.spawn(|| {
            let t = Instant::now();
            (canary::run_canaries(&CancelFlag::default()), ms_since(t))
        });
        run_into(&mut report);
        canaries.join()
    });
    if let Err(updated) = install_identity::check() {
        return updated_report(updated, started);
    }
    match canaries {
        Ok((canaries, ms)) => add_canaries(&mut report, canaries, ms),
        Err(_) => report.check("canaries", false, "the canaries' thread panicked"),
    }
    report.total_ms = round1(ms_since(started));
    report.ok = !report.checks.is_empty() && report.checks.iter().all(|c| c.ok);
    report
}

/// A report with nothing found yet.
fn empty_report() -> SelftestReport {
    SelftestReport {
        ok: false,
        runtime: None,
        checks: Vec::new(),
        imports: Imports {
            total: Policy::builtin().modules.len(),
            ..Imports::default()
        },
        savefig: None,
        interpreter: None,
        libpython: None,
        confinement: None,
        updated: None,
        worker_exit: "not started".into(),
        stderr_tail: String::new(),
        steps: Vec::new(),
        total_ms: 0.0,
    }
}

/// The report of a host whose installation was updated: only the sentence to restart.
fn updated_report(updated: install_identity::Updated, started: Instant) -> SelftestReport {
    let mut report = empty_report();
    report.updated = Some(updated.to_string());
    report.check("installation", false, updated.to_string());
    report.total_ms = round1(ms_since(started));
    report
}

/// The canaries: what Layer 2 must stop, tried through the real pipeline with Layer 1
/// bypassed; each is a check that passes only when the effect was contained.
fn add_canaries(
    report: &mut SelftestReport,
    canaries: Result<Vec<CanaryReport>, CanarySetupError>,
    ms: f64,
) {
    match canaries {
        Ok(canaries) => {
            for c in canaries {
                let verdict = if c.contained {
                    "contained"
                } else {
                    "NOT CONTAINED"
                };
                report.check(
                    &format!("canary: {}", c.name),
                    c.contained,
                    format!("{verdict}: {}", c.evidence),
                );
            }
        }
        Err(err) => report.check("canaries", false, err.to_string()),
    }
    report.step("canaries", ms);
}

fn run_into(report: &mut SelftestReport) {
    let t = Instant::now();
    let runtime = match locate::runtime_dir() {
        Ok(dir) => dir,
        Err(err) => return report.check("runtime", false, err.to_string()),
    };
    report.step("locate runtime", ms_since(t));
    report.check("runtime", true, runtime.display().to_string());
    // Windows: the AppContainer's "no network" is enforced by the firewall service, and a
    // loopback exemption would open this machine's servers to it (issue 45).
    #[cfg(windows)]
    {
        use crate::confine::windows::{firewall, plan};
        let (ok, detail) = firewall::verdict(
            &firewall::observe(),
            &plan::app_container_sid(plan::PROFILE_NAME),
        );
        report.check("network isolation", ok, detail);
    }
    report.runtime = Some(runtime.clone());
    if let Some(lib) = loaded_libpython() {
        // Another libpython (Debian's, a cluster module's) would run our stdlib and
        // extension modules against a different build.
        let ok = inside(&lib, &runtime);
        report.check("libpython", ok, lib.display().to_string());
        report.libpython = Some(lib);
    }

    let t = Instant::now();
    // The very job a figure gets (its run directory, its plan, its start), with no data
    // folder: the selftest reads none.
    let job = match WorkerJob::new(None, &limits()) {
        Ok(job) => job,
        Err(err) => return report.check("run directory", false, err.to_string()),
    };
    if let Err(err) = job.write_script(&script_text(Policy::builtin())) {
        return report.check("run directory", false, err.to_string());
    }
    report.step("prepare run directory", ms_since(t));
    let run_path = job.path().to_path_buf();

    let outcome = match job.run(&CancelFlag::default()) {
        Ok(outcome) => outcome,
        Err(err) => return report.check("worker", false, err.to_string()),
    };
    let worker_ms = outcome.elapsed.as_secs_f64() * 1000.0;
    report.worker_exit = describe_exit(&outcome.exit);
    report.stderr_tail = outcome.stderr_tail.clone();
    let exited_ok = outcome.exit == WorkerExit::Exited(0);
    report.check(
        "worker",
        exited_ok,
        if exited_ok {
            report.worker_exit.clone()
        } else {
            format!(
                "{}: {}",
                report.worker_exit,
                last_lines(&outcome.stderr_tail, 5)
            )
        },
    );

    let Some(output) = parse_output(&outcome.stdout_tail) else {
        report.step("worker", worker_ms);
        return report.check(
            "report",
            false,
            "the worker printed no selftest report (see stderr_tail)",
        );
    };
    report.step("worker start-up and shutdown", worker_ms - output.script_ms);
    report.step("imports", output.imports.iter().map(|i| i.ms).sum::<f64>());
    report.step("savefig", output.savefig.ms);
    report.step("worker total", worker_ms);

    record_imports(report, output.imports);
    record_savefig(report, &output.savefig, &run_path.join(FIGURE));
    record_facts(report, &output.facts, &runtime);
    report.confinement = output.confinement;
}

fn record_imports(report: &mut SelftestReport, results: Vec<ImportResult>) {
    let policy = Policy::builtin();
    let ok = policy
        .module_names()
        .filter(|name| results.iter().any(|r| r.name == *name && r.ok))
        .count();
    let failed: Vec<String> = results
        .iter()
        .filter(|r| !r.ok)
        .map(|r| format!("{} ({})", r.name, r.error))
        .collect();
    report.imports.ok = ok;
    report.imports.modules = results;
    let total = report.imports.total;
    let detail = if failed.is_empty() {
        format!("{ok}/{total}")
    } else {
        format!("{ok}/{total}; failed: {}", failed.join("; "))
    };
    report.check("imports", ok == total, detail);
}

fn record_savefig(report: &mut SelftestReport, script: &ScriptSavefig, figure: &Path) {
    let bytes = std::fs::read(figure).unwrap_or_default();
    let is_png = bytes.starts_with(b"\x89PNG\r\n\x1a\n");
    let ok = script.ok && is_png;
    let detail = if ok {
        format!("{} bytes", bytes.len())
    } else if !script.ok {
        script.error.clone()
    } else {
        format!(
            "`{}` is not a PNG file ({} bytes)",
            figure.display(),
            bytes.len()
        )
    };
    report.check("savefig", ok, detail);
    report.savefig = Some(Savefig {
        ok,
        bytes: bytes.len() as u64,
        error: script.error.clone(),
        ms: script.ms,
    });
}

fn record_facts(report: &mut SelftestReport, facts: &ScriptFacts, runtime: &Path) {
    let path: Vec<PathEntry> = facts
        .path
        .iter()
        .map(|p| PathEntry {
            path: p.clone(),
            inside_runtime: inside(Path::new(p), runtime),
        })
        .collect();
    let prefix_inside = inside(Path::new(&facts.prefix), runtime);
    let isolated = facts.isolated == 1 && facts.ignore_environment == 1 && facts.no_user_site == 1;
    report.check(
        "isolated",
        isolated,
        format!(
            "isolated={} ignore_environment={} no_user_site={} safe_path={}",
            facts.isolated, facts.ignore_environment, facts.no_user_site, facts.safe_path
        ),
    );
    report.check(
        "utf-8",
        facts.utf8_mode == 1 && facts.filesystem_encoding == "utf-8",
        format!(
            "utf8_mode={} filesystem encoding {}",
            facts.utf8_mode, facts.filesystem_encoding
        ),
    );
    report.check("sys.prefix", prefix_inside, facts.prefix.clone());
    let outside: Vec<&str> = path
        .iter()
        .filter(|p| !p.inside_runtime)
        .map(|p| p.path.as_str())
        .collect();
    report.check(
        "sys.path",
        outside.is_empty() && !path.is_empty(),
        if outside.is_empty() {
            format!("{} entries, all inside the runtime", path.len())
        } else {
            format!("outside the runtime: {}", outside.join(", "))
        },
    );
    report.interpreter = Some(InterpreterFacts {
        version: facts.version.clone(),
        prefix: facts.prefix.clone(),
        prefix_inside_runtime: prefix_inside,
        executable: facts.executable.clone(),
        isolated: facts.isolated,
        ignore_environment: facts.ignore_environment,
        no_user_site: facts.no_user_site,
        safe_path: facts.safe_path,
        utf8_mode: facts.utf8_mode,
        filesystem_encoding: facts.filesystem_encoding.clone(),
        path,
    });
}

/// The selftest script with the policy's module list and the figure name prepended
/// (`pipeline/script.rs` owns the paste order).
pub fn script_text(policy: &Policy) -> String {
    let modules: Vec<&str> = policy.module_names().collect();
    crate::pipeline::script::render_selftest(&modules, FIGURE)
}

/// The shared libpython mapped into this process, where the OS lets us see it.
fn loaded_libpython() -> Option<PathBuf> {
    if !cfg!(target_os = "linux") {
        return None;
    }
    let maps = std::fs::read_to_string("/proc/self/maps").ok()?;
    maps.lines()
        .filter_map(|line| line.split_whitespace().nth(5))
        .find(|path| {
            Path::new(path)
                .file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("libpython"))
        })
        .map(PathBuf::from)
}

fn parse_output(stdout: &str) -> Option<ScriptOutput> {
    let line = stdout.lines().rev().find_map(|l| l.strip_prefix(MARKER))?;
    serde_json::from_str(line).ok()
}

/// Lexically inside, or inside once symlinks are resolved.
fn inside(path: &Path, runtime: &Path) -> bool {
    path.starts_with(runtime) || path.canonicalize().is_ok_and(|p| p.starts_with(runtime))
}

fn describe_exit(exit: &WorkerExit) -> String {
    match exit {
        WorkerExit::Exited(code) if *code == crate::wire::EXIT_WORKER_FAILED => {
            format!("exited {code} (the worker could not start Python)")
        }
        WorkerExit::Exited(code) => format!("exited {code}"),
        WorkerExit::Signaled(sig) => format!("killed by signal {sig}"),
        WorkerExit::TimedOut => format!("timed out after {} s", limits().timeout.as_secs()),
        WorkerExit::Cancelled => "cancelled".into(),
    }
}

fn last_lines(text: &str, n: usize) -> String {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(n)..].join(" | ")
}

fn ms_since(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1000.0
}

fn round1(ms: f64) -> f64 {
    (ms * 10.0).round() / 10.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn script_lists_every_policy_module() {
        let text = script_text(Policy::builtin());
        let first = text.lines().next().unwrap();
        let listed: Vec<String> =
            serde_json::from_str(first.strip_prefix("MODULES = ").unwrap()).unwrap();
        let policy: Vec<String> = Policy::builtin().module_names().map(String::from).collect();
        assert_eq!(listed, policy);
    }

    #[test]
    fn report_line_is_found_among_other_output() {
        let stdout = format!(
            "hello\n{MARKER}{}\n",
            r#"{"facts":{"version":"3.11.7","prefix":"/r","base_prefix":"/r","executable":"/x",
            "isolated":1,"ignore_environment":1,"no_user_site":1,"safe_path":true,"utf8_mode":1,
            "filesystem_encoding":"utf-8","path":["/r/lib/python3.11"]},"imports":[],
            "savefig":{"ok":true,"error":"","ms":1.0},"confinement":null,"script_ms":2.0}"#
                .replace('\n', "")
        );
        let out = parse_output(&stdout).unwrap();
        assert_eq!(out.facts.version, "3.11.7");
        assert!(out.confinement.is_none());
    }

    #[test]
    fn a_missing_import_fails_the_imports_check() {
        let mut report = run_shell();
        let results = Policy::builtin()
            .module_names()
            .map(|name| ImportResult {
                name: name.into(),
                ok: name != "scipy",
                error: if name == "scipy" {
                    "ImportError: x".into()
                } else {
                    String::new()
                },
                ms: 1.0,
            })
            .collect();
        record_imports(&mut report, results);
        let check = report.checks.iter().find(|c| c.name == "imports").unwrap();
        assert!(!check.ok);
        assert!(
            check.detail.contains("scipy (ImportError: x)"),
            "{}",
            check.detail
        );
        assert_eq!(report.imports.ok + 1, report.imports.total);
    }

    #[test]
    fn a_path_entry_outside_the_runtime_fails_the_sys_path_check() {
        let mut report = run_shell();
        let facts = ScriptFacts {
            version: "3.11.7".into(),
            prefix: "/rt".into(),
            executable: "/app/pdfagent".into(),
            isolated: 1,
            ignore_environment: 1,
            no_user_site: 1,
            safe_path: true,
            utf8_mode: 1,
            filesystem_encoding: "utf-8".into(),
            path: vec!["/rt/lib/python3.11".into(), "/usr/lib/python3.11".into()],
        };
        record_facts(&mut report, &facts, Path::new("/rt"));
        let check = report.checks.iter().find(|c| c.name == "sys.path").unwrap();
        assert!(!check.ok);
        assert!(
            check.detail.contains("/usr/lib/python3.11"),
            "{}",
            check.detail
        );
        assert!(
            report
                .checks
                .iter()
                .find(|c| c.name == "sys.prefix")
                .unwrap()
                .ok
        );
    }

    fn run_shell() -> SelftestReport {
        SelftestReport {
            worker_exit: String::new(),
            ..empty_report()
        }
    }
}
