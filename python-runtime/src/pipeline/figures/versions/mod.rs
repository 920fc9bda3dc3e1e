//! Versions: no run ever destroys a figure (issue #39).
//!
//! The figures folder keeps the latest figure of a name under its plain name (what a report
//! includes) and every earlier one in a hidden store inside the folder, so that it moves,
//! syncs and backs up with it, and a report's `\includegraphics{figures/NAME}` or a glob of
//! `*.png` never picks it up:
//!
//! ```text
//! FIGURES/.pdfagent-versions/NAME/3/NAME.png       one version: the whole group,
//!                                  /NAME-2.png     as it was in the folder
//!                                  /NAME.pdf
//!                                  /version.json   when it was submitted and kept
//! FIGURES/.pdfagent-versions/replacing.json        only while a group is being replaced
//! ```
//!
//! A version is the whole group: `NAME.png`, the extras `NAME-2…` the ownership index gives
//! the run, and `NAME.svg`/`NAME.pdf`/`NAME.jpg` — a report's `\includegraphics` picks
//! `.pdf` before `.png`, so a new run takes every other format of the old figure away from
//! the plain name too, except files of the very same figure (same code, same inputs: the
//! window's vector export of the current figure), which stay beside it.
//!
//! Every change happens under the groups lock ([`Ownership::lock`]), in an order that a
//! crash cannot turn into a loss: the old group is hard-linked (copied where links fail)
//! into a hidden `.incoming-*` folder, described, and renamed into place as version N;
//! then `replacing.json` names N and the files the run writes; then the new files go in,
//! the old ones leave the plain name, and the marker is removed. A host killed before the
//! rename leaves the current group untouched (the next lock removes the half-built folder);
//! killed after it, the next lock ([`lock`]) finds the marker and puts version N back as
//! the current group: version N stays too (a duplicate, never a loss).
//!
//! Two runs of one name at once both survive, ordered by submission time: a run that ends
//! after a later-submitted run of its name was saved goes into the store as a version
//! itself, and the later run stays current. A run's files carry its submission time as
//! their modification time, so the folder needs no bookkeeping file per name, and a name
//! that was never replaced has no store at all.

use super::format::FigureFormat;
use super::ownership::{Ownership, OwnershipError};
use super::provenance::{self, Input};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// The store's folder inside the figures folder (hidden: scans of the folder skip it).
pub const STORE: &str = ".pdfagent-versions";
/// The description of one version, inside its folder.
const META: &str = "version.json";
/// The replacement under way (at most one: they all hold the lock), at the store's root.
const REPLACING: &str = "replacing.json";
/// Prefix of a version being built; renamed to its number once complete.
const INCOMING: &str = ".incoming-";
/// The formats a group's main file may have, in the order the main file is chosen.
const MAIN_FORMATS: [FigureFormat; 4] = [
    FigureFormat::Png,
    FigureFormat::Svg,
    FigureFormat::Pdf,
    FigureFormat::Jpeg,
];

#[derive(Debug, thiserror::Error)]
pub enum VersionsError {
    #[error(transparent)]
    Ownership(#[from] OwnershipError),
    #[error("`{name}` has no version {version}: list its versions with `pdfagent versions {name}`")]
    NoSuchVersion { name: String, version: u64 },
    #[error(
        "could not {action} `{}`: {source}; check that the figures folder is writable and has \
         space", .path.display()
    )]
    Io {
        action: &'static str,
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

impl VersionsError {
    fn io(action: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> VersionsError {
        let path = path.to_path_buf();
        move |source| VersionsError::Io {
            action,
            path,
            source,
        }
    }
}

/// One file of a version.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct VersionFile {
    /// Its name in the figures folder when it was current (`fig-2.png`).
    pub file: String,
    /// Where it is kept now.
    pub path: PathBuf,
    pub bytes: u64,
}

/// The version a run (or a restore) kept of the group it replaced: the contract's
/// `replaced`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct KeptVersion {
    pub version: u64,
    /// The version's main file (`.pdfagent-versions/NAME/3/NAME.png`).
    pub path: PathBuf,
    /// Every file of the group, the main file first.
    pub files: Vec<PathBuf>,
}

