//! The pure half of the Windows confinement: the AppContainer's names and SIDs, the
//! capability list, the ACEs each path of a [`ConfinePlan`] gets, the SDDL they are judged
//! by, the contained worker's environment block and command line, and the report. No
//! system call is made here, so every part is unit-tested on any OS; `acl.rs`,
//! `appcontainer.rs`, `job.rs` and `launch.rs` turn it into Win32 calls.
//!
//! **SIDs.** Windows derives an AppContainer's SID from its name, and a capability's SID
//! from the capability's name, with SHA-256 over the UTF-16LE name (lower-cased for a
//! container, upper-cased for a capability). Deriving them here means the ACEs the host
//! writes name exactly the SIDs the kernel will put into the worker's token; the host
//! still asks Windows for the container's SID and refuses to run when the two differ.
//! The tests pin the derivation to SIDs Microsoft and Chromium publish.

use crate::confine::{ConfinePlan, ConfineReport};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// The AppContainer profile every worker runs in: the app's identifier
/// (`src-tauri/tauri.conf.json`) plus `.worker`. Created once, reused by every run.
pub const PROFILE_NAME: &str = "org.pdfagent.pdfagent.worker";
pub const PROFILE_DISPLAY_NAME: &str = "PDFAgent worker";
pub const PROFILE_DESCRIPTION: &str =
    "Runs plotting code for PDFAgent with no network and no access to your files";

/// The well-known network capabilities (`internetClient`, `internetClientServer`,
/// `privateNetworkClientServer`). The worker's token holds none of them, so the firewall's
/// AppContainer filters refuse every connection, loopback included.
pub const NETWORK_CAPABILITY_SIDS: [&str; 3] = ["S-1-15-3-1", "S-1-15-3-2", "S-1-15-3-3"];

/// `ALL APPLICATION PACKAGES`: every AppContainer holds it. Windows grants it read and
/// execute on its own folders and `Program Files`, so a per-machine install needs no ACE.
pub const ALL_APP_PACKAGES_SID: &str = "S-1-15-2-1";

/// The environment variable that tells a worker it is the contained stage (set by the
/// launcher for its child only; the child verifies its token before trusting it).
pub const CONTAINED_ENV: &str = "PDFAGENT_CONTAINED";

/// The environment variable naming the launcher's stop event (see [`stop_event_name`]).
pub const STOP_ENV: &str = "PDFAGENT_STOP";

/// The event a host sets to stop a run (time-out, cancel): the launcher then ends the job
/// and waits until the contained worker is gone before it exits, so that the host's wait
/// on the launcher means the worker's files are closed and its run directory can be
/// removed (Windows refuses to delete open files). In the session's `Local\` namespace,
/// which an AppContainer cannot reach (its names are redirected to its own folder);
/// unique per host and run.
pub fn stop_event_name(host_pid: u32, run_dir: &Path) -> String {
    let digest = Sha256::digest(run_dir.to_string_lossy().as_bytes());
    let hex: String = digest[..8].iter().map(|b| format!("{b:02x}")).collect();
    format!("Local\\pdfagent-stop-{host_pid}-{hex}")
}

/// The contained worker's variables: the launcher's own, without the stop event's name
/// (the worker has no business with it), plus the script, the plan and the stage marker.
pub fn contained_vars(
    launcher: Vec<(String, String)>,
    script: &str,
    plan_json: &str,
) -> Vec<(String, String)> {
    let mut vars: Vec<(String, String)> = launcher
        .into_iter()
        .filter(|(k, _)| !k.eq_ignore_ascii_case(STOP_ENV))
        .collect();
    vars.push((crate::worker::ENV_PYRUN.into(), script.into()));
    vars.push((crate::worker::ENV_CONFINE.into(), plan_json.into()));
    vars.push((CONTAINED_ENV.into(), "1".into()));
    vars
}

/// `S-1-15-2-…`: the SID Windows gives the AppContainer called `name`
/// (`DeriveAppContainerSidFromAppContainerName`).
pub fn app_container_sid(name: &str) -> String {
    let words = sha256_words(&name.to_lowercase());
    format!("S-1-15-2-{}", join(&words[..7]))
}

/// `S-1-15-3-1024-…`: the SID of the capability called `name`
/// (`DeriveCapabilitySidsFromName`).
pub fn capability_sid(name: &str) -> String {
    let words = sha256_words(&name.to_uppercase());
    format!("S-1-15-3-1024-{}", join(&words))
}

fn sha256_words(name: &str) -> [u32; 8] {
    let bytes: Vec<u8> = name.encode_utf16().flat_map(u16::to_le_bytes).collect();
    let digest = Sha256::digest(&bytes);
    let mut words = [0u32; 8];
    for (word, chunk) in words.iter_mut().zip(digest.chunks_exact(4)) {
        *word = u32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
    }
    words
}

fn join(words: &[u32]) -> String {
    words
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join("-")
}

/// The capability that carries one run's file grants (`SRC` read, the run directory full),
/// named after the run directory, which is fresh and unique per run. A grant to the
/// container's SID would let every worker reach every other run's folders; one capability
/// per run keeps runs apart and lets a run's grants be removed without touching another
/// run's on the same `SRC`.
pub fn run_capability_name(run_dir: &Path) -> String {
    let digest = Sha256::digest(run_dir.to_string_lossy().as_bytes());
    let hex: String = digest[..16].iter().map(|b| format!("{b:02x}")).collect();
    format!("pdfagentRun{hex}")
}

/// The capabilities the worker's token gets: the run's file capability, nothing else (no
/// network capability, so no network).
pub fn capabilities(run_dir: &Path) -> Vec<String> {
    vec![capability_sid(&run_capability_name(run_dir))]
}

/// File rights, as the masks `SetEntriesInAclW` and SDDL use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// `FILE_GENERIC_READ | FILE_GENERIC_EXECUTE`: the executable, its DLLs, the runtime.
    ReadExecute,
    /// `FILE_GENERIC_READ`: read files, list folders; no execute (data is never a program).
    Read,
    /// `FILE_ALL_ACCESS`: the run directory.
    Full,
}

