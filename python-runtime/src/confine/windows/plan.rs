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
    vars.push((crate::wire::ENV_PYRUN.into(), script.into()));
    vars.push((crate::wire::ENV_CONFINE.into(), plan_json.into()));
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
    #[cfg(test)]
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
    let Some(run_dir) = plan.read_write.first() else {
        return Vec::new();
    };
    let run = capability_sid(&run_capability_name(run_dir));
    let mut out: Vec<Grant> = plan
        .read_only
        .iter()
        .map(|path| {
            kept_grant(plan, path).unwrap_or_else(|| Grant {
                path: path.clone(),
                sid: run.clone(),
                access: Access::Read,
                lifetime: Lifetime::ForTheRun,
                low_label: false,
            })
        })
        .collect();
    for path in &plan.read_write {
        out.push(Grant {
            path: path.clone(),
            sid: run.clone(),
            access: Access::Full,
            lifetime: Lifetime::WithTheRunDir,
            low_label: true,
        });
    }
    without_covered(out)
}

/// The lasting grants alone (the executable, its loader DLLs, the runtime): what the
/// installer's `pdfagent grant-runtime` makes once, so no run has to. Needs no run.
pub fn kept_grants(plan: &ConfinePlan) -> Vec<Grant> {
    let kept = plan
        .read_only
        .iter()
        .filter_map(|path| kept_grant(plan, path))
        .collect();
    without_covered(kept)
}

/// The kept grant of `path` when it is (inside) the plan's code.
fn kept_grant(plan: &ConfinePlan, path: &Path) -> Option<Grant> {
    plan.code
        .iter()
        .any(|code| within(path, code))
        .then(|| Grant {
            path: path.to_path_buf(),
            sid: app_container_sid(PROFILE_NAME),
            access: Access::ReadExecute,
            lifetime: Lifetime::Kept,
            low_label: false,
        })
}

/// Drop a grant already covered by one on a folder above it, of the same SID and at least
/// the same rights (the folder's ACE is inherited), and exact repeats.
fn without_covered(mut out: Vec<Grant>) -> Vec<Grant> {
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
    let (path, dir) = (compare_form(path), compare_form(dir));
    path == dir || path.starts_with(&format!("{dir}\\"))
}

/// A path as Windows compares it: lower case, `\` only, no verbatim prefix, no trailing
/// separator.
fn compare_form(p: &Path) -> String {
    let text = p.to_string_lossy().replace('/', "\\").to_lowercase();
    let text = if let Some(unc) = text.strip_prefix(r"\\?\unc\") {
        format!(r"\\{unc}")
    } else {
        text.strip_prefix(r"\\?\").unwrap_or(&text).to_owned()
    };
    text.trim_end_matches('\\').to_owned()
}

/// The named mutex every PDFAgent process takes before it edits `path`'s DACL: a DACL
/// change is a read-modify-write, and two processes (the window and the MCP server, or
/// two canaries) granting the same folder at once would otherwise each write back a DACL
/// without the other's entry. One name per path as Windows compares paths, so edits of
/// different folders still run side by side. In the session's `Local\` namespace, which
/// an AppContainer cannot reach (its names are redirected to its own folder).
pub fn grant_lock_name(path: &Path) -> String {
    let digest = Sha256::digest(compare_form(path).as_bytes());
    let hex: String = digest[..16].iter().map(|b| format!("{b:02x}")).collect();
    format!("Local\\pdfagent-grant-{hex}")
}

/// Where a kept folder grant stands (see [`kept_grant_state`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeptGrant {
    /// The folder lets every AppContainer read already (a per-machine install under
    /// `Program Files`): nothing to write.
    NotNeeded,
    /// A grant ran to its end before: its completion marker holds the explicit ACE.
    Done,
    /// Never granted, or a grant was interrupted (the folder may hold the ACE while some
    /// files below it do not): grant (again), then mark.
    Needed,
}

