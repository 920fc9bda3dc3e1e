//! The folders the person chooses (the data folder in the dialog or with `--open`, the
//! figures folder in Settings): picking one is the choice, so it is only resolved here.
//! Paths inside them that come from the webview go through the engine's one resolver
//! (`python_runtime::listing::resolve_file`), as an agent's do.

use std::path::{Path, PathBuf};

/// Why a chosen folder cannot be used; each message says what to do.
#[derive(Debug, thiserror::Error)]
pub enum FolderError {
    #[error("the folder `{}` cannot be opened: {source}", path.display())]
    Open {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("`{}` is not a folder: choose a folder", .0.display())]
    NotAFolder(PathBuf),
    #[error(
        "the folder path `{}` is not valid UTF-8: move the data to a folder with a plain name",
        .0.display()
    )]
    NotUtf8(PathBuf),
}

/// A folder given by the user (dialog or `--open`), resolved.
pub fn resolve_folder(dir: &Path) -> Result<PathBuf, FolderError> {
    let resolved = dir.canonicalize().map_err(|source| FolderError::Open {
        path: dir.to_path_buf(),
        source,
    })?;
    if !resolved.is_dir() {
        return Err(FolderError::NotAFolder(dir.to_path_buf()));
    }
    if resolved.to_str().is_none() {
        return Err(FolderError::NotUtf8(dir.to_path_buf()));
    }
    Ok(resolved)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chosen_folder_is_resolved_and_a_file_is_refused() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(tmp.path().join("a.csv"), "x").unwrap();
        let sub = tmp.path().join("sub");
        std::fs::create_dir(&sub).unwrap();
        let dotted = tmp.path().join("sub/../sub");
        assert_eq!(
            resolve_folder(&dotted).unwrap(),
            sub.canonicalize().unwrap()
        );
        let err = resolve_folder(&tmp.path().join("a.csv")).unwrap_err();
        assert!(matches!(err, FolderError::NotAFolder(_)), "{err}");
        assert!(err.to_string().contains("is not a folder"), "{err}");
        let err = resolve_folder(&tmp.path().join("missing")).unwrap_err();
        assert!(matches!(err, FolderError::Open { .. }), "{err}");
        assert!(err.to_string().contains("cannot be opened"), "{err}");
    }
}
