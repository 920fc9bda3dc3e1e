//! The input-hash cache: a data file's SHA-256 is computed once and taken again only while
//! the file is provably the same, so a second figure on unchanged data hashes nothing.
//!
//! An entry is the file's [`Identity`] (device, file id, size, modification and change
//! times, read from the open handle) with its hash and the moment hashing began. It is used
//! only when the file's identity now equals the stored one AND the stored times are older
//! than that moment by [`RACY_WINDOW`] (git's racy-clean rule: a file written in the same
//! clock tick as it was hashed could change again without its times moving; the window
//! covers file systems that keep whole seconds and the kernel's coarse clock). Files on file
//! systems without stable ids or fine times (FAT, exFAT, network, FUSE) get no entry
//! (`file_id::identify`). A file whose identity moved while it was hashed gets none either.
//!
//! The cache lives with the host: in memory for the life of the process (the window, the MCP
//! server) and on disk, one JSON file per data folder in the host's data folder
//! (`<data dir>/pdfagent/hashes`), so a later `make-figure` process finds it too. Writers
//! take [`LOCK_FILE`] (an OS file lock) and merge with what is on disk; readers need no lock
//! (files are replaced atomically). Bounded: [`MAX_ENTRIES`] files per folder (the oldest
//! hashed go first) and [`MAX_FOLDERS`] folders (the least recently written go first).
//!
//! `provenance --src` and `rerun --all` never use it: they compare against the files.

use super::file_id::{self, Identity};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, HashMap};
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant, SystemTime};

/// An entry whose file was modified or changed less than this before its hashing began is
/// never trusted.
pub const RACY_WINDOW: Duration = Duration::from_secs(2);
/// Most files remembered per data folder.
pub const MAX_ENTRIES: usize = 4096;
/// Most data folders remembered (on disk, and in memory).
pub const MAX_FOLDERS: usize = 64;
/// The on-disk cache's lock, one for the whole directory.
pub const LOCK_FILE: &str = ".lock";
/// Largest cache file read (4096 entries take about 1 MB).
const MAX_FILE_BYTES: u64 = 4 << 20;
/// How long a writer waits for another host's write before giving up on saving (the
/// in-memory cache still holds the hashes).
const LOCK_WAIT: Duration = Duration::from_secs(2);
const FORMAT: u32 = 1;

/// A clock: nanoseconds since the Unix epoch (tests pass a later one to age the files).
pub type Clock = fn() -> i64;

fn system_clock() -> i64 {
    SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_nanos()).unwrap_or(i64::MAX))
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Entry {
    identity: Identity,
    sha256: String,
    /// When hashing began (before the identity was read), nanoseconds since the epoch.
    hashed_at_ns: i64,
}

impl Entry {
    /// The racy-clean rule: trusted only when the file's times are older than its hashing.
    fn trusted(&self) -> bool {
        let window = RACY_WINDOW.as_nanos() as i64;
        self.identity.newest_ns() < self.hashed_at_ns.saturating_sub(window)
    }
}

/// One data folder's cache file.
#[derive(Debug, Default, Serialize, Deserialize)]
struct CacheFile {
    format: u32,
    /// The data folder, for a person looking at the file.
    folder: String,
    /// Keyed by the file's resolved path.
    entries: BTreeMap<String, Entry>,
}

/// What the on-disk file was when last read or written: when it is still so, memory holds
/// everything in it. Being wrong only costs a miss: every entry is checked against the file.
type DiskStamp = (u64, Option<SystemTime>);

#[derive(Debug, Default)]
struct Folder {
    entries: BTreeMap<String, Entry>,
    disk: Option<DiskStamp>,
    used: u64,
}

/// The hashes one host remembers.
#[derive(Debug)]
pub struct HashCache {
    /// Where the cache files go (`None`: memory only).
    dir: Option<PathBuf>,
    clock: Clock,
    memory: Mutex<HashMap<PathBuf, Folder>>,
}

/// How a hash was had: for the record it is the same; tests and benchmarks tell them apart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Hashed {
    Cached(String),
    /// Read in full: this many bytes.
    Computed(String, u64),
}

impl Hashed {
    pub fn sha256(&self) -> &str {
        match self {
            Hashed::Cached(h) | Hashed::Computed(h, _) => h,
        }
    }
}

static HOST: OnceLock<HashCache> = OnceLock::new();

/// Give this process's cache its on-disk folder (the executable calls it once, at start,
/// with `<data dir>/pdfagent/hashes`); later calls change nothing.
pub fn use_host_dir(dir: Option<PathBuf>) {
    let _ = HOST.set(HashCache::new(dir));
}

