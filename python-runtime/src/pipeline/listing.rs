//! The data files under `SRC`, as an agent sees them before it writes code (`list_data`),
//! and the one resolver every agent-given data path goes through (`describe_data`).
//!
//! Confined like the worker's `listdir`/`walkfiles`/`srcpath`: paths are relative to `SRC`,
//! `..` and absolute paths are refused, symbolic links are resolved and must stay inside
//! `SRC`, and linked folders are not descended (as `os.walk` does not), so a link loop
//! cannot make the walk endless.

use serde::Serialize;
use std::path::{Component, Path, PathBuf};

/// Most files one listing returns; the rest is counted as left out.
pub const MAX_ENTRIES: usize = 2000;

/// Why a data path given by an agent is refused. Messages say what to send instead.
#[derive(Debug, thiserror::Error)]
pub enum DataPathError {
    #[error(
        "the path `{0}` is absolute: give a path relative to the data folder, e.g. `data.csv` or `runs/run1.mat`"
    )]
    Absolute(String),
    #[error(
        "the path `{0}` leaves the data folder (`..`): give a path inside it, as list_data shows"
    )]
    ParentDir(String),
    #[error("the path `{0}` contains a NUL character")]
    Nul(String),
    #[error("`{0}` does not exist in the data folder: call list_data to see the files")]
    NotFound(String),
    #[error(
        "`{0}` is a symbolic link to a place outside the data folder: only files inside it can be read"
    )]
    Outside(String),
    #[error("`{0}` is not a file: give a file path, as list_data shows")]
    NotAFile(String),
    #[error("`{0}` is not a folder: give a sub-folder path, as list_data shows")]
    NotAFolder(String),
    #[error("the data folder `{}` cannot be read: {source}", .path.display())]
    Src {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// One file under `SRC`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DataFile {
    /// Relative to `SRC`, with `/` separators: exactly what `srcpath()` takes.
    pub path: String,
    pub bytes: u64,
}

#[derive(Debug, Clone, Serialize)]
pub struct Listing {
    pub files: Vec<DataFile>,
    /// Files that exist beyond [`MAX_ENTRIES`] (not listed).
    pub left_out: usize,
    /// Symbolic links skipped because they point outside `SRC` (or nowhere).
    pub skipped_links: usize,
}

fn canonical_src(src: &Path) -> Result<PathBuf, DataPathError> {
    src.canonicalize().map_err(|source| DataPathError::Src {
        path: src.to_path_buf(),
        source,
    })
}

/// The real path of `rel` inside `src`, or why not. `rel` may be empty (= `src` itself).
fn resolve(src_real: &Path, rel: &str) -> Result<PathBuf, DataPathError> {
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
    let real = match src_real.join(rel_path).canonicalize() {
        Ok(real) => real,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            // A dangling link inside SRC and a missing file read the same to the agent.
            return Err(DataPathError::NotFound(rel.to_owned()));
        }
        Err(_) => return Err(DataPathError::NotFound(rel.to_owned())),
    };
    if !real.starts_with(src_real) {
        return Err(DataPathError::Outside(rel.to_owned()));
    }
    Ok(real)
}

/// The real path of the data file `rel` (relative to `src`), refused unless it is a regular
/// file inside `src` once every link is resolved.
pub fn resolve_file(src: &Path, rel: &str) -> Result<PathBuf, DataPathError> {
    let src_real = canonical_src(src)?;
    if rel.trim().is_empty() {
        return Err(DataPathError::NotAFile(rel.to_owned()));
    }
    let real = resolve(&src_real, rel)?;
    if real.is_file() {
        Ok(real)
    } else {
        Err(DataPathError::NotAFile(rel.to_owned()))
    }
}

/// Every file under `src/sub` (all of `src` when `sub` is empty), sorted, at most
/// [`MAX_ENTRIES`].
pub fn list(src: &Path, sub: &str) -> Result<Listing, DataPathError> {
    let src_real = canonical_src(src)?;
    let start = resolve(&src_real, sub)?;
    if !start.is_dir() {
        return Err(DataPathError::NotAFolder(sub.to_owned()));
    }
    let mut listing = Listing {
        files: Vec::new(),
        left_out: 0,
        skipped_links: 0,
    };
    walk(&src_real, &start, &mut listing);
    Ok(listing)
}