/// One kept version of a name, as `versions`, MCP and the window show it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct VersionInfo {
    pub name: String,
    pub version: u64,
    /// When the run that made it was submitted (RFC 3339, UTC).
    pub submitted: String,
    /// When it stopped being the current figure (RFC 3339, UTC).
    pub kept: String,
    /// The main file (`NAME.png`, else `.svg`, `.pdf`, `.jpg`; else the first file).
    pub path: PathBuf,
    /// Every file of the group, the main file first.
    pub files: Vec<VersionFile>,
    /// All files together.
    pub bytes: u64,
    /// From the main file's embedded provenance record, when it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub code_sha256: Option<String>,
    /// When the figure was made, from the record.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub created: Option<String>,
    /// The data files the record names, relative to the data folder.
    pub inputs: Vec<String>,
    #[serde(skip)]
    submitted_ms: u64,
}

/// The store's size, for the window's Settings and `versions --json`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct StoreSize {
    pub names: usize,
    pub versions: usize,
    /// Bytes on disk: a file shared with the current group by a hard link counts once.
    pub bytes: u64,
}

/// Which versions `prune` removes: those beyond the newest `keep_last` of each name, and
/// those kept longer ago than `older_than`. Neither set: nothing.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PrunePolicy {
    pub keep_last: Option<usize>,
    pub older_than: Option<Duration>,
    /// Say what would be removed, remove nothing.
    pub dry_run: bool,
}

/// What `prune` removed (or would remove, on a dry run).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct Pruned {
    pub removed: Vec<VersionInfo>,
    pub bytes: u64,
    pub dry_run: bool,
}

/// What `restore` did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ts_rs::TS)]
pub struct Restored {
    /// The version now current again (it stays in the store too).
    pub restored: VersionInfo,
    /// The group it replaced, kept as a version (`None`: the name had no current figure).
    pub replaced: Option<KeptVersion>,
    /// The files of the name's current group now.
    pub files: Vec<PathBuf>,
}

/// What a new figure is, to tell an export of the current figure (same code, same inputs:
/// it stays beside the new file) from a new figure (which replaces every format).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fingerprint {
    pub code_sha256: String,
    pub inputs: Vec<Input>,
}

impl Fingerprint {
    fn of(p: &provenance::Provenance) -> Fingerprint {
        Fingerprint {
            code_sha256: p.code_sha256.clone(),
            inputs: p.inputs.clone(),
        }
    }
}

#[derive(Debug, Serialize, Deserialize)]
struct Meta {
    version: u64,
    submitted_ms: u64,
    kept_ms: u64,
    /// The files in the figures folder's names; the main file first.
    files: Vec<MetaFile>,
    #[serde(default)]
    code_sha256: Option<String>,
    #[serde(default)]
    created: Option<String>,
    #[serde(default)]
    inputs: Vec<String>,
}

#[derive(Debug, Serialize, Deserialize)]
struct MetaFile {
    file: String,
    bytes: u64,
}

#[derive(Debug, Serialize, Deserialize)]
struct Replacing {
    name: String,
    version: u64,
    /// The files the replacement writes under the plain name.
    written: Vec<String>,
}

/// Lock the figures folder's groups (as every run does) and first finish what a host
/// killed mid-replacement left: its version is put back as the current group.
pub fn lock(figures: &Path) -> Result<Ownership, VersionsError> {
    let mut ownership = Ownership::lock(figures)?;
    recover(&mut ownership)?;
    Ok(ownership)
}

/// The files of `name`'s current group, in the folder's names, the main file first.
pub fn current_group(ownership: &Ownership, name: &str) -> Vec<String> {
    let figures = ownership.figures();
    let mut files: Vec<String> = MAIN_FORMATS
        .iter()
        .map(|f| format!("{name}.{}", f.extension()))
        .chain(ownership.extras(name))
        .filter(|file| is_plain_file(&figures.join(file)))
        .collect();
    let mut seen = BTreeSet::new();
    files.retain(|f| seen.insert(f.clone()));
    files
}

