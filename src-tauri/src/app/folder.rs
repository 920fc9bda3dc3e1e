//! The chosen folders. Every path the webview sends is relative to one of them and is
//! resolved here (symlinks included) and refused unless it stays inside.

use serde::Serialize;
use std::path::{Component, Path, PathBuf};

/// Most entries listed in the file tree; deeper or later ones are left out (and said so).
pub const MAX_ENTRIES: usize = 3000;
/// Deepest level listed.
pub const MAX_DEPTH: usize = 6;

/// A folder given by the user (dialog or `--open`), resolved.
pub fn resolve_folder(dir: &Path) -> Result<PathBuf, String> {
    let resolved = dir
        .canonicalize()
        .map_err(|e| format!("the folder `{}` cannot be opened: {e}", dir.display()))?;
    if !resolved.is_dir() {
        return Err(format!(
            "`{}` is not a folder: choose a folder",
            dir.display()
        ));
    }
    if resolved.to_str().is_none() {
        return Err(format!(
            "the folder path `{}` is not valid UTF-8: move the data to a folder with a plain name",
            dir.display()
        ));
    }
    Ok(resolved)
}

/// `rel` (from the webview) resolved inside `root`, or why not.
pub fn inside(root: &Path, rel: &str) -> Result<PathBuf, String> {
    let rel_path = Path::new(rel);
    if rel.is_empty()
        || rel_path
            .components()
            .any(|c| !matches!(c, Component::Normal(_)))
    {
        return Err(format!(
            "`{rel}` is not a plain path inside the folder (no `..`, no absolute paths)"
        ));
    }
    let root = root
        .canonicalize()
        .map_err(|e| format!("the folder `{}` cannot be opened: {e}", root.display()))?;
    let path = root
        .join(rel_path)
        .canonicalize()
        .map_err(|e| format!("`{rel}` cannot be opened: {e}"))?;
    if !path.starts_with(&root) {
        return Err(format!(
            "`{rel}` leads outside the chosen folder (a link?); only files inside it are shown"
        ));
    }
    Ok(path)
}

#[derive(Debug, Clone, Serialize, ts_rs::TS)]
#[ts(rename = "FolderEntry")]
pub struct Entry {
    /// Relative to the folder, `/`-separated.
    pub path: String,
    pub name: String,
    pub depth: usize,
    pub dir: bool,
    pub size: u64,
}

#[derive(Debug, Clone, Serialize, ts_rs::TS)]
#[ts(rename = "FolderListing")]
pub struct Listing {
    pub root: String,
    pub entries: Vec<Entry>,
    /// True when entries were left out (over [`MAX_ENTRIES`] or deeper than [`MAX_DEPTH`]).
    pub truncated: bool,
}

/// The folder as a tree in display order: folders first, then files, by name; hidden
/// entries and symlinks are not listed.
pub fn list(root: &Path) -> Result<Listing, String> {
    let mut listing = Listing {
        root: root.display().to_string(),
        entries: Vec::new(),
        truncated: false,
    };
    walk(root, "", 0, &mut listing)?;
    Ok(listing)
}

fn walk(dir: &Path, prefix: &str, depth: usize, out: &mut Listing) -> Result<(), String> {
    let read =
        std::fs::read_dir(dir).map_err(|e| format!("could not list `{}`: {e}", dir.display()))?;
    let mut items: Vec<(bool, String, u64)> = read
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().into_string().ok()?;
            let meta = entry.path().symlink_metadata().ok()?;
            (!name.starts_with('.') && !meta.file_type().is_symlink())
                .then(|| (meta.is_dir(), name, meta.len()))
        })
        .collect();
    items.sort_by(|a, b| {
        b.0.cmp(&a.0)
            .then_with(|| a.1.to_lowercase().cmp(&b.1.to_lowercase()))
    });
    for (is_dir, name, size) in items {
        if out.entries.len() >= MAX_ENTRIES {
            out.truncated = true;
            return Ok(());
        }
        let path = if prefix.is_empty() {
            name.clone()
        } else {
            format!("{prefix}/{name}")
        };
        out.entries.push(Entry {
            path: path.clone(),
            name: name.clone(),
            depth,
            dir: is_dir,
            size: if is_dir { 0 } else { size },
        });
        if is_dir {
            if depth + 1 >= MAX_DEPTH {
                out.truncated = true;
            } else {
                // An unreadable sub-folder is listed but left empty.
                let _ = walk(&dir.join(&name), &path, depth + 1, out);
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inside_refuses_escapes() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("root");
        std::fs::create_dir_all(root.join("sub")).unwrap();
        std::fs::write(root.join("sub/a.csv"), "x").unwrap();
        std::fs::write(tmp.path().join("secret"), "s").unwrap();
        assert!(inside(&root, "sub/a.csv").is_ok());
        assert!(inside(&root, "../secret").is_err());
        assert!(inside(&root, "/etc/passwd").is_err());
        assert!(inside(&root, "").is_err());
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(tmp.path().join("secret"), root.join("link")).unwrap();
            let err = inside(&root, "link").unwrap_err();
            assert!(err.contains("outside"), "{err}");
        }
    }

    #[test]
    fn list_orders_folders_first_and_skips_hidden() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::create_dir(tmp.path().join("b_dir")).unwrap();
        std::fs::write(tmp.path().join("b_dir/inner.npy"), "x").unwrap();
        std::fs::write(tmp.path().join("a.csv"), "1,2").unwrap();
        std::fs::write(tmp.path().join(".hidden"), "").unwrap();
        let listing = list(tmp.path()).unwrap();
        let paths: Vec<&str> = listing.entries.iter().map(|e| e.path.as_str()).collect();
        assert_eq!(paths, ["b_dir", "b_dir/inner.npy", "a.csv"]);
        assert_eq!(listing.entries[2].size, 3);
        assert!(!listing.truncated);
    }
}