fn walk(src_real: &Path, dir: &Path, listing: &mut Listing) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        let Ok(meta) = std::fs::symlink_metadata(&path) else {
            continue;
        };
        let file_meta = if meta.file_type().is_symlink() {
            // Links are followed only to files inside SRC; linked folders are not walked.
            match path.canonicalize() {
                Ok(real) if real.starts_with(src_real) && real.is_file() => {
                    std::fs::metadata(&real).ok()
                }
                Ok(real) if real.starts_with(src_real) => None,
                _ => {
                    listing.skipped_links += 1;
                    None
                }
            }
        } else if meta.is_dir() {
            walk(src_real, &path, listing);
            None
        } else if meta.is_file() {
            Some(meta)
        } else {
            None
        };
        let Some(file_meta) = file_meta else { continue };
        if listing.files.len() >= MAX_ENTRIES {
            listing.left_out += 1;
            continue;
        }
        let rel = path.strip_prefix(src_real).unwrap_or(&path);
        let rel: Vec<String> = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        listing.files.push(DataFile {
            path: rel.join("/"),
            bytes: file_meta.len(),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree() -> tempfile::TempDir {
        let tmp = tempfile::tempdir().unwrap();
        let src = tmp.path().join("src");
        std::fs::create_dir_all(src.join("runs/deep")).unwrap();
        std::fs::write(src.join("a.csv"), "x\n1\n").unwrap();
        std::fs::write(src.join("runs/r1.mat"), [0u8; 10]).unwrap();
        std::fs::write(src.join("runs/deep/r2.npy"), [0u8; 3]).unwrap();
        std::fs::write(tmp.path().join("secret.txt"), "no").unwrap();
        tmp
    }

    #[test]
    fn lists_every_file_relative_with_sizes() {
        let tmp = tree();
        let listing = list(&tmp.path().join("src"), "").unwrap();
        let got: Vec<(&str, u64)> = listing
            .files
            .iter()
            .map(|f| (f.path.as_str(), f.bytes))
            .collect();
        assert_eq!(
            got,
            [("a.csv", 4), ("runs/deep/r2.npy", 3), ("runs/r1.mat", 10)]
        );
        let sub = list(&tmp.path().join("src"), "runs/deep").unwrap();
        assert_eq!(sub.files[0].path, "runs/deep/r2.npy");
    }

    #[test]
    fn escapes_are_refused() {
        let tmp = tree();
        let src = tmp.path().join("src");
        assert!(matches!(list(&src, ".."), Err(DataPathError::ParentDir(_))));
        assert!(matches!(
            list(&src, "runs/../.."),
            Err(DataPathError::ParentDir(_))
        ));
        assert!(matches!(
            list(&src, "/etc"),
            Err(DataPathError::Absolute(_))
        ));
        assert!(matches!(
            resolve_file(&src, "../secret.txt"),
            Err(DataPathError::ParentDir(_))
        ));
        assert!(matches!(
            resolve_file(&src, "/etc/passwd"),
            Err(DataPathError::Absolute(_))
        ));
        assert!(matches!(
            resolve_file(&src, "runs"),
            Err(DataPathError::NotAFile(_))
        ));
        assert!(matches!(
            resolve_file(&src, "nope.csv"),
            Err(DataPathError::NotFound(_))
        ));
    }

    #[cfg(unix)]
    #[test]
    fn links_outside_are_skipped_and_refused_loops_are_not_walked() {
        let tmp = tree();
        let src = tmp.path().join("src");
        std::os::unix::fs::symlink(tmp.path().join("secret.txt"), src.join("out.txt")).unwrap();
        std::os::unix::fs::symlink(tmp.path(), src.join("up")).unwrap();
        std::os::unix::fs::symlink(&src, src.join("runs/loop")).unwrap();
        std::os::unix::fs::symlink(src.join("a.csv"), src.join("alias.csv")).unwrap();
        let listing = list(&src, "").unwrap();
        let names: Vec<&str> = listing.files.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(
            names,
            ["a.csv", "alias.csv", "runs/deep/r2.npy", "runs/r1.mat"]
        );
        assert_eq!(listing.skipped_links, 2);
        assert!(matches!(
            resolve_file(&src, "out.txt"),
            Err(DataPathError::Outside(_))
        ));
        assert!(matches!(
            resolve_file(&src, "up/secret.txt"),
            Err(DataPathError::Outside(_))
        ));
        assert!(matches!(list(&src, "up"), Err(DataPathError::Outside(_))));
        assert_eq!(
            resolve_file(&src, "alias.csv").unwrap(),
            src.canonicalize().unwrap().join("a.csv")
        );
    }

    #[test]
    fn listing_is_capped() {
        let tmp = tempfile::tempdir().unwrap();
        for i in 0..MAX_ENTRIES + 5 {
            std::fs::write(tmp.path().join(format!("f{i:05}")), "").unwrap();
        }
        let listing = list(tmp.path(), "").unwrap();
        assert_eq!(listing.files.len(), MAX_ENTRIES);
        assert_eq!(listing.left_out, 5);
    }
}
