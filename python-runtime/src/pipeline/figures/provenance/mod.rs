//! Provenance: how a figure was made, carried inside the figure file itself — the exact
//! checked code, the data files it read (relative path, size, SHA-256), the figure's name
//! and format, the versions of PDFAgent and of the runtime's libraries, the limits and the
//! time, and what the run-time guard refused while the code ran. Never the data themselves, and no absolute path: the data folder appears by its
//! name only.
//!
//! Trust: the record is written by the PARENT, after the figure passed validation, when it
//! is saved (`capture::keep_figures`). The worker only says which files the code opened
//! (`inputs` in its manifest, recorded by an audit hook and by `srcpath`/`load`); the parent
//! resolves each inside `SRC` and hashes it itself. Library versions come from the runtime's
//! own `runtime-manifest.json`. A record read back from a file is untrusted input like any
//! other: [`extract`] checks its shape and its code hash, and re-running it
//! (`pipeline::make_figure`) passes Layer 1 and Layer 2 again.
//!
//! One embedding per format ([`png`], [`svg`], [`pdf`]); JPEG figures (kept only when the
//! code itself saved one) carry no record.

mod file_id;
pub mod folder;
pub mod hashes;
mod pdf;
mod png;
mod svg;

use super::format::FigureFormat;
use crate::contract::GuardRefusal;
use crate::pipeline::{Limits, MAX_CODE_BYTES, name};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Component, Path, PathBuf};

/// The record's format version.
pub const SCHEMA: u32 = 1;
/// Most data files recorded per run (the worker lists at most this many too).
pub const MAX_INPUTS: usize = 64;
/// Hashing stops past this many bytes in all (files after it are listed without a hash).
pub const MAX_HASHED_BYTES: u64 = 512 << 20;
/// Largest record read back: the largest code accepted plus room for the rest.
pub const MAX_RECORD_BYTES: usize = MAX_CODE_BYTES * 2 + (64 << 10);
/// Longest relative input path kept.
const MAX_PATH_CHARS: usize = 1024;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{0}")]
    Malformed(String),
    #[error(
        "the figure's provenance record was altered or damaged ({0}); it is not trusted: \
         make the figure again from its code"
    )]
    Tampered(String),
    #[error(
        "the figure's provenance record is larger than {MAX_RECORD_BYTES} bytes; it is not read"
    )]
    TooLarge,
    #[error("JPEG figures carry no provenance record; make the figure as PNG, SVG or PDF")]
    Unsupported,
    #[error("could not read the figure `{}`: {source}", .path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("`{}` is not a figure PDFAgent makes (PNG, SVG or PDF): pass a figure file", .path.display())]
    NotAFigure { path: PathBuf },
}

/// One data file as the run saw it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Input {
    /// Relative to the data folder, with `/`.
    pub path: String,
    pub bytes: u64,
    /// Lower-case hex; `None` when hashing stopped at [`MAX_HASHED_BYTES`].
    pub sha256: Option<String>,
}

/// The limits a run had, in the units the command line takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordedLimits {
    pub timeout_s: u64,
    pub memory_mb: u64,
}

/// Everything embedded in a figure.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Provenance {
    pub schema: u32,
    /// The PDFAgent version that made the figure.
    pub pdfagent: String,
    /// The name the figure was requested under (`make-figure --name`).
    pub name: String,
    /// The file this record is in (`NAME-2.png` for a run's second figure).
    pub file: String,
    pub format: FigureFormat,
    /// When the figure was saved, UTC, RFC 3339.
    pub created: String,
    /// The data folder's own name (never its path).
    pub data_folder: String,
    pub inputs: Vec<Input>,
    /// More files were opened than [`MAX_INPUTS`], or hashing stopped: the list is partial.
    #[serde(default)]
    pub inputs_partial: bool,
    pub limits: RecordedLimits,
    /// `python` and each runtime library, with its version.
    pub runtime: BTreeMap<String, String>,
    pub code_sha256: String,
    /// The exact checked code that ran.
    pub code: String,
    /// What the run-time guard refused while the code ran (`worker/guard.py`), as the
    /// worker reported it: the figure was made by code that tried these and went on
    /// without them. Absent (and so not written) when nothing was refused, so records of
    /// runs without refusals — and those made before the guard — read the same.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub guard: Vec<GuardRefusal>,
}

/// What the parent knows of a run before the worker starts: fixed by the request.
#[derive(Debug, Clone)]
pub struct Origin {
    pub name: String,
    pub code: String,
    /// The resolved data folder.
    pub src: PathBuf,
    pub limits: Limits,
    /// What the run-time guard refused during the run (the worker's answer, checked).
    pub guard: Vec<GuardRefusal>,
}