/// Whether the kept grant of `sid` (`mask`) on a folder is needed. `folder_sddl`: the
/// folder's DACL; `marker_sddl`: the DACL of its completion marker, a file inside it
/// (`runtime\runtime-manifest.json`), `None` when the folder has none or it cannot be
/// read. The marker gets an **explicit** ACE for `sid` only after the folder's grant has
/// propagated to everything below it, so an interrupted first grant (the folder's own
/// entry written, half its files not) is never taken for a finished one; an inherited ACE
/// on the marker proves nothing about the files after it. Without a marker the folder's
/// own entry is all there is to go by.
pub fn kept_grant_state(
    folder_sddl: Option<&str>,
    marker_sddl: Option<&str>,
    sid: &str,
    mask: u32,
) -> KeptGrant {
    // Only `ALL APPLICATION PACKAGES` (or `AC`) counts here: an entry for the container
    // itself may be the first half of an interrupted grant.
    if folder_sddl.is_some_and(|sddl| dacl_allows(sddl, ALL_APP_PACKAGES_SID, mask)) {
        return KeptGrant::NotNeeded;
    }
    match marker_sddl {
        Some(marker) if explicitly_allows(marker, sid, mask) => KeptGrant::Done,
        Some(_) => KeptGrant::Needed,
        None if folder_sddl.is_some_and(|sddl| dacl_allows(sddl, sid, mask)) => KeptGrant::Done,
        None => KeptGrant::Needed,
    }
}

/// Whether `sddl`'s DACL holds an allow ACE of its own (not inherited: no `ID` flag) for
/// exactly `sid` with at least `mask`.
pub fn explicitly_allows(sddl: &str, sid: &str, mask: u32) -> bool {
    let Some(dacl) = dacl_part(sddl) else {
        return false;
    };
    aces(dacl).any(|ace| {
        let fields: Vec<&str> = ace.split(';').collect();
        let [kind, flags, rights, _, _, trustee] = fields[..] else {
            return false;
        };
        kind == "A"
            && !has_flag(flags, "ID")
            && !has_flag(flags, "IO")
            && trustee.eq_ignore_ascii_case(sid)
            && rights_mask(rights) & mask == mask
    })
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
    /// The job's `UIRestrictionsClass`, `None` when it could not be read.
    pub ui_restrictions: Option<u32>,
    pub kill_on_close: bool,
    pub active_process_limit: Option<u32>,
    pub memory_bytes: Option<u64>,
    pub cpu_seconds: Option<u64>,
}

/// One of the worker's DACLs that does not keep other workers out.
#[derive(Debug, thiserror::Error)]
enum DaclProblem {
    #[error("{0} DACL could not be read")]
    Unreadable(&'static str),
    #[error("{what} DACL lets in {}", sids.join(", "))]
    LetsIn {
        what: &'static str,
        sids: Vec<String>,
    },
}

/// Whether the worker's process, thread and default DACLs let only this run's worker in
/// among AppContainer tokens ([`worker_object_sddl`]); the problems when not.
fn other_workers_kept_out(observed: &Observed, plan: &ConfinePlan) -> Result<(), Vec<DaclProblem>> {
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
            None => problems.push(DaclProblem::Unreadable(what)),
            Some(sddl) => {
                let sids = open_to_other_containers(sddl, own.as_deref());
                if !sids.is_empty() {
                    problems.push(DaclProblem::LetsIn { what, sids });
                }
            }
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems)
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
                Err(problems) => {
                    let why: Vec<String> = problems.iter().map(ToString::to_string).collect();
                    missing.push(format!("other workers kept out ({})", why.join("; ")));
                }
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
            let ui_missing = super::nesting::missing_ui_limits(job.ui_restrictions);
            if ui_missing.is_empty() {
                parts.push("UI limits".to_owned());
            } else {
                // A nested job (the launcher is inside a job that forbids breakaway) may not
                // have them (nesting.rs); everything else still holds.
                missing.push(format!(
                    "job UI limits ({}; the job is nested in one that forbids breakaway)",
                    ui_missing.join(", ")
                ));
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
mod tests;