/// Keep `name`'s whole current group as a new version (hard links; copies where links
/// fail), before the caller replaces it. `None` when the name has no current figure. The
/// caller holds the lock (`ownership`); the current group is not changed.
pub fn keep_current(
    ownership: &Ownership,
    name: &str,
) -> Result<Option<KeptVersion>, VersionsError> {
    let files = current_group(ownership, name);
    if files.is_empty() {
        return Ok(None);
    }
    let figures = ownership.figures();
    // A run sets its files' modification time to when it was submitted (see
    // `Replacement::finish`); for a figure from before versions it is when it was saved.
    let submitted_ms = modified_ms(&figures.join(&files[0]));
    let incoming = Incoming::new(figures, name)?;
    for file in &files {
        incoming.link(&figures.join(file), file)?;
    }
    fault_point("linked");
    incoming
        .finish(figures, name, &files, submitted_ms)
        .map(Some)
}

/// Every kept version of `name`, oldest submission first. A name with no store is `Ok`
/// and empty; a version whose description is unreadable is left out (it is still on disk).
pub fn list(figures: &Path, name: &str) -> Result<Vec<VersionInfo>, VersionsError> {
    let dir = name_dir(figures, name);
    let entries = match std::fs::read_dir(&dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(VersionsError::io("read the versions in", &dir)(e)),
    };
    let mut versions: Vec<VersionInfo> = entries
        .filter_map(Result::ok)
        .filter_map(|e| e.file_name().to_str()?.parse::<u64>().ok())
        .filter_map(|n| info(figures, name, n))
        .collect();
    versions.sort_by_key(|v| (v.submitted_ms, v.version));
    Ok(versions)
}

/// How many versions `name` has (a count of folders: cheap enough for every listed figure).
pub fn count(figures: &Path, name: &str) -> usize {
    std::fs::read_dir(name_dir(figures, name)).map_or(0, |entries| {
        entries
            .filter_map(Result::ok)
            .filter(|e| e.file_name().to_str().is_some_and(is_version_dir_name))
            .count()
    })
}

/// One version of `name`.
pub fn get(figures: &Path, name: &str, version: u64) -> Result<VersionInfo, VersionsError> {
    info(figures, name, version).ok_or_else(|| VersionsError::NoSuchVersion {
        name: name.to_owned(),
        version,
    })
}

/// Make `version` of `name` the current group again. The current group is kept as a
/// version first; the restored version stays in the store. The files are copied back (not
/// linked), so that editing the current figure in place can never change a version.
pub fn restore(figures: &Path, name: &str, version: u64) -> Result<Restored, VersionsError> {
    let mut ownership = lock(figures)?;
    let restored = get(figures, name, version)?;
    let wanted: Vec<String> = restored.files.iter().map(|f| f.file.clone()).collect();
    let own_extras = ownership.extras(name);
    for file in wanted.iter().filter(|f| stem_of(f) != name) {
        let path = figures.join(file);
        if std::fs::symlink_metadata(&path).is_ok() && !own_extras.contains(file) {
            return Err(OwnershipError::Taken {
                path,
                name: name.to_owned(),
            }
            .into());
        }
    }
    if let Some(owner) = super::ownership::owner_of(figures, name) {
        return Err(OwnershipError::OtherRuns {
            path: figures.join(owner.file),
            owner: owner.name,
            number: owner.number,
        }
        .into());
    }
    let replaced = keep_current(&ownership, name)?;
    if let Some(kept) = &replaced {
        write_replacing(figures, name, kept.version, &wanted)?;
    }
    put_back(&mut ownership, name, &restored)?;
    clear_replacing(figures)?;
    Ok(Restored {
        files: wanted.iter().map(|f| figures.join(f)).collect(),
        restored,
        replaced,
    })
}

/// The store's size: names, versions and bytes on disk.
pub fn store_size(figures: &Path) -> StoreSize {
    let mut size = StoreSize::default();
    let mut seen = BTreeSet::new();
    let Ok(names) = std::fs::read_dir(figures.join(STORE)) else {
        return size;
    };
    for name in names.filter_map(Result::ok) {
        let Ok(versions) = std::fs::read_dir(name.path()) else {
            continue;
        };
        let mut any = false;
        for version in versions.filter_map(Result::ok) {
            if !version
                .file_name()
                .to_str()
                .is_some_and(is_version_dir_name)
            {
                continue;
            }
            any = true;
            size.versions += 1;
            let Ok(files) = std::fs::read_dir(version.path()) else {
                continue;
            };
            for file in files.filter_map(Result::ok) {
                let Ok(meta) = file.metadata() else { continue };
                if meta.is_file() && seen.insert(file_identity(&file.path(), &meta)) {
                    size.bytes += meta.len();
                }
            }
        }
        size.names += usize::from(any);
    }
    size
}