impl Origin {
    /// The record for one kept figure, from the files the worker said the code opened.
    pub fn record(&self, inputs: &Recorded, file: &str, format: FigureFormat) -> Provenance {
        Provenance {
            schema: SCHEMA,
            pdfagent: env!("CARGO_PKG_VERSION").to_owned(),
            name: self.name.clone(),
            file: file.to_owned(),
            format,
            created: rfc3339(std::time::SystemTime::now()),
            data_folder: self
                .src
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
            inputs: inputs.inputs.clone(),
            inputs_partial: inputs.partial,
            limits: RecordedLimits {
                timeout_s: self.limits.timeout.as_secs(),
                memory_mb: self.limits.memory_bytes >> 20,
            },
            runtime: runtime_versions(),
            code_sha256: sha256_hex(self.code.as_bytes()),
            code: self.code.clone(),
            guard: self.guard.clone(),
        }
    }
}

/// The data files of a run, hashed by the parent.
#[derive(Debug, Clone, Default)]
pub struct Recorded {
    pub inputs: Vec<Input>,
    pub partial: bool,
}

/// A relative path the worker named, as a path inside `src`, or `None` when it is not a
/// plain relative path to a regular file that stays inside `src` after resolving links.
pub fn resolve_input(src: &Path, rel: &str) -> Option<PathBuf> {
    if rel.is_empty() || rel.len() > MAX_PATH_CHARS || rel.contains('\0') || rel.contains('\\') {
        return None;
    }
    let path = Path::new(rel);
    if !path.components().all(|c| matches!(c, Component::Normal(_))) {
        return None;
    }
    let real = src.join(path).canonicalize().ok()?;
    let src = src.canonicalize().ok()?;
    (real.starts_with(&src) && real.is_file()).then_some(real)
}

/// Size and SHA-256 of the files the worker named, computed here: at most [`MAX_INPUTS`],
/// each resolved inside `src`, hashing stopped past [`MAX_HASHED_BYTES`] read in all. Hashes
/// of files provably unchanged since this host last hashed them come from its cache
/// ([`hashes`]) and read nothing.
pub fn hash_inputs(src: &Path, named: &[String]) -> Recorded {
    hash_inputs_with(hashes::host(), src, named)
}

/// [`hash_inputs`] with the given cache.
pub fn hash_inputs_with(cache: &hashes::HashCache, src: &Path, named: &[String]) -> Recorded {
    let mut recorded = Recorded::default();
    let mut budget = MAX_HASHED_BYTES;
    let mut seen = std::collections::BTreeSet::new();
    let mut session = cache.session(src);
    for rel in named {
        if recorded.inputs.len() >= MAX_INPUTS {
            recorded.partial = true;
            break;
        }
        if !seen.insert(rel.as_str()) {
            continue;
        }
        let Some(path) = resolve_input(src, rel) else {
            continue;
        };
        let Ok(bytes) = path.metadata().map(|m| m.len()) else {
            continue;
        };
        let sha256 = match session.sha256(&path, budget) {
            Ok(Some(hashed)) => {
                if let hashes::Hashed::Computed(_, read) = hashed {
                    budget = budget.saturating_sub(read);
                }
                Some(hashed.sha256().to_owned())
            }
            Ok(None) => {
                recorded.partial = true;
                None
            }
            Err(_) => None,
        };
        recorded.inputs.push(Input {
            path: rel.clone(),
            bytes,
            sha256,
        });
    }
    session.finish();
    recorded
}

fn file_sha256(path: &Path) -> std::io::Result<String> {
    let mut file = std::fs::File::open(path)?;
    Ok(hashes::read_sha256(&mut file)?.0)
}

pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// `python` and the runtime's distributions with their versions, from the runtime's own
/// manifest (written by the runtime builder); empty when it cannot be read.
pub fn runtime_versions() -> BTreeMap<String, String> {
    static VERSIONS: std::sync::OnceLock<BTreeMap<String, String>> = std::sync::OnceLock::new();
    VERSIONS
        .get_or_init(|| {
            crate::locate::runtime_dir()
                .ok()
                .and_then(|dir| std::fs::read(dir.join(crate::locate::MARKER)).ok())
                .map(|bytes| versions_from_manifest(&bytes))
                .unwrap_or_default()
        })
        .clone()
}

