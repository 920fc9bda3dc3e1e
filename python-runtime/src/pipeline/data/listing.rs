//! The data folder as the window's tree and MCP's `list_data` show it, and the one resolver
//! every path given from outside goes through — an agent's (`describe_data`) and the
//! webview's (the preview, an image's bytes) alike.
//!
//! One policy for both, confined like the worker's `srcpath`/`walkfiles`:
//! - Paths are relative to the folder; `..`, absolute paths and NUL are refused.
//! - Symbolic links are resolved. A link that stays inside the folder is listed and readable
//!   (a linked folder is listed but not walked: its files are listed under its real path, so
//!   a link loop cannot make the walk endless). A link that points outside the folder, or to
//!   nothing, is listed as refused with the reason, and the resolver refuses it; so are
//!   names that are not UTF-8 and entries that are neither file nor folder (FIFOs, sockets).
//! - Names starting with `.` are not listed, only counted (`hidden`): they are the
//!   bookkeeping of other tools (`.git`, `.DS_Store`, `.ipynb_checkpoints`), not data — a
//!   `.git` folder alone would use up the entry cap — and file managers hide them too. They
//!   stay readable by their name (figure code and `describe_data` may name one).
//! - At most [`MAX_ENTRIES`] entries and [`MAX_DEPTH`] levels below the listed folder; what
//!   is left out is counted.

use serde::Serialize;
use std::path::{Component, Path, PathBuf};

/// Most entries (files, folders, refused links) one listing returns.
pub const MAX_ENTRIES: usize = 2000;
/// Levels listed below the listed folder: a folder at the last level is listed, its
/// contents are not.
pub const MAX_DEPTH: usize = 8;

/// Why a path given from outside is refused. Messages say what to send instead.
#[derive(Debug, thiserror::Error)]
pub enum DataPathError {
    #[error(
        "the path `{0}` is absolute: give a path relative to the data folder, e.g. `data.csv` or `runs/run1.mat`"
    )]
    Absolute(String),
    #[error(
        "the path `{0}` leaves the data folder (`..`): give a path inside it, as its listing shows"
    )]
    ParentDir(String),
    #[error("the path `{0}` contains a NUL character: give the path as the listing shows it")]
    Nul(String),
    #[error("`{0}` does not exist in the data folder: pick a file from its listing")]
    NotFound(String),
    #[error(
        "`{0}` is a symbolic link to a place outside the data folder: refused, only files inside it can be read (copy the file into the folder)"
    )]
    Outside(String),
    #[error("`{0}` is not a file: give a file path, as the listing shows")]
    NotAFile(String),
    #[error("`{0}` is not a folder: give a sub-folder path, as the listing shows")]
    NotAFolder(String),
    #[error("the data folder `{}` cannot be read: {source}; choose an existing folder", .path.display())]
    Src {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// Why a listed entry cannot be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// A symbolic link to a place outside the folder.
    Outside,
    /// A symbolic link to nothing: its target is missing, unreachable or a loop of links.
    Dangling,
    /// A name that is not valid UTF-8 (no caller could name it back).
    NotUtf8,
    /// Neither a file nor a folder (a FIFO, socket or device).
    Special,
}

impl Refusal {
    pub fn reason(self) -> &'static str {
        match self {
            Refusal::Outside => "refused: points outside the data folder",
            Refusal::Dangling => "refused: a link to nothing (its target is missing or a loop)",
            Refusal::NotUtf8 => "refused: the name is not valid UTF-8 (rename it to read it)",
            Refusal::Special => "refused: neither a file nor a folder",
        }
    }
}

impl Serialize for Refusal {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.reason())
    }
}