/// Remove the versions `policy` selects, of `name` or (`None`) of every name, and say which
/// ones. Nothing else is ever removed from the store.
pub fn prune(
    figures: &Path,
    name: Option<&str>,
    policy: PrunePolicy,
) -> Result<Pruned, VersionsError> {
    let _ownership = lock(figures)?;
    let names: Vec<String> = match name {
        Some(name) => vec![name.to_owned()],
        None => names(figures),
    };
    let cutoff = policy
        .older_than
        .map(|age| now_ms().saturating_sub(u64::try_from(age.as_millis()).unwrap_or(u64::MAX)));
    let mut pruned = Pruned {
        dry_run: policy.dry_run,
        ..Pruned::default()
    };
    for name in names {
        let versions = list(figures, &name)?;
        let beyond = policy
            .keep_last
            .map_or(0, |keep| versions.len().saturating_sub(keep));
        for (i, version) in versions.into_iter().enumerate() {
            let kept_ms = read_meta(figures, &name, version.version).map_or(0, |m| m.kept_ms);
            let too_old = cutoff.is_some_and(|cutoff| kept_ms < cutoff);
            if i >= beyond && !too_old {
                continue;
            }
            if !policy.dry_run {
                let dir = version_dir(figures, &name, version.version);
                // Renamed out of the way first, so that a half-removed folder is never
                // listed as a version.
                let doomed = name_dir(figures, &name).join(format!(
                    "{INCOMING}pruned-{}-{}",
                    std::process::id(),
                    version.version
                ));
                std::fs::rename(&dir, &doomed)
                    .map_err(VersionsError::io("remove the version", &dir))?;
                std::fs::remove_dir_all(&doomed)
                    .map_err(VersionsError::io("remove the version", &doomed))?;
            }
            pruned.bytes += version.bytes;
            pruned.removed.push(version);
        }
    }
    Ok(pruned)
}