/// The versions worth recording: Python and the distributions the policy and the loaders
/// use (not every helper package).
fn versions_from_manifest(bytes: &[u8]) -> BTreeMap<String, String> {
    #[derive(Deserialize)]
    struct Manifest {
        #[serde(default)]
        python: Option<String>,
        #[serde(default)]
        policy_distributions: Vec<String>,
        #[serde(default)]
        runtime_extra: Vec<String>,
        #[serde(default)]
        distributions: BTreeMap<String, String>,
    }
    let Ok(manifest) = serde_json::from_slice::<Manifest>(bytes) else {
        return BTreeMap::new();
    };
    let mut out = BTreeMap::new();
    if let Some(python) = manifest.python {
        out.insert("python".to_owned(), python);
    }
    for name in manifest
        .policy_distributions
        .iter()
        .chain(&manifest.runtime_extra)
    {
        if let Some(version) = manifest.distributions.get(name) {
            out.insert(name.clone(), version.clone());
        }
    }
    out
}

/// The JSON embedded in the file: compact, one line.
pub fn to_json(provenance: &Provenance) -> String {
    // Strings, numbers and maps of strings: serialisation cannot fail.
    serde_json::to_string(provenance).unwrap_or_default()
}

/// The figure's bytes with `provenance` embedded (any record already in them replaced).
pub fn embed(
    bytes: &[u8],
    format: FigureFormat,
    provenance: &Provenance,
) -> Result<Vec<u8>, Error> {
    let json = to_json(provenance);
    if json.len() > MAX_RECORD_BYTES {
        return Err(Error::TooLarge);
    }
    match format {
        FigureFormat::Png => png::embed(bytes, &json),
        FigureFormat::Svg => svg::embed(bytes, &json),
        FigureFormat::Pdf => pdf::embed(bytes, &json),
        FigureFormat::Jpeg => Err(Error::Unsupported),
    }
}

/// The record embedded in a figure: `None` when it has none, an error when the record is
/// damaged, altered or not of the shape [`embed`] writes.
pub fn extract(bytes: &[u8], format: FigureFormat) -> Result<Option<Provenance>, Error> {
    let json = match format {
        FigureFormat::Png => png::extract(bytes)?,
        FigureFormat::Svg => svg::extract(bytes)?,
        FigureFormat::Pdf => pdf::extract(bytes)?,
        FigureFormat::Jpeg => return Err(Error::Unsupported),
    };
    let Some(json) = json else {
        return Ok(None);
    };
    if json.len() > MAX_RECORD_BYTES {
        return Err(Error::TooLarge);
    }
    let provenance: Provenance = serde_json::from_str(&json)
        .map_err(|e| Error::Tampered(format!("the record is not valid: {e}")))?;
    check(&provenance, format)?;
    Ok(Some(provenance))
}

/// A record read back is untrusted: its fields must have the shapes this module writes.
fn check(p: &Provenance, format: FigureFormat) -> Result<(), Error> {
    let tampered = |why: String| Err(Error::Tampered(why));
    if p.schema != SCHEMA {
        return tampered(format!("schema {} is not {SCHEMA}", p.schema));
    }
    if p.format != format {
        return tampered(format!("it says {}, the file is {format}", p.format));
    }
    if name::check_kept_name(&p.name).is_err() {
        return tampered("its figure name is not one PDFAgent saves".into());
    }
    if p.code.len() > MAX_CODE_BYTES {
        return tampered("the code is larger than PDFAgent accepts".into());
    }
    if sha256_hex(p.code.as_bytes()) != p.code_sha256 {
        return tampered("the code does not match its recorded SHA-256".into());
    }
    if p.guard.len() > GuardRefusal::MAX || p.guard.iter().any(|r| r.clone().checked().is_none()) {
        return tampered("its list of the guard's refusals is not one PDFAgent writes".into());
    }
    if p.inputs.len() > MAX_INPUTS {
        return tampered(format!("more than {MAX_INPUTS} data files are listed"));
    }
    for input in &p.inputs {
        let plain = !input.path.is_empty()
            && input.path.len() <= MAX_PATH_CHARS
            && !input.path.contains(['\0', '\\'])
            && Path::new(&input.path)
                .components()
                .all(|c| matches!(c, Component::Normal(_)));
        if !plain {
            return tampered(format!(
                "the data file path {:?} is not a plain relative path",
                input.path.escape_debug().to_string()
            ));
        }
        let hash_ok = input
            .sha256
            .as_deref()
            .is_none_or(|h| h.len() == 64 && h.bytes().all(|b| b.is_ascii_hexdigit()));
        if !hash_ok {
            return tampered(format!("the SHA-256 of {:?} is not a hash", input.path));
        }
    }
    Ok(())
}