/// One entry of a listing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ts_rs::TS)]
#[ts(rename = "FolderEntry")]
pub struct Entry {
    /// Relative to the data folder, `/`-separated: what `srcpath()`, `load()` and
    /// `describe_data` take.
    pub path: String,
    pub name: String,
    /// 0 for the entries of the listed folder itself.
    pub depth: usize,
    pub dir: bool,
    /// A file's size (a linked file's: its target's); 0 for folders and refused entries.
    pub bytes: u64,
    /// A symbolic link that stays inside: where it leads, relative to the folder (`.` for
    /// the folder itself).
    pub link_to: Option<String>,
    /// Why it cannot be read; `None` when it can.
    #[ts(as = "Option<String>")]
    pub refused: Option<Refusal>,
}

/// A folder's entries in display order: folders first, then files, by name, each folder
/// followed by its contents.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
#[ts(rename = "FolderListing")]
pub struct Listing {
    pub entries: Vec<Entry>,
    /// Entries beyond [`MAX_ENTRIES`], counted but not listed (the contents of a folder
    /// beyond it are not counted).
    pub left_out: usize,
    /// Folders at the last level ([`MAX_DEPTH`]) whose contents are not listed.
    pub not_entered: usize,
    /// Entries whose names start with `.`: not listed, still readable by name.
    pub hidden: usize,
}

impl Listing {
    /// The files that can be read (links inside included).
    pub fn files(&self) -> impl Iterator<Item = &Entry> {
        self.entries
            .iter()
            .filter(|e| !e.dir && e.refused.is_none())
    }

    /// The entries listed as refused.
    pub fn refused(&self) -> impl Iterator<Item = &Entry> {
        self.entries.iter().filter(|e| e.refused.is_some())
    }

    /// Whether anything was left out by the caps.
    pub fn truncated(&self) -> bool {
        self.left_out > 0 || self.not_entered > 0
    }
}

fn canonical_root(root: &Path) -> Result<PathBuf, DataPathError> {
    root.canonicalize().map_err(|source| DataPathError::Src {
        path: root.to_path_buf(),
        source,
    })
}

/// The real path of `rel` inside `root_real`, or why not. `rel` may be empty (= the root).
fn resolve(root_real: &Path, rel: &str) -> Result<PathBuf, DataPathError> {
    if rel.contains('\0') {
        return Err(DataPathError::Nul(rel.escape_debug().to_string()));
    }
    let rel_path = Path::new(rel);
    for component in rel_path.components() {
        match component {
            Component::Prefix(_) | Component::RootDir => {
                return Err(DataPathError::Absolute(rel.to_owned()));
            }
            Component::ParentDir => return Err(DataPathError::ParentDir(rel.to_owned())),
            Component::CurDir | Component::Normal(_) => {}
        }
    }
    // A dangling link inside the folder and a missing file read the same to the caller.
    let real = root_real
        .join(rel_path)
        .canonicalize()
        .map_err(|_| DataPathError::NotFound(rel.to_owned()))?;
    if !real.starts_with(root_real) {
        return Err(DataPathError::Outside(rel.to_owned()));
    }
    Ok(real)
}

/// The real path of the file `rel` (relative to `root`), refused unless it is a regular
/// file inside `root` once every link is resolved.
pub fn resolve_file(root: &Path, rel: &str) -> Result<PathBuf, DataPathError> {
    let root_real = canonical_root(root)?;
    if rel.trim().is_empty() {
        return Err(DataPathError::NotAFile(rel.to_owned()));
    }
    let real = resolve(&root_real, rel)?;
    if real.is_file() {
        Ok(real)
    } else {
        Err(DataPathError::NotAFile(rel.to_owned()))
    }
}

/// The folder `root/sub` (all of `root` when `sub` is empty) as a listing.
pub fn list(root: &Path, sub: &str) -> Result<Listing, DataPathError> {
    let root_real = canonical_root(root)?;
    let start = resolve(&root_real, sub)?;
    if !start.is_dir() {
        return Err(DataPathError::NotAFolder(sub.to_owned()));
    }
    let mut listing = Listing {
        entries: Vec::new(),
        left_out: 0,
        not_entered: 0,
        hidden: 0,
    };
    let prefix = relative(&root_real, &start);
    walk(&root_real, &start, &prefix, 0, &mut listing);
    Ok(listing)
}