/// The names that have a folder in the store.
pub fn names(figures: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(figures.join(STORE))
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
                .filter_map(|e| e.file_name().to_str().map(str::to_owned))
                .filter(|n| !n.starts_with('.'))
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

/// A file of a version, as a path into the store: its figures folder, name and version
/// (`FIGURES/.pdfagent-versions/NAME/3/NAME.png` → `FIGURES`, `NAME`, 3).
pub fn locate(file: &Path) -> Option<(PathBuf, String, u64)> {
    let version_dir = file.parent()?;
    let version = parse_version(version_dir.file_name()?.to_str()?)?;
    let name_dir = version_dir.parent()?;
    let name = name_dir.file_name()?.to_str()?.to_owned();
    let store = name_dir.parent()?;
    (store.file_name()? == STORE)
        .then(|| (store.parent().unwrap_or(store).to_path_buf(), name, version))
}

/// The file of `version` that was `file` (`fig-2.png`) when it was current, else the
/// version's main file: how `provenance` and `rerun` read a version.
pub fn version_file(
    figures: &Path,
    name: &str,
    version: u64,
    file: Option<&str>,
) -> Result<PathBuf, VersionsError> {
    let info = get(figures, name, version)?;
    Ok(file
        .and_then(|file| info.files.iter().find(|f| f.file == file))
        .map_or(info.path, |f| f.path.clone()))
}

/// `3`, `v3` or `#3` as a version number.
pub fn parse_version(text: &str) -> Option<u64> {
    let text = text.trim();
    let digits = text
        .strip_prefix('v')
        .or_else(|| text.strip_prefix('V'))
        .or_else(|| text.strip_prefix('#'))
        .unwrap_or(text);
    digits.parse().ok().filter(|n| *n > 0)
}

/// A run's way of replacing `name`'s current group, decided under the lock by [`begin`].
pub enum Plan {
    /// Save the new files under their plain names; [`Replacement::finish`] afterwards.
    Replace(Replacement),
    /// A later-submitted run of this name is current already: save the new files into
    /// [`Incoming::dir`], then [`Incoming::finish_files`] keeps them as a version.
    Later(Incoming),
}

/// A replacement under way: the old group kept (when there was one), the marker written.
pub struct Replacement {
    figures: PathBuf,
    name: String,
    written: Vec<String>,
    /// Files of the old group that stay under the plain name (the same figure in another
    /// format); every other old file leaves it.
    staying: Vec<String>,
    old: Vec<String>,
    submitted_ms: u64,
    kept: Option<KeptVersion>,
}

/// Decide, under the lock, how a run of `name` submitted at `submitted` that writes
/// `written` (file names, the main file first) replaces the current group, and keep that
/// group as a version when anything of it would be replaced or taken away. `same` is the
/// new figure's fingerprint: old files of other formats with the same one stay.
pub fn begin(
    ownership: &Ownership,
    name: &str,
    written: &[String],
    submitted: SystemTime,
    same: Option<&Fingerprint>,
) -> Result<Plan, VersionsError> {
    let figures = ownership.figures();
    let submitted_ms = ms_since_epoch(submitted);
    let old = current_group(ownership, name);
    if old
        .first()
        .is_some_and(|main| modified_ms(&figures.join(main)) > submitted_ms)
    {
        return Incoming::new(figures, name).map(|mut incoming| {
            incoming.submitted_ms = submitted_ms;
            Plan::Later(incoming)
        });
    }
    let staying: Vec<String> = old
        .iter()
        .filter(|f| !written.contains(f) && stem_of(f) == name)
        .filter(|f| {
            same.is_some_and(|same| fingerprint_of(&figures.join(f)).as_ref() == Some(same))
        })
        .cloned()
        .collect();
    let changes = old
        .iter()
        .any(|f| written.contains(f) || !staying.contains(f));
    let kept = if changes {
        let kept = keep_current(ownership, name)?;
        fault_point("kept");
        if let Some(kept) = &kept {
            write_replacing(figures, name, kept.version, written)?;
            fault_point("marked");
        }
        kept
    } else {
        None
    };
    Ok(Plan::Replace(Replacement {
        figures: figures.to_path_buf(),
        name: name.to_owned(),
        written: written.to_vec(),
        staying,
        old,
        submitted_ms,
        kept,
    }))
}

impl Replacement {
    /// The version kept of the group being replaced.
    pub fn kept(&self) -> Option<&KeptVersion> {
        self.kept.as_ref()
    }

    /// Call after each new file is in place (a test's fault point).
    pub fn saved_one(&self) {
        fault_point("saving");
    }

    /// The new files are in place and the ownership index settled: take the old group's
    /// other files away from the plain name, record when this group was submitted and
    /// clear the marker. The version kept, for the result.
    pub fn finish(self) -> Result<Option<KeptVersion>, VersionsError> {
        fault_point("saved");
        for file in &self.old {
            if !self.written.contains(file) && !self.staying.contains(file) {
                let path = self.figures.join(file);
                match std::fs::remove_file(&path) {
                    Ok(()) => {}
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                    Err(e) => return Err(VersionsError::io("take away the old figure", &path)(e)),
                }
            }
        }
        // The group's time is its submission: what orders two runs of one name at once,
        // with no bookkeeping file per name.
        for file in &self.written {
            set_modified_ms(&self.figures.join(file), self.submitted_ms);
        }
        fault_point("settled");
        if self.kept.is_some() {
            clear_replacing(&self.figures)?;
        }
        Ok(self.kept)
    }

    /// Saving failed part-way: put the kept version back as the current group (the run's
    /// own files leave), so the folder holds the old figure whole.
    pub fn abandon(self, ownership: &mut Ownership) -> Result<(), VersionsError> {
        let Some(kept) = &self.kept else {
            for file in &self.written {
                let _ = std::fs::remove_file(self.figures.join(file));
            }
            return Ok(());
        };
        roll_back(ownership, &self.name, kept.version, &self.written)
    }
}

/// A version being built in a hidden folder of the name's store folder; renamed to its
/// number when complete.
pub struct Incoming {
    dir: PathBuf,
    submitted_ms: u64,
}

impl Incoming {
    fn new(figures: &Path, name: &str) -> Result<Incoming, VersionsError> {
        let parent = name_dir(figures, name);
        std::fs::create_dir_all(&parent)
            .map_err(VersionsError::io("create the versions folder", &parent))?;
        let dir = parent.join(format!("{INCOMING}{}-{}", std::process::id(), now_ms()));
        std::fs::create_dir(&dir).map_err(VersionsError::io("create the version", &dir))?;
        Ok(Incoming {
            dir,
            submitted_ms: 0,
        })
    }

    /// Where a run whose name is current with a later submission saves its files.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn link(&self, from: &Path, file: &str) -> Result<(), VersionsError> {
        let to = self.dir.join(file);
        if std::fs::hard_link(from, &to).is_err() {
            // File systems without hard links (some network shares, FAT): a copy.
            std::fs::copy(from, &to).map_err(VersionsError::io("keep the old figure", from))?;
        }
        Ok(())
    }

    /// The run's files, saved into [`Self::dir`] as `files`, become a version.
    pub fn finish_files(
        self,
        figures: &Path,
        name: &str,
        files: &[String],
    ) -> Result<KeptVersion, VersionsError> {
        let submitted_ms = self.submitted_ms;
        self.finish(figures, name, files, submitted_ms)
    }

    fn finish(
        self,
        figures: &Path,
        name: &str,
        files: &[String],
        submitted_ms: u64,
    ) -> Result<KeptVersion, VersionsError> {
        let mut ordered = files.to_vec();
        ordered.sort_by_key(|f| main_rank(name, f)); // stable: extras keep their order
        let record = ordered
            .first()
            .and_then(|f| provenance::read(&self.dir.join(f)).ok())
            .and_then(|(_, p)| p);
        let mut meta = Meta {
            version: 0,
            submitted_ms,
            kept_ms: now_ms(),
            files: ordered
                .iter()
                .map(|file| MetaFile {
                    file: file.clone(),
                    bytes: std::fs::metadata(self.dir.join(file)).map_or(0, |m| m.len()),
                })
                .collect(),
            code_sha256: record.as_ref().map(|p| p.code_sha256.clone()),
            created: record.as_ref().map(|p| p.created.clone()),
            inputs: record
                .map(|p| p.inputs.into_iter().map(|i| i.path).collect())
                .unwrap_or_default(),
        };
        // The next number: one more than any version of the name, under the lock.
        let mut version = next_number(figures, name);
        loop {
            meta.version = version;
            write_meta(&self.dir, &meta)?;
            let target = version_dir(figures, name, version);
            match rename_no_replace(&self.dir, &target) {
                Ok(()) => break,
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => version += 1,
                Err(e) => return Err(VersionsError::io("keep the version", &target)(e)),
            }
        }
        sync_dir(&name_dir(figures, name));
        let dir = version_dir(figures, name, version);
        let files: Vec<PathBuf> = ordered.iter().map(|f| dir.join(f)).collect();
        Ok(KeptVersion {
            version,
            path: files.first().cloned().unwrap_or_else(|| dir.clone()),
            files,
        })
    }
}