impl Access {
    /// The rights on the folder and everything below it.
    pub fn mask(self) -> u32 {
        match self {
            Access::ReadExecute => FILE_GENERIC_READ | FILE_GENERIC_EXECUTE,
            Access::Read => FILE_GENERIC_READ,
            Access::Full => FILE_ALL_ACCESS,
        }
    }

    /// The ACEs that carry these rights, as (rights, inheritance) pairs. `Read` adds
    /// `FILE_TRAVERSE` on folders only: opening a folder as the current directory (the
    /// worker's cwd is `SRC`) asks for it, while on files the same bit is `FILE_EXECUTE`,
    /// which data never gets.
    pub fn entries(self) -> Vec<(u32, u32)> {
        match self {
            Access::Read => vec![
                (FILE_GENERIC_READ, INHERIT_FILES_AND_FOLDERS),
                (FILE_TRAVERSE, INHERIT_FOLDERS),
            ],
            other => vec![(other.mask(), INHERIT_FILES_AND_FOLDERS)],
        }
    }

    /// The ACE on a single file: the same rights, nothing to inherit.
    pub fn file_entries(self) -> Vec<(u32, u32)> {
        vec![(self.mask(), 0)]
    }
}

/// `SUB_CONTAINERS_AND_OBJECTS_INHERIT` (`OICI`) and `SUB_CONTAINERS_ONLY_INHERIT` (`CI`).
pub const INHERIT_FILES_AND_FOLDERS: u32 = 0x3;
pub const INHERIT_FOLDERS: u32 = 0x2;
const FILE_TRAVERSE: u32 = 0x20;

const FILE_GENERIC_READ: u32 = 0x0012_0089;
const FILE_GENERIC_EXECUTE: u32 = 0x0012_00a0;
const FILE_GENERIC_WRITE: u32 = 0x0012_0116;
const FILE_ALL_ACCESS: u32 = 0x001f_01ff;

/// How long an ACE stays.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lifetime {
    /// The install folders: granted once to the container's SID and left (the next run
    /// needs the same), skipped when the folder already lets every AppContainer read.
    Kept,
    /// `SRC` and the like: granted to the run's capability before the worker starts and
    /// removed when the run ends.
    ForTheRun,
    /// The run directory: granted, and deleted with the directory after the run.
    WithTheRunDir,
}

/// One ACE the host writes before the worker starts: allow `access` to `sid` on `path`,
/// inherited by everything below it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grant {
    pub path: PathBuf,
    pub sid: String,
    pub access: Access,
    pub lifetime: Lifetime,
    /// Also give the folder a low mandatory label: an AppContainer runs at low integrity,
    /// and Windows refuses it writes to anything labelled higher (unlabelled = medium).
    pub low_label: bool,
}

impl Grant {
    /// The ACEs as SDDL, e.g. `(A;OICI;0x1200a9;;;S-1-15-2-…)`.
    pub fn ace_sddl(&self) -> String {
        self.access
            .entries()
            .iter()
            .map(|(mask, inherit)| {
                let flags = if *inherit == INHERIT_FOLDERS {
                    "CI"
                } else {
                    "OICI"
                };
                format!("(A;{flags};{mask:#x};;;{})", self.sid)
            })
            .collect()
    }
}

/// The ACEs for one run. The plan's `code` (the executable file, its loader DLLs, the
/// runtime) gets a kept grant to the container, as does a read-only path inside one of
/// them; any other read-only path
/// (`SRC`) gets a read grant for this run only; the read-write paths (the run directory)
/// get full access for this run and a low label. Nested paths of the same kind are dropped:
/// the ACE on the folder above is inherited.
pub fn grants(plan: &ConfinePlan) -> Vec<Grant> {
    let container = app_container_sid(PROFILE_NAME);
    let Some(run_dir) = plan.read_write.first() else {
        return Vec::new();
    };
    let run = capability_sid(&run_capability_name(run_dir));
    let mut out: Vec<Grant> = Vec::new();
    for path in &plan.read_only {
        let grant = if plan.code.iter().any(|code| within(path, code)) {
            Grant {
                path: path.clone(),
                sid: container.clone(),
                access: Access::ReadExecute,
                lifetime: Lifetime::Kept,
                low_label: false,
            }
        } else {
            Grant {
                path: path.clone(),
                sid: run.clone(),
                access: Access::Read,
                lifetime: Lifetime::ForTheRun,
                low_label: false,
            }
        };
        out.push(grant);
    }
    for path in &plan.read_write {
        out.push(Grant {
            path: path.clone(),
            sid: run.clone(),
            access: Access::Full,
            lifetime: Lifetime::WithTheRunDir,
            low_label: true,
        });
    }
    // A folder already covered by a grant of the same SID and at least the same rights
    // needs nothing of its own.
    let covered = |g: &Grant, all: &[Grant]| {
        all.iter().any(|other| {
            other.path != g.path
                && within(&g.path, &other.path)
                && other.sid == g.sid
                && other.access.mask() & g.access.mask() == g.access.mask()
        })
    };
    let snapshot = out.clone();
    out.retain(|g| !covered(g, &snapshot));
    out.dedup_by(|a, b| a == b);
    out
}