/// The cache's folder inside the per-user data folder (`dirs::data_local_dir()`: Linux
/// `$XDG_DATA_HOME` or `~/.local/share`, macOS `~/Library/Application Support`, Windows
/// `%LOCALAPPDATA%`): `pdfagent/hashes`, beside the MCP server's default figures.
pub fn dir_in(data_local_dir: PathBuf) -> PathBuf {
    data_local_dir.join("pdfagent").join("hashes")
}

/// This process's cache: memory only unless [`use_host_dir`] named a folder first.
pub fn host() -> &'static HashCache {
    HOST.get_or_init(|| HashCache::new(None))
}

impl HashCache {
    pub fn new(dir: Option<PathBuf>) -> HashCache {
        HashCache::with_clock(dir, system_clock)
    }

    pub fn with_clock(dir: Option<PathBuf>, clock: Clock) -> HashCache {
        HashCache {
            dir,
            clock,
            memory: Mutex::new(HashMap::new()),
        }
    }

    /// The data folder `src`'s cache for one run's inputs; [`Session::finish`] saves it.
    pub fn session(&self, src: &Path) -> Session<'_> {
        let src = src.canonicalize().unwrap_or_else(|_| src.to_path_buf());
        let mut memory = self.memory.lock().unwrap_or_else(|e| e.into_inner());
        let folder = memory.entry(src.clone()).or_default();
        if let Some(file) = self.file_for(&src) {
            refresh(folder, &file);
        }
        let known = folder.entries.clone();
        evict_folders(&mut memory, &src);
        Session {
            cache: self,
            src,
            known,
            new: BTreeMap::new(),
        }
    }

    fn file_for(&self, src: &Path) -> Option<PathBuf> {
        let hex = super::sha256_hex(src.as_os_str().as_encoded_bytes());
        Some(self.dir.as_ref()?.join(format!("{}.json", &hex[..32])))
    }

    /// Merge `new` into memory and, under the lock, into the folder's file.
    fn save(&self, src: &Path, new: BTreeMap<String, Entry>) {
        let mut memory = self.memory.lock().unwrap_or_else(|e| e.into_inner());
        let folder = memory.entry(src.to_path_buf()).or_default();
        merge(&mut folder.entries, new);
        let (Some(dir), Some(file)) = (&self.dir, self.file_for(src)) else {
            return;
        };
        if std::fs::create_dir_all(dir).is_err() {
            return;
        }
        let Some(_lock) = DirLock::take(dir) else {
            return;
        };
        refresh(folder, &file);
        let cache = CacheFile {
            format: FORMAT,
            folder: src.to_string_lossy().into_owned(),
            entries: folder.entries.clone(),
        };
        let Ok(bytes) = serde_json::to_vec(&cache) else {
            return;
        };
        let written = crate::pipeline::figures::temp::write_atomically(
            dir,
            ".hashes.",
            &file,
            &bytes,
            Some(0o600),
        );
        if written.is_ok() {
            folder.disk = stamp(&file);
            evict_files(dir, &file);
        }
    }
}

/// Read the folder's file into memory when it changed since last seen.
fn refresh(folder: &mut Folder, file: &Path) {
    let now = stamp(file);
    if now.is_none() || now == folder.disk {
        return;
    }
    if let Some(on_disk) = read_file(file) {
        merge(&mut folder.entries, on_disk.entries);
    }
    folder.disk = now;
}

fn stamp(file: &Path) -> Option<DiskStamp> {
    let meta = std::fs::metadata(file).ok()?;
    Some((meta.len(), meta.modified().ok()))
}

fn read_file(path: &Path) -> Option<CacheFile> {
    let file = File::open(path).ok()?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes).ok()?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return None;
    }
    let cache: CacheFile = serde_json::from_slice(&bytes).ok()?;
    (cache.format == FORMAT).then_some(cache)
}

/// `from` into `into`, the later hashing winning per file; then the oldest dropped past
/// [`MAX_ENTRIES`].
fn merge(into: &mut BTreeMap<String, Entry>, from: BTreeMap<String, Entry>) {
    for (key, entry) in from {
        match into.get(&key) {
            Some(have) if have.hashed_at_ns >= entry.hashed_at_ns => {}
            _ => {
                into.insert(key, entry);
            }
        }
    }
    if into.len() > MAX_ENTRIES {
        let mut by_age: Vec<(i64, String)> = into
            .iter()
            .map(|(key, e)| (e.hashed_at_ns, key.clone()))
            .collect();
        by_age.sort_unstable();
        let extra = into.len() - MAX_ENTRIES;
        for (_, key) in by_age.into_iter().take(extra) {
            into.remove(&key);
        }
    }
}