fn info(figures: &Path, name: &str, version: u64) -> Option<VersionInfo> {
    let meta = read_meta(figures, name, version)?;
    let dir = version_dir(figures, name, version);
    let files: Vec<VersionFile> = meta
        .files
        .iter()
        .map(|f| VersionFile {
            file: f.file.clone(),
            path: dir.join(&f.file),
            bytes: f.bytes,
        })
        .collect();
    Some(VersionInfo {
        name: name.to_owned(),
        version,
        submitted: rfc3339_ms(meta.submitted_ms),
        kept: rfc3339_ms(meta.kept_ms),
        path: files
            .first()
            .map_or_else(|| dir.clone(), |f| f.path.clone()),
        bytes: files.iter().map(|f| f.bytes).sum(),
        files,
        code_sha256: meta.code_sha256,
        created: meta.created,
        inputs: meta.inputs,
        submitted_ms: meta.submitted_ms,
    })
}

/// Put version `version` back as `name`'s current group: its files copied in under their
/// plain names, `written` (a broken run's files) and the group's other files taken away,
/// the index's extras set to the version's.
fn roll_back(
    ownership: &mut Ownership,
    name: &str,
    version: u64,
    written: &[String],
) -> Result<(), VersionsError> {
    let figures = ownership.figures().to_path_buf();
    let info = get(&figures, name, version)?;
    for file in written {
        if !info.files.iter().any(|f| &f.file == file) {
            let _ = std::fs::remove_file(figures.join(file));
        }
    }
    put_back(ownership, name, &info)?;
    clear_replacing(&figures)
}