/// A data file now, against the record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum InputState {
    Unchanged,
    Changed,
    Missing,
    /// Recorded without a hash (hashing stopped): the size matches, the content is not known.
    Unknown,
}

/// Each recorded input compared with the file of the same relative path under `src`.
pub fn compare_inputs(p: &Provenance, src: &Path) -> Vec<(Input, InputState)> {
    p.inputs
        .iter()
        .map(|input| {
            let state = match resolve_input(src, &input.path) {
                None => InputState::Missing,
                Some(path) => match path.metadata().map(|m| m.len()) {
                    Ok(bytes) if bytes != input.bytes => InputState::Changed,
                    Ok(_) => match &input.sha256 {
                        None => InputState::Unknown,
                        Some(recorded) => match file_sha256(&path) {
                            Ok(now) if &now == recorded => InputState::Unchanged,
                            Ok(_) => InputState::Changed,
                            Err(_) => InputState::Missing,
                        },
                    },
                    Err(_) => InputState::Missing,
                },
            };
            (input.clone(), state)
        })
        .collect()
}

/// Whether any input changed or is gone.
pub fn is_stale(states: &[(Input, InputState)]) -> bool {
    states
        .iter()
        .any(|(_, s)| matches!(s, InputState::Changed | InputState::Missing))
}

/// Largest figure file read back for its record.
const MAX_FIGURE_FILE: u64 = 64 << 20;

/// Read a figure file and its record.
pub fn read(path: &Path) -> Result<(FigureFormat, Option<Provenance>), Error> {
    let format = FigureFormat::of_path(path).ok_or_else(|| Error::NotAFigure {
        path: path.to_path_buf(),
    })?;
    let fail = |source| Error::Read {
        path: path.to_path_buf(),
        source,
    };
    let file = std::fs::File::open(path).map_err(fail)?;
    let mut bytes = Vec::new();
    file.take(MAX_FIGURE_FILE + 1)
        .read_to_end(&mut bytes)
        .map_err(fail)?;
    if bytes.len() as u64 > MAX_FIGURE_FILE {
        return Err(Error::Malformed(format!(
            "`{}` is larger than {} MB, more than any figure PDFAgent makes",
            path.display(),
            MAX_FIGURE_FILE >> 20
        )));
    }
    if format == FigureFormat::Jpeg {
        return Ok((format, None));
    }
    Ok((format, extract(&bytes, format)?))
}

/// A short account for result texts: what the record holds.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
#[ts(rename = "ProvenanceSummary")]
pub struct Summary {
    /// The data files, relative to the data folder.
    pub inputs: Vec<String>,
    pub inputs_partial: bool,
    pub code_sha256: String,
    /// Bytes the record added to the file.
    pub embedded_bytes: u64,
    /// How many attempts the run-time guard refused (the record lists them).
    pub guard_refusals: u32,
}

impl Summary {
    pub fn of(p: &Provenance, embedded_bytes: u64) -> Summary {
        Summary {
            inputs: p.inputs.iter().map(|i| i.path.clone()).collect(),
            inputs_partial: p.inputs_partial,
            code_sha256: p.code_sha256.clone(),
            embedded_bytes,
            guard_refusals: u32::try_from(p.guard.len()).unwrap_or(u32::MAX),
        }
    }

    /// One line: "Provenance embedded (2,345 bytes): code sha256 1a2b3c4d…, data: a.csv, b.mat."
    pub fn line(&self) -> String {
        let data = if self.inputs.is_empty() {
            "no data files recorded".to_owned()
        } else {
            let mut shown: Vec<&str> = self.inputs.iter().take(8).map(String::as_str).collect();
            if self.inputs.len() > 8 {
                shown.push("…");
            }
            format!("data: {}", shown.join(", "))
        };
        let guard = match self.guard_refusals {
            0 => String::new(),
            1 => ", 1 attempt the run-time guard refused".to_owned(),
            n => format!(", {n} attempts the run-time guard refused"),
        };
        format!(
            "Provenance embedded ({} bytes): code sha256 {}…, {data}{}{guard}.",
            self.embedded_bytes,
            &self.code_sha256[..self.code_sha256.len().min(12)],
            if self.inputs_partial {
                " (partial)"
            } else {
                ""
            }
        )
    }
}

/// `time` as RFC 3339 in UTC, to the second.
pub fn rfc3339(time: std::time::SystemTime) -> String {
    let secs = time
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let (days, rem) = (secs / 86_400, secs % 86_400);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests;