/// Whether `path` is `dir` or inside it, as Windows compares paths: case-insensitively,
/// with `\` and `/` alike, ignoring a trailing separator and the verbatim prefix
/// `canonicalize` adds (`\\?\C:\…`, `\\?\UNC\server\…`).
pub fn within(path: &Path, dir: &Path) -> bool {
    let norm = |p: &Path| {
        let text = p.to_string_lossy().replace('/', "\\").to_lowercase();
        let text = if let Some(unc) = text.strip_prefix(r"\\?\unc\") {
            format!(r"\\{unc}")
        } else {
            text.strip_prefix(r"\\?\").unwrap_or(&text).to_owned()
        };
        text.trim_end_matches('\\').to_owned()
    };
    let (path, dir) = (norm(path), norm(dir));
    path == dir || path.starts_with(&format!("{dir}\\"))
}

/// Whether the DACL in `sddl` (as `ConvertSecurityDescriptorToStringSecurityDescriptorW`
/// prints it) already allows `sid`, or `ALL APPLICATION PACKAGES`, at least `mask` on the
/// object itself. Used to skip a kept grant the installer's ACL already gives (a
/// per-machine install under `Program Files`), which the user could not write anyway.
pub fn dacl_allows(sddl: &str, sid: &str, mask: u32) -> bool {
    let Some(dacl) = dacl_part(sddl) else {
        return false;
    };
    let mut granted = 0u32;
    for ace in aces(dacl) {
        let fields: Vec<&str> = ace.split(';').collect();
        let [kind, flags, rights, _, _, trustee] = fields[..] else {
            continue;
        };
        let applies = trustee.eq_ignore_ascii_case(sid)
            || trustee == "AC"
            || trustee.eq_ignore_ascii_case(ALL_APP_PACKAGES_SID);
        // An inherit-only ACE is for the children, not for the folder itself.
        if !applies || has_flag(flags, "IO") {
            continue;
        }
        match kind {
            "A" => granted |= rights_mask(rights),
            // A deny for the trustee: be conservative and say "not covered".
            "D" => return false,
            _ => {}
        }
    }
    granted & mask == mask
}

/// The `D:` part of an SDDL string (up to the `S:` part, if any).
fn dacl_part(sddl: &str) -> Option<&str> {
    let start = sddl.find("D:")? + 2;
    let rest = &sddl[start..];
    // `S:` can only start a part outside parentheses.
    let mut depth = 0usize;
    for (i, c) in rest.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            'S' if depth == 0 && rest[i..].starts_with("S:") => return Some(&rest[..i]),
            _ => {}
        }
    }
    Some(rest)
}

/// The ACE strings (without parentheses) of a DACL part.
fn aces(dacl: &str) -> impl Iterator<Item = &str> {
    dacl.split('(')
        .skip(1)
        .filter_map(|chunk| chunk.split_once(')').map(|(ace, _)| ace))
}

fn has_flag(flags: &str, flag: &str) -> bool {
    flags
        .as_bytes()
        .chunks(2)
        .any(|pair| pair == flag.as_bytes())
}

/// An SDDL rights field: hex (`0x1200a9`) or two-letter codes (`GRGX`, `FA`).
fn rights_mask(rights: &str) -> u32 {
    if let Some(hex) = rights
        .strip_prefix("0x")
        .or_else(|| rights.strip_prefix("0X"))
    {
        return u32::from_str_radix(hex, 16).unwrap_or(0);
    }
    rights
        .as_bytes()
        .chunks(2)
        .map(|code| match code {
            b"GA" | b"FA" => FILE_ALL_ACCESS,
            b"GR" | b"FR" => FILE_GENERIC_READ,
            b"GX" | b"FX" => FILE_GENERIC_EXECUTE,
            b"GW" | b"FW" => FILE_GENERIC_WRITE,
            b"CC" => 0x1,
            b"DC" => 0x2,
            b"LC" => 0x4,
            b"SW" => 0x8,
            b"RP" => 0x10,
            b"WP" => 0x20,
            b"DT" => 0x40,
            b"LO" => 0x80,
            b"CR" => 0x100,
            b"SD" => 0x0001_0000,
            b"RC" => 0x0002_0000,
            b"WD" => 0x0004_0000,
            b"WO" => 0x0008_0000,
            _ => 0,
        })
        .fold(0, |acc, m| acc | m)
}

/// The DACL of every kernel object the worker has: its process and first thread (the
/// launcher passes it to `CreateProcessW`) and whatever the worker creates without a
/// descriptor of its own — its other threads, events, sections — through its token's
/// default DACL (the launcher sets it while the worker is still suspended). An
/// AppContainer token passes an access check only when the DACL lets in both its user side
/// and its AppContainer side (its package SID, one of its capabilities, or
/// `ALL APPLICATION PACKAGES`): SYSTEM and the user (the host, the launcher, tools of the
/// user) for the first, this run's capability for the second. So the worker can open
/// itself by id (`OpenProcess(GetCurrentProcessId())`, as libraries do), and another
/// worker — same user, same package SID, another run's capability — cannot. The package
/// SID Windows would put here is left out on purpose: every worker holds it. `OWNER
/// RIGHTS` gets reading the descriptor only: the owner (the user, whom every worker's
/// token names too) otherwise holds `WRITE_DAC` implicitly, and a worker that could
/// rewrite another's DACL could then open it; the user's own ACE still gives the host all.
pub fn worker_object_sddl(user_sid: &str, run_dir: &Path) -> String {
    let run = capability_sid(&run_capability_name(run_dir));
    format!("D:P(A;;GA;;;SY)(A;;GA;;;{user_sid})(A;;GA;;;{run})(A;;RC;;;OW)")
}

/// The trustees of the allow ACEs in `sddl`'s DACL through which a token of another
/// AppContainer (or of this one in another run) passes the AppContainer half of the access
/// check: any package SID (`S-1-15-2-…`, `AC`), any capability (`S-1-15-3-…`) other than
/// `own_capability`. Empty when only this run's worker gets in. Other trustees (the user,
/// SYSTEM, `Everyone`) are not AppContainer SIDs: they never satisfy that half. An object
/// without a DACL, or with a null one (`NO_ACCESS_CONTROL`), lets everyone in.
pub fn open_to_other_containers(sddl: &str, own_capability: Option<&str>) -> Vec<String> {
    let Some(dacl) = dacl_part(sddl) else {
        return vec!["everyone (no DACL)".to_owned()];
    };
    // The DACL's flags (`P`, `AI`, `NO_ACCESS_CONTROL`) come before its first ACE.
    let flags = dacl.split('(').next().unwrap_or_default();
    if flags.contains("NO_ACCESS_CONTROL") {
        return vec!["everyone (a null DACL)".to_owned()];
    }
    let mut out: Vec<String> = Vec::new();
    for ace in aces(dacl) {
        let fields: Vec<&str> = ace.split(';').collect();
        let [kind, _, _, _, _, trustee, ..] = fields[..] else {
            continue;
        };
        // Allow ACEs of every form (plain, object, callback, callback object).
        if !matches!(kind, "A" | "OA" | "XA" | "ZA") {
            continue;
        }
        let upper = trustee.to_ascii_uppercase();
        let container_side = upper == "AC"
            || upper.starts_with("S-1-15-2-")
            || (upper.starts_with("S-1-15-3-")
                && own_capability.is_none_or(|own| !own.eq_ignore_ascii_case(trustee)));
        if container_side && !out.iter().any(|t| t == trustee) {
            out.push(trustee.to_owned());
        }
    }
    out
}