/// Copy a version's files in as `name`'s current group, take the group's other files away
/// and give the name the version's extras.
fn put_back(
    ownership: &mut Ownership,
    name: &str,
    info: &VersionInfo,
) -> Result<(), VersionsError> {
    let figures = ownership.figures().to_path_buf();
    let wanted: Vec<String> = info.files.iter().map(|f| f.file.clone()).collect();
    for file in current_group(ownership, name) {
        if !wanted.contains(&file) {
            let path = figures.join(&file);
            std::fs::remove_file(&path).map_err(VersionsError::io("take away", &path))?;
        }
    }
    for file in &info.files {
        let bytes = std::fs::read(&file.path).map_err(VersionsError::io("read", &file.path))?;
        let target = figures.join(&file.file);
        super::temp::write_atomically(
            &figures,
            &format!(".{}.", file.file),
            &target,
            &bytes,
            Some(0o644),
        )
        .map_err(VersionsError::io("put back", &target))?;
    }
    sync_dir(&figures);
    let extras: Vec<String> = wanted.into_iter().filter(|f| stem_of(f) != name).collect();
    ownership
        .set_extras(name, extras)
        .map_err(VersionsError::io("write the groups index in", &figures))
}

/// Finish what a killed host left: half-built versions are removed, and a replacement
/// under way is rolled back to the version it kept.
fn recover(ownership: &mut Ownership) -> Result<(), VersionsError> {
    let figures = ownership.figures().to_path_buf();
    let marker = figures.join(STORE).join(REPLACING);
    if let Ok(bytes) = std::fs::read(&marker) {
        match serde_json::from_slice::<Replacing>(&bytes) {
            Ok(r) if info(&figures, &r.name, r.version).is_some() => {
                roll_back(ownership, &r.name, r.version, &r.written)?;
            }
            // A marker naming no version: nothing was replaced yet.
            _ => clear_replacing(&figures)?,
        }
    }
    // Under the lock no other host is building a version: any `.incoming-*` is a dead
    // host's (its current group was never touched, or is whole in a numbered version).
    for name in names(&figures) {
        let Ok(entries) = std::fs::read_dir(name_dir(&figures, &name)) else {
            continue;
        };
        for entry in entries.filter_map(Result::ok) {
            if entry
                .file_name()
                .to_str()
                .is_some_and(|n| n.starts_with(INCOMING))
            {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        }
    }
    Ok(())
}

fn fingerprint_of(path: &Path) -> Option<Fingerprint> {
    provenance::read(path).ok()?.1.as_ref().map(Fingerprint::of)
}

/// The fingerprint of a figure about to be saved from `record`.
pub fn fingerprint(record: &provenance::Provenance) -> Fingerprint {
    Fingerprint::of(record)
}

fn name_dir(figures: &Path, name: &str) -> PathBuf {
    figures.join(STORE).join(name)
}

fn version_dir(figures: &Path, name: &str, version: u64) -> PathBuf {
    name_dir(figures, name).join(version.to_string())
}

fn is_version_dir_name(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_digit())
}

fn next_number(figures: &Path, name: &str) -> u64 {
    std::fs::read_dir(name_dir(figures, name))
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .filter_map(|e| e.file_name().to_str()?.parse::<u64>().ok())
                .max()
                .unwrap_or(0)
        })
        .unwrap_or(0)
        + 1
}

/// The stem of a file name (`fig-2` of `fig-2.png`).
fn stem_of(file: &str) -> &str {
    file.rsplit_once('.').map_or(file, |(stem, _)| stem)
}

/// Sort key that puts the main file (`NAME.png`, `.svg`, `.pdf`, `.jpg`) first; the
/// extras share the last rank (a stable sort keeps their order: `-2` before `-10`).
fn main_rank(name: &str, file: &str) -> usize {
    MAIN_FORMATS
        .iter()
        .position(|f| *file == format!("{name}.{}", f.extension()))
        .unwrap_or(MAIN_FORMATS.len())
}