/// Forget the least recently used folders past [`MAX_FOLDERS`] (never `keep`).
fn evict_folders(memory: &mut HashMap<PathBuf, Folder>, keep: &Path) {
    let tick = memory.values().map(|f| f.used).max().unwrap_or(0) + 1;
    if let Some(folder) = memory.get_mut(keep) {
        folder.used = tick;
    }
    while memory.len() > MAX_FOLDERS {
        let Some(oldest) = memory
            .iter()
            .filter(|(path, _)| path.as_path() != keep)
            .min_by_key(|(_, f)| f.used)
            .map(|(path, _)| path.clone())
        else {
            break;
        };
        memory.remove(&oldest);
    }
}

/// Remove the least recently written cache files past [`MAX_FOLDERS`] (never `keep`).
/// Called with the lock held.
fn evict_files(dir: &Path, keep: &Path) {
    let Ok(listing) = std::fs::read_dir(dir) else {
        return;
    };
    let mut files: Vec<(SystemTime, PathBuf)> = listing
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json") && p != keep)
        .filter_map(|p| Some((std::fs::metadata(&p).ok()?.modified().ok()?, p)))
        .collect();
    if files.len() < MAX_FOLDERS {
        return;
    }
    files.sort();
    let extra = files.len() + 1 - MAX_FOLDERS;
    for (_, path) in files.into_iter().take(extra) {
        let _ = std::fs::remove_file(path);
    }
}

/// The directory's exclusive lock, released on drop (and by the OS if the host dies).
struct DirLock(File);

impl DirLock {
    /// `None` when another host held it for [`LOCK_WAIT`] or it cannot be opened.
    fn take(dir: &Path) -> Option<DirLock> {
        let file = File::options()
            .create(true)
            .truncate(false)
            .write(true)
            .open(dir.join(LOCK_FILE))
            .ok()?;
        let deadline = Instant::now() + LOCK_WAIT;
        loop {
            match file.try_lock() {
                Ok(()) => return Some(DirLock(file)),
                Err(std::fs::TryLockError::WouldBlock) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(10));
                }
                Err(_) => return None,
            }
        }
    }
}

impl Drop for DirLock {
    fn drop(&mut self) {
        let _ = self.0.unlock();
    }
}

/// One run's look-ups in one data folder.
pub struct Session<'c> {
    cache: &'c HashCache,
    src: PathBuf,
    known: BTreeMap<String, Entry>,
    new: BTreeMap<String, Entry>,
}

impl Session<'_> {
    /// The SHA-256 of `path` (a file inside the data folder): the stored one while the file
    /// is provably unchanged, else read in full (and remembered when the file held still and
    /// its file system keeps stable ids). `None` when it would be read and `budget` bytes are
    /// fewer than its size.
    pub fn sha256(&mut self, path: &Path, budget: u64) -> std::io::Result<Option<Hashed>> {
        let key = path.to_string_lossy().into_owned();
        let mut file = File::open(path)?;
        let hashed_at_ns = (self.cache.clock)();
        let before = file_id::identify(&file);
        if let Some(now) = before {
            let stored = self.new.get(&key).or_else(|| self.known.get(&key));
            if let Some(entry) = stored.filter(|e| e.identity == now && e.trusted()) {
                return Ok(Some(Hashed::Cached(entry.sha256.clone())));
            }
        }
        let size = file.metadata()?.len();
        if size > budget {
            return Ok(None);
        }
        let (sha256, read) = read_sha256(&mut file)?;
        if let Some(before) = before
            && file_id::identify(&file) == Some(before)
            && read == before.size
        {
            self.new.insert(
                key,
                Entry {
                    identity: before,
                    sha256: sha256.clone(),
                    hashed_at_ns,
                },
            );
        }
        Ok(Some(Hashed::Computed(sha256, read)))
    }

    /// Remember this run's new hashes (in memory, and on disk when the host has a folder).
    pub fn finish(self) {
        if !self.new.is_empty() {
            self.cache.save(&self.src, self.new);
        }
    }
}

/// The SHA-256 of what is left to read of `file`, and how many bytes that was.
pub fn read_sha256(file: &mut File) -> std::io::Result<(String, u64)> {
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    let mut read = 0u64;
    loop {
        let n = file.read(&mut buf)?;
        if n == 0 {
            break;
        }
        read += n as u64;
        hasher.update(&buf[..n]);
    }
    Ok((super::hex(&hasher.finalize()), read))
}

#[cfg(test)]
mod tests;