/// A SACL holding one low mandatory label, no-write-up, inherited by files and folders:
/// what lets a low-integrity process (every AppContainer) write in the run directory.
pub const LOW_LABEL_SDDL: &str = "S:(ML;OICI;NW;;;LW)";

/// The contained worker's environment block for `CreateProcessW` with
/// `CREATE_UNICODE_ENVIRONMENT`: `NAME=value` entries, NUL-separated, sorted
/// case-insensitively by name as Windows expects, ending with an extra NUL. A later entry
/// of the same name (ignoring case) replaces an earlier one; names that are empty or hold
/// `=` are dropped (they cannot be represented).
pub fn environment_block(vars: &[(String, String)]) -> Vec<u16> {
    let mut merged: Vec<(String, String)> = Vec::new();
    for (name, value) in vars {
        if name.is_empty() || name.contains('=') || name.contains('\0') || value.contains('\0') {
            continue;
        }
        merged.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
        merged.push((name.clone(), value.clone()));
    }
    merged.sort_by_key(|(name, _)| name.to_uppercase());
    let mut block = Vec::new();
    for (name, value) in &merged {
        block.extend(format!("{name}={value}").encode_utf16());
        block.push(0);
    }
    if merged.is_empty() {
        block.push(0);
    }
    block.push(0);
    block
}

/// The contained worker's command line: the executable, quoted (a path under
/// `Program Files` has spaces; Windows paths cannot hold `"`), and no arguments — the
/// worker path is chosen by the environment, as everywhere.
pub fn command_line(exe: &str) -> String {
    format!("\"{exe}\"")
}

/// Whether the process found under the host's id is still the host: it must have been
/// created before this launcher (its child). A later one is another process that reused
/// the id of a host that died before the launcher looked.
pub fn is_the_host(host_created: u64, launcher_created: u64) -> bool {
    host_created <= launcher_created
}

/// What the contained worker finds about itself, from its token and its job.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Observed {
    /// The token's AppContainer SID, when the token is an AppContainer token.
    pub app_container: Option<String>,
    /// The capability SIDs in the token.
    pub capabilities: Vec<String>,
    /// The job's limits, when the process is in a job.
    pub job: Option<JobFacts>,
    /// The DACLs (SDDL) of the worker's process, of its current thread and of its token's
    /// default DACL, `None` where one could not be read.
    pub process_dacl: Option<String>,
    pub thread_dacl: Option<String>,
    pub default_dacl: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct JobFacts {
    pub kill_on_close: bool,
    pub active_process_limit: Option<u32>,
    pub memory_bytes: Option<u64>,
    pub cpu_seconds: Option<u64>,
}

/// Whether the worker's process, thread and default DACLs let only this run's worker in
/// among AppContainer tokens ([`worker_object_sddl`]); the reason when not.
fn other_workers_kept_out(observed: &Observed, plan: &ConfinePlan) -> Result<(), String> {
    let own = plan
        .read_write
        .first()
        .map(|run_dir| capability_sid(&run_capability_name(run_dir)));
    let mut problems = Vec::new();
    for (what, sddl) in [
        ("the process", &observed.process_dacl),
        ("the thread", &observed.thread_dacl),
        ("the token's default", &observed.default_dacl),
    ] {
        match sddl {
            None => problems.push(format!("{what} DACL could not be read")),
            Some(sddl) => {
                let open = open_to_other_containers(sddl, own.as_deref());
                if !open.is_empty() {
                    problems.push(format!("{what} DACL lets in {}", open.join(", ")));
                }
            }
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("; "))
    }
}