fn is_plain_file(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.is_file())
}

fn read_meta(figures: &Path, name: &str, version: u64) -> Option<Meta> {
    let bytes = std::fs::read(version_dir(figures, name, version).join(META)).ok()?;
    serde_json::from_slice(&bytes).ok()
}

fn write_meta(dir: &Path, meta: &Meta) -> Result<(), VersionsError> {
    let path = dir.join(META);
    let bytes = serde_json::to_vec_pretty(meta).map_err(std::io::Error::other);
    bytes
        .and_then(|bytes| super::temp::write_atomically(dir, ".version.json.", &path, &bytes, None))
        .map_err(VersionsError::io("describe the version in", &path))
}

/// Best effort: a file system that refuses leaves the save time, a few seconds later.
fn set_modified_ms(path: &Path, ms: u64) {
    if let Ok(file) = std::fs::OpenOptions::new().write(true).open(path) {
        let _ = file.set_modified(UNIX_EPOCH + Duration::from_millis(ms));
    }
}

fn write_replacing(
    figures: &Path,
    name: &str,
    version: u64,
    written: &[String],
) -> Result<(), VersionsError> {
    let dir = figures.join(STORE);
    let path = dir.join(REPLACING);
    let marker = Replacing {
        name: name.to_owned(),
        version,
        written: written.to_vec(),
    };
    let bytes = serde_json::to_vec(&marker).map_err(std::io::Error::other);
    bytes
        .and_then(|bytes| {
            super::temp::write_atomically(&dir, ".replacing.json.", &path, &bytes, None)
        })
        .map_err(VersionsError::io("mark the replacement in", &path))?;
    sync_dir(&dir);
    Ok(())
}

fn clear_replacing(figures: &Path) -> Result<(), VersionsError> {
    let path = figures.join(STORE).join(REPLACING);
    match std::fs::remove_file(&path) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(VersionsError::io("clear the replacement mark", &path)(e)),
    }
}

/// Rename `from` to `to` unless `to` exists (two hosts never hold the lock at once, so a
/// check before the rename is enough; a non-empty `to` also makes the rename fail).
fn rename_no_replace(from: &Path, to: &Path) -> std::io::Result<()> {
    if std::fs::symlink_metadata(to).is_ok() {
        return Err(std::io::ErrorKind::AlreadyExists.into());
    }
    std::fs::rename(from, to)
}

fn sync_dir(dir: &Path) {
    #[cfg(unix)]
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
    #[cfg(not(unix))]
    let _ = dir;
}

#[cfg(unix)]
fn file_identity(_path: &Path, meta: &std::fs::Metadata) -> (u64, u64) {
    use std::os::unix::fs::MetadataExt;
    (meta.dev(), meta.ino())
}

#[cfg(not(unix))]
fn file_identity(path: &Path, _meta: &std::fs::Metadata) -> PathBuf {
    path.to_path_buf()
}

fn ms_since_epoch(time: SystemTime) -> u64 {
    time.duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

fn now_ms() -> u64 {
    ms_since_epoch(SystemTime::now())
}

fn modified_ms(path: &Path) -> u64 {
    std::fs::metadata(path)
        .and_then(|m| m.modified())
        .map_or(0, ms_since_epoch)
}

fn rfc3339_ms(ms: u64) -> String {
    provenance::rfc3339(UNIX_EPOCH + Duration::from_millis(ms))
}

/// Where the fault test stops a host (`PDFAGENT_VERSIONS_PAUSE_AT`): it says it got there
/// (creates `PDFAGENT_VERSIONS_PAUSED`) and waits to be killed. Test builds only.
#[cfg(test)]
fn fault_point(step: &str) {
    if std::env::var("PDFAGENT_VERSIONS_PAUSE_AT").is_ok_and(|s| s == step) {
        if let Ok(flag) = std::env::var("PDFAGENT_VERSIONS_PAUSED") {
            let _ = std::fs::write(flag, step);
        }
        loop {
            std::thread::sleep(Duration::from_secs(1));
        }
    }
}

#[cfg(not(test))]
fn fault_point(_step: &str) {}

#[cfg(test)]
mod tests;