/// `path` relative to `root_real` with `/` separators (`""` for the root itself).
fn relative(root_real: &Path, path: &Path) -> String {
    let rel = path.strip_prefix(root_real).unwrap_or(path);
    let parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    parts.join("/")
}

/// What one directory entry is, under the policy.
struct Found {
    name: String,
    dir: bool,
    bytes: u64,
    link_to: Option<String>,
    refused: Option<Refusal>,
}

fn classify(root_real: &Path, path: &Path, name: String, meta: &std::fs::Metadata) -> Found {
    let found = |dir, bytes, link_to, refused| Found {
        name: name.clone(),
        dir,
        bytes,
        link_to,
        refused,
    };
    if !meta.file_type().is_symlink() {
        return if meta.is_dir() {
            found(true, 0, None, None)
        } else if meta.is_file() {
            found(false, meta.len(), None, None)
        } else {
            found(false, 0, None, Some(Refusal::Special))
        };
    }
    let real = match path.canonicalize() {
        Ok(real) if real.starts_with(root_real) => real,
        Ok(_) => return found(false, 0, None, Some(Refusal::Outside)),
        Err(_) => return found(false, 0, None, Some(Refusal::Dangling)),
    };
    let target = relative(root_real, &real);
    let link_to = Some(if target.is_empty() {
        ".".into()
    } else {
        target
    });
    match std::fs::metadata(&real) {
        Ok(m) if m.is_dir() => found(true, 0, link_to, None),
        Ok(m) if m.is_file() => found(false, m.len(), link_to, None),
        Ok(_) => found(false, 0, link_to, Some(Refusal::Special)),
        Err(_) => found(false, 0, None, Some(Refusal::Dangling)),
    }
}

fn walk(root_real: &Path, dir: &Path, prefix: &str, depth: usize, out: &mut Listing) {
    // An unreadable folder is listed (by its parent) but left empty.
    let Ok(read) = std::fs::read_dir(dir) else {
        return;
    };
    let mut items: Vec<Found> = Vec::new();
    for entry in read.flatten() {
        let path = entry.path();
        let Ok(meta) = std::fs::symlink_metadata(&path) else {
            continue; // gone meanwhile
        };
        let found = match entry.file_name().into_string() {
            Ok(name) if name.starts_with('.') => {
                out.hidden += 1;
                continue;
            }
            Ok(name) => classify(root_real, &path, name, &meta),
            Err(raw) => Found {
                name: raw.to_string_lossy().into_owned(),
                dir: false,
                bytes: 0,
                link_to: None,
                refused: Some(Refusal::NotUtf8),
            },
        };
        items.push(found);
    }
    items.sort_by(|a, b| {
        b.dir
            .cmp(&a.dir)
            .then_with(|| a.name.to_lowercase().cmp(&b.name.to_lowercase()))
            .then_with(|| a.name.cmp(&b.name))
    });
    for item in items {
        if out.entries.len() >= MAX_ENTRIES {
            out.left_out += 1;
            continue;
        }
        let path = if prefix.is_empty() {
            item.name.clone()
        } else {
            format!("{prefix}/{}", item.name)
        };
        let walk_into = item.dir && item.link_to.is_none();
        out.entries.push(Entry {
            path: path.clone(),
            name: item.name.clone(),
            depth,
            dir: item.dir,
            bytes: item.bytes,
            link_to: item.link_to,
            refused: item.refused,
        });
        if walk_into {
            if depth + 1 >= MAX_DEPTH {
                out.not_entered += 1;
            } else {
                walk(root_real, &dir.join(&item.name), &path, depth + 1, out);
            }
        }
    }
}

#[cfg(test)]
mod tests;