/// The report for what the worker observed about itself, against what the plan asked.
pub fn describe(observed: &Observed, plan: &ConfinePlan) -> ConfineReport {
    let mut enforced = Vec::new();
    let mut missing = Vec::new();
    let expected = app_container_sid(PROFILE_NAME);
    match &observed.app_container {
        Some(sid) if *sid == expected => {
            let network: Vec<&String> = observed
                .capabilities
                .iter()
                .filter(|c| NETWORK_CAPABILITY_SIDS.contains(&c.as_str()))
                .collect();
            enforced.push(format!(
                "AppContainer {PROFILE_NAME} (files: only the granted folders; low integrity)"
            ));
            if network.is_empty() {
                enforced.push("no network capability (no connections, loopback included)".into());
            } else {
                missing.push(format!(
                    "network deny (the token holds network capabilities {network:?})"
                ));
            }
            match other_workers_kept_out(observed, plan) {
                Ok(()) => enforced.push(
                    "other workers kept out (process, threads and new objects: the user, \
                     SYSTEM and this run's capability only)"
                        .into(),
                ),
                Err(why) => missing.push(format!("other workers kept out ({why})")),
            }
        }
        Some(sid) => missing.push(format!(
            "the expected AppContainer (the token's is {sid}, expected {expected})"
        )),
        None => missing.push("AppContainer (files outside SRC and the network)".into()),
    }
    match &observed.job {
        Some(job) => {
            let mut parts = Vec::new();
            if job.active_process_limit == Some(1) {
                parts.push("no child processes".to_owned());
            } else {
                missing.push("process limit (the job allows child processes)".into());
            }
            match job.memory_bytes {
                Some(m) if m <= plan.memory_bytes => parts.push(format!("memory {} MiB", m >> 20)),
                _ => missing.push(format!("memory limit of {} MiB", plan.memory_bytes >> 20)),
            }
            match job.cpu_seconds {
                Some(s) if s <= plan.cpu_seconds => parts.push(format!("cpu {s} s")),
                _ => missing.push(format!("CPU-time limit of {} s", plan.cpu_seconds)),
            }
            if job.kill_on_close {
                parts.push("killed with its launcher".to_owned());
            } else {
                missing.push("kill-on-close (the worker could outlive its launcher)".into());
            }
            enforced.push(format!("job object ({})", parts.join(", ")));
        }
        None => missing.push("job object (process, memory and CPU limits)".into()),
    }
    missing.push(format!(
        "file-size limit ({} MiB not enforceable by a job object)",
        plan.file_size_bytes >> 20
    ));
    let headline = observed
        .app_container
        .is_none()
        .then_some("none — the worker is not in an AppContainer");
    ConfineReport::new(enforced, missing, headline)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::running::child_env::{RunDirs, TargetOs, child_env};
    use std::collections::BTreeMap;

    fn plan(src: Option<&str>) -> ConfinePlan {
        let code = vec![
            exe(),
            exe_dir().join("python311.dll"),
            exe_dir().join("runtime"),
        ];
        let mut read_only = code.clone();
        read_only.extend(src.map(PathBuf::from));
        ConfinePlan {
            read_only,
            code,
            read_write: vec![PathBuf::from(
                r"C:\Users\u\AppData\Local\Temp\pdfagent-run-1",
            )],
            memory_bytes: 4 << 30,
            cpu_seconds: 120,
            file_size_bytes: 256 << 20,
            role: Default::default(),
            landlock_scopes: true,
        }
    }

    fn exe_dir() -> PathBuf {
        PathBuf::from(r"C:\Users\u\AppData\Local\PDFAgent")
    }

    fn exe() -> PathBuf {
        exe_dir().join("pdfagent.exe")
    }

    #[test]
    fn sids_match_the_ones_windows_derives() {
        // Microsoft Edge's package family name and its SID, as Windows registers it.
        assert_eq!(
            app_container_sid("Microsoft.MicrosoftEdge_8wekyb3d8bbwe"),
            "S-1-15-2-3624051433-2125758914-1423191267-1740899205-1073925389-3782572162-737981194"
        );
        // The derivation ignores case, as Windows does.
        assert_eq!(
            app_container_sid("microsoft.microsoftedge_8WEKYB3D8BBWE"),
            app_container_sid("Microsoft.MicrosoftEdge_8wekyb3d8bbwe")
        );
        // Chromium's installer grants these two capability SIDs on its install folder.
        assert_eq!(
            capability_sid("chromeInstallFiles"),
            "S-1-15-3-1024-3424233489-972189580-2057154623-747635277-1604371224-316187997-3786583170-1043257646"
        );
        assert_eq!(
            capability_sid("lpacChromeInstallFiles"),
            "S-1-15-3-1024-2302894289-466761758-1166120688-1039016420-2430351297-4240214049-4028510897-3317428798"
        );
    }

    #[test]
    fn the_profile_is_named_after_the_app_identifier() {
        let conf = include_str!("../../../../src-tauri/tauri.conf.json");
        let conf: serde_json::Value = serde_json::from_str(conf).unwrap();
        let identifier = conf["identifier"].as_str().unwrap();
        assert_eq!(PROFILE_NAME, format!("{identifier}.worker"));
        // CreateAppContainerProfile takes at most 64 characters.
        assert!(PROFILE_NAME.len() <= 64);
    }

    #[test]
    fn the_worker_gets_one_capability_per_run_and_none_for_the_network() {
        let a = capabilities(Path::new(r"C:\T\pdfagent-run-a"));
        let b = capabilities(Path::new(r"C:\T\pdfagent-run-b"));
        assert_eq!(a.len(), 1);
        assert_ne!(a, b, "two runs must not share their file capability");
        assert_eq!(a, capabilities(Path::new(r"C:\T\pdfagent-run-a")));
        for sid in a.iter().chain(&b) {
            assert!(sid.starts_with("S-1-15-3-1024-"), "{sid}");
            assert!(!NETWORK_CAPABILITY_SIDS.contains(&sid.as_str()));
        }
        // Capability names must be plain: letters and digits only.
        let name = run_capability_name(Path::new(r"C:\T\Ordner mit Ümlaut"));
        assert!(name.chars().all(|c| c.is_ascii_alphanumeric()), "{name}");
    }

    #[test]
    fn grants_per_path() {
        let p = plan(Some(r"D:\Daten\Messung 1"));
        let g = grants(&p);
        let container = app_container_sid(PROFILE_NAME);
        let run = capabilities(&p.read_write[0]).remove(0);
        // The executable, its loader DLL and the runtime, one by one: never the folder
        // they are in, where a user's file may lie.
        assert_eq!(g.len(), 5, "{g:#?}");
        for (grant, path) in g.iter().zip(&p.code) {
            assert_eq!(
                grant,
                &Grant {
                    path: path.clone(),
                    sid: container.clone(),
                    access: Access::ReadExecute,
                    lifetime: Lifetime::Kept,
                    low_label: false,
                }
            );
        }
        assert!(!g.iter().any(|g| g.path == exe_dir()));
        let g = &g[2..];
        assert_eq!(g[1].path, PathBuf::from(r"D:\Daten\Messung 1"));
        assert_eq!(g[1].sid, run);
        assert_eq!(g[1].access, Access::Read);
        assert_eq!(g[1].lifetime, Lifetime::ForTheRun);
        assert_eq!(g[2].path, p.read_write[0]);
        assert_eq!(g[2].sid, run);
        assert_eq!(g[2].access, Access::Full);
        assert!(g[2].low_label);
        // SRC is never executable, never writable.
        const FILE_EXECUTE: u32 = 0x20;
        const FILE_WRITE_DATA: u32 = 0x2;
        assert_eq!(Access::Read.mask() & (FILE_EXECUTE | FILE_WRITE_DATA), 0);
        // Folders of SRC may be traversed (it is the worker's cwd); files are never
        // executable.
        assert_eq!(
            g[1].ace_sddl(),
            format!("(A;OICI;0x120089;;;{0})(A;CI;0x20;;;{0})", g[1].sid)
        );
        assert_eq!(g[2].ace_sddl(), format!("(A;OICI;0x1f01ff;;;{})", g[2].sid));
        // What the host writes is what the check recognises as already there.
        let sddl = format!("D:(A;OICIID;FA;;;SY){}", g[1].ace_sddl());
        assert!(dacl_allows(&sddl, &g[1].sid, Access::Read.mask()));
    }

    #[test]
    fn a_canonical_plan_is_classified_like_a_plain_one() {
        // pipeline::job::plan canonicalises the executable; the plan's `code` may be given
        // plainly.
        let mut p = plan(Some(r"\\?\D:\Daten"));
        p.read_only[0] = PathBuf::from(r"\\?\C:\Users\u\AppData\Local\PDFAgent\pdfagent.exe");
        p.read_only[2] = PathBuf::from(r"\\?\C:\Users\u\AppData\Local\PDFAgent\runtime");
        let g = grants(&p);
        assert_eq!(g.len(), 5, "{g:#?}");
        assert!(g[..3].iter().all(|g| g.lifetime == Lifetime::Kept));
        assert_eq!(g[0].access, Access::ReadExecute);
        assert_eq!(g[3].lifetime, Lifetime::ForTheRun);
    }

    #[test]
    fn a_runtime_outside_the_install_folder_gets_its_own_kept_grant() {
        let mut p = plan(None);
        p.read_only[2] = PathBuf::from(r"C:\src\pdfagent\python-runtime\dist");
        p.code[2] = p.read_only[2].clone();
        let g = grants(&p);
        assert_eq!(g.len(), 4, "{g:#?}");
        assert!(g[..3].iter().all(|g| g.lifetime == Lifetime::Kept));
        assert_eq!(g[3].lifetime, Lifetime::WithTheRunDir);
    }

    #[test]
    fn a_file_grant_inherits_nothing() {
        assert_eq!(
            Access::ReadExecute.file_entries(),
            [(Access::ReadExecute.mask(), 0)]
        );
    }

    #[test]
    fn paths_compare_as_windows_compares_them() {
        let dir = Path::new(r"C:\Program Files\PDFAgent");
        assert!(within(Path::new(r"c:\program files\pdfagent\runtime"), dir));
        assert!(within(Path::new(r"C:/Program Files/PDFAgent/"), dir));
        assert!(within(dir, dir));
        assert!(!within(Path::new(r"C:\Program Files\PDFAgent2"), dir));
        assert!(!within(Path::new(r"C:\Program Files"), dir));
        // `canonicalize` (the plan's exe folder) gives verbatim paths.
        assert!(within(
            Path::new(r"\\?\C:\Program Files\PDFAgent\runtime"),
            dir
        ));
        assert!(within(
            Path::new(r"\\?\UNC\srv\share\data"),
            Path::new(r"\\srv\share")
        ));
        assert!(!within(Path::new(r"\\?\D:\Program Files\PDFAgent"), dir));
    }

    #[test]
    fn no_grant_without_a_run_directory() {
        let mut p = plan(None);
        p.read_write.clear();
        assert!(grants(&p).is_empty());
    }

    #[test]
    fn dacl_check_reads_program_files_acls() {
        let container = app_container_sid(PROFILE_NAME);
        // `Program Files\PDFAgent` as a per-machine MSI leaves it (inherited from
        // `Program Files`): every AppContainer reads and executes.
        let program_files = "O:SYG:SYD:AI(A;OICIIO;GA;;;CO)(A;ID;0x1301bf;;;SY)\
             (A;OICIIOID;GA;;;SY)(A;ID;0x1200a9;;;BU)(A;ID;0x1200a9;;;AC)(A;OICIIOID;GXGR;;;AC)";
        assert!(dacl_allows(
            program_files,
            &container,
            Access::ReadExecute.mask()
        ));
        // A per-user folder under %LOCALAPPDATA%: only the user, SYSTEM, Administrators.
        let local = "O:S-1-5-21-1-2-3-1001D:(A;OICIID;FA;;;SY)(A;OICIID;FA;;;BA)\
             (A;OICIID;FA;;;S-1-5-21-1-2-3-1001)";
        assert!(!dacl_allows(local, &container, Access::ReadExecute.mask()));
        // After our grant.
        let granted = format!("{local}(A;OICI;0x1200a9;;;{container})");
        assert!(dacl_allows(
            &granted,
            &container,
            Access::ReadExecute.mask()
        ));
        // Another container's grant is not ours.
        let other = format!("{local}(A;OICI;0x1200a9;;;{})", app_container_sid("x"));
        assert!(!dacl_allows(&other, &container, Access::ReadExecute.mask()));
        // Read alone is not read and execute; an inherit-only ACE does not cover the folder.
        let read_only = format!("{local}(A;OICI;FR;;;AC)");
        assert!(!dacl_allows(
            &read_only,
            &container,
            Access::ReadExecute.mask()
        ));
        assert!(dacl_allows(&read_only, &container, Access::Read.mask()));
        let inherit_only = format!("{local}(A;OICIIO;GRGX;;;AC)");
        assert!(!dacl_allows(&inherit_only, &container, Access::Read.mask()));
        // A deny for all application packages wins.
        let denied = format!("D:(D;;FA;;;AC)(A;;FA;;;{container})");
        assert!(!dacl_allows(&denied, &container, Access::Read.mask()));
        // The SACL part is not read as DACL.
        let sacl_only = format!("D:(A;;FA;;;SY)S:(A;;FA;;;{container})");
        assert!(!dacl_allows(&sacl_only, &container, Access::Read.mask()));
        assert!(!dacl_allows("O:SY", &container, Access::Read.mask()));
    }

    #[test]
    fn environment_block_is_sorted_deduplicated_and_double_nul_terminated() {
        let vars = vec![
            ("b".to_owned(), "2".to_owned()),
            ("SystemRoot".to_owned(), r"C:\Windows".to_owned()),
            ("A".to_owned(), "1".to_owned()),
            ("SYSTEMROOT".to_owned(), r"D:\Win".to_owned()),
            ("=C:".to_owned(), r"C:\".to_owned()),
            ("".to_owned(), "x".to_owned()),
            ("Pfad".to_owned(), "Ä ü".to_owned()),
        ];
        let block = environment_block(&vars);
        let text = String::from_utf16(&block).unwrap();
        assert_eq!(text, "A=1\0b=2\0Pfad=Ä ü\0SYSTEMROOT=D:\\Win\0\0");
        assert_eq!(environment_block(&[]), vec![0, 0]);
    }

    #[test]
    fn the_stop_event_is_per_run_and_stays_with_the_launcher() {
        let a = stop_event_name(42, Path::new(r"C:\T\pdfagent-run-a"));
        let b = stop_event_name(42, Path::new(r"C:\T\pdfagent-run-b"));
        assert!(a.starts_with(r"Local\pdfagent-stop-42-"), "{a}");
        assert_ne!(a, b);
        assert!(!a[6..].contains('\\'), "one name, no sub-namespace: {a}");
        let vars = contained_vars(
            vec![
                ("pdfagent_stop".into(), a.clone()),
                ("TEMP".into(), r"C:\T\run".into()),
            ],
            r"C:\T\run\script.py",
            "{}",
        );
        assert!(!vars.iter().any(|(_, v)| *v == a), "{vars:?}");
        let names: Vec<&str> = vars.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(
            names,
            ["TEMP", "PDFAGENT_PYRUN", "PDFAGENT_CONFINE", CONTAINED_ENV]
        );
    }

    #[test]
    fn command_line_quotes_the_executable() {
        assert_eq!(
            command_line(r"C:\Program Files\PDFAgent\pdfagent.exe"),
            r#""C:\Program Files\PDFAgent\pdfagent.exe""#
        );
    }

    #[test]
    fn a_reused_host_id_is_not_the_host() {
        assert!(is_the_host(100, 200));
        assert!(is_the_host(200, 200));
        assert!(!is_the_host(300, 200));
    }

    #[test]
    fn the_worker_environment_points_only_into_the_writable_run_directory() {
        let p = plan(Some(r"D:\Daten"));
        let run_dir = p.read_write[0].clone();
        let env = child_env(
            TargetOs::Windows,
            &BTreeMap::from([("SystemRoot".to_owned(), r"C:\Windows".to_owned())]),
            &RunDirs {
                run_dir: run_dir.clone(),
                mpl_config_dir: PathBuf::from(format!(r"{}\mplconfig", run_dir.display())),
            },
        );
        assert_eq!(env["SystemRoot"], r"C:\Windows");
        let full: Vec<Grant> = grants(&p)
            .into_iter()
            .filter(|g| g.access == Access::Full)
            .collect();
        for var in ["TEMP", "TMP", "MPLCONFIGDIR", "HOME", "USERPROFILE"] {
            let value = &env[var];
            assert!(
                full.iter()
                    .any(|g| value.starts_with(&*g.path.to_string_lossy())),
                "`{var}={value}` is not inside a folder the container may write"
            );
        }
    }

    const USER: &str = "S-1-5-21-1-2-3-1001";

    /// The worker's objects as the launcher sets them up for the plan's run.
    fn contained(caps: Vec<String>, job: Option<JobFacts>) -> Observed {
        let sddl = worker_object_sddl(USER, &plan(None).read_write[0]);
        Observed {
            app_container: Some(app_container_sid(PROFILE_NAME)),
            capabilities: caps,
            job,
            process_dacl: Some(sddl.clone()),
            thread_dacl: Some(sddl.clone()),
            default_dacl: Some(sddl),
        }
    }

    /// Issue 27: two workers at once (a figure and the window's warm worker) share the
    /// profile's package SID; only this run's capability may open this run's objects.
    #[test]
    fn a_worker_can_open_itself_and_no_other_worker_can() {
        let run_a = Path::new(r"C:\T\pdfagent-run-a");
        let run_b = Path::new(r"C:\T\pdfagent-run-b");
        let cap_a = capabilities(run_a).remove(0);
        let cap_b = capabilities(run_b).remove(0);
        let package = app_container_sid(PROFILE_NAME);
        let sddl = worker_object_sddl(USER, run_a);
        assert_eq!(
            sddl,
            format!("D:P(A;;GA;;;SY)(A;;GA;;;{USER})(A;;GA;;;{cap_a})(A;;RC;;;OW)")
        );
        // The AppContainer half: worker A's own capability gets in, worker B's does not,
        // nor does the package SID both hold or `ALL APPLICATION PACKAGES`.
        assert!(dacl_allows(&sddl, &cap_a, FILE_ALL_ACCESS));
        assert!(!dacl_allows(&sddl, &cap_b, 0x1));
        assert!(!dacl_allows(&sddl, &package, 0x1));
        assert!(open_to_other_containers(&sddl, Some(&cap_a)).is_empty());
        // The user half: the host and the launcher (the user, medium integrity) and
        // SYSTEM keep their access; the owner's implicit rights shrink to reading the
        // descriptor (no WRITE_DAC: no rewriting it); nothing else is named.
        const WRITE_DAC: u32 = 0x0004_0000;
        let granted: Vec<(String, u32)> = aces(dacl_part(&sddl).unwrap())
            .map(|ace| {
                let f: Vec<&str> = ace.split(';').collect();
                (f[5].to_owned(), rights_mask(f[2]))
            })
            .collect();
        assert_eq!(granted.len(), 4, "{granted:?}");
        let owner = granted
            .iter()
            .find(|(t, _)| t == "OW")
            .expect("OWNER RIGHTS");
        assert_ne!(owner.1, 0);
        assert_eq!(
            owner.1 & WRITE_DAC,
            0,
            "the owner must not rewrite the DACL"
        );
        for (trustee, _) in &granted {
            assert!(["SY", USER, cap_a.as_str(), "OW"].contains(&trustee.as_str()));
        }
        // Seen from run B's side, A's objects are another run's.
        assert_eq!(
            open_to_other_containers(&sddl, Some(&cap_b)),
            [cap_a.as_str()]
        );
    }

    #[test]
    fn the_default_lowbox_dacl_lets_every_worker_in() {
        let package = app_container_sid(PROFILE_NAME);
        let own = capabilities(Path::new(r"C:\T\pdfagent-run-a")).remove(0);
        // The shape of an AppContainer process's default DACL: user, SYSTEM, logon
        // session, and the package SID every worker of the profile holds.
        let lowbox = format!(
            "D:(A;;GA;;;{USER})(A;;GA;;;SY)(A;;GXGR;;;S-1-5-5-0-123456)(A;;GA;;;{package})"
        );
        assert_eq!(
            open_to_other_containers(&lowbox, Some(&own)),
            [package.as_str()]
        );
        let all_packages = format!("D:(A;;GA;;;{USER})(A;;0x1fffff;;;AC)(A;;GA;;;{own})");
        assert_eq!(open_to_other_containers(&all_packages, Some(&own)), ["AC"]);
        let network_cap = format!("D:(A;;GA;;;{USER})(A;;GA;;;S-1-15-3-1)");
        assert_eq!(
            open_to_other_containers(&network_cap, Some(&own)),
            ["S-1-15-3-1"]
        );
        // Not AppContainer SIDs, and a deny: nothing for the AppContainer half.
        let plain = format!("D:(A;;GA;;;WD)(A;;GA;;;BA)(D;;GA;;;{package})(A;;GA;;;{own})");
        assert!(open_to_other_containers(&plain, Some(&own)).is_empty());
        // Without a run there is no own capability: every capability is another's.
        assert_eq!(open_to_other_containers(&plain, None), [own.as_str()]);
        // No DACL, or a null one, lets everyone in.
        assert_eq!(
            open_to_other_containers("O:SY", None),
            ["everyone (no DACL)"]
        );
        assert_eq!(
            open_to_other_containers("D:NO_ACCESS_CONTROL", Some(&own)),
            ["everyone (a null DACL)"]
        );
        assert_eq!(
            open_to_other_containers("D:PNO_ACCESS_CONTROL", Some(&own)),
            ["everyone (a null DACL)"]
        );
    }

    #[test]
    fn report_names_a_worker_object_open_to_other_workers() {
        let p = plan(None);
        let good = contained(capabilities(&p.read_write[0]), Some(full_job()));
        let r = describe(&good, &p);
        assert!(
            r.summary.contains("other workers kept out"),
            "{}",
            r.summary
        );
        assert!(
            !r.missing.iter().any(|m| m.starts_with("other workers")),
            "{r:?}"
        );
        let package = app_container_sid(PROFILE_NAME);
        let leaky = Observed {
            default_dacl: Some(format!("D:(A;;GA;;;{USER})(A;;GA;;;{package})")),
            thread_dacl: None,
            ..good
        };
        let r = describe(&leaky, &p);
        let line = r
            .missing
            .iter()
            .find(|m| m.starts_with("other workers kept out"))
            .unwrap_or_else(|| panic!("{r:?}"));
        assert!(
            line.contains(&format!("default DACL lets in {package}")),
            "{line}"
        );
        assert!(line.contains("the thread DACL could not be read"), "{line}");
    }

    fn full_job() -> JobFacts {
        JobFacts {
            kill_on_close: true,
            active_process_limit: Some(1),
            memory_bytes: Some(4 << 30),
            cpu_seconds: Some(120),
        }
    }

    #[test]
    fn report_names_what_the_token_and_job_enforce() {
        let p = plan(None);
        let r = describe(
            &contained(capabilities(&p.read_write[0]), Some(full_job())),
            &p,
        );
        assert!(r.summary.contains("AppContainer"), "{}", r.summary);
        assert!(r.summary.contains("no network capability"), "{}", r.summary);
        assert!(r.summary.contains("no child processes"), "{}", r.summary);
        // The file-size limit is the one thing a job cannot do: reported, never hidden.
        assert_eq!(r.missing.len(), 1, "{:?}", r.missing);
        assert!(r.missing[0].starts_with("file-size limit"));
        assert!(!r.fully_enforced);
    }

    #[test]
    fn report_flags_a_network_capability_a_missing_job_and_no_container() {
        let p = plan(None);
        let r = describe(&contained(vec!["S-1-15-3-1".into()], None), &p);
        assert!(
            r.missing.iter().any(|m| m.starts_with("network deny")),
            "{r:?}"
        );
        assert!(
            r.missing.iter().any(|m| m.starts_with("job object")),
            "{r:?}"
        );
        let mut weak = full_job();
        weak.active_process_limit = Some(5);
        weak.kill_on_close = false;
        let r = describe(&contained(vec![], Some(weak)), &p);
        assert!(
            r.missing.iter().any(|m| m.starts_with("process limit")),
            "{r:?}"
        );
        assert!(
            r.missing.iter().any(|m| m.starts_with("kill-on-close")),
            "{r:?}"
        );
        let r = describe(&Observed::default(), &p);
        assert!(
            r.summary
                .starts_with("confinement: none — the worker is not in an AppContainer"),
            "{}",
            r.summary
        );
        let wrong = Observed {
            app_container: Some(app_container_sid("someone.else")),
            ..Observed::default()
        };
        let r = describe(&wrong, &p);
        assert!(
            r.missing
                .iter()
                .any(|m| m.contains("expected AppContainer")),
            "{r:?}"
        );
    }
}
