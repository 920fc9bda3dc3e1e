//! The figures folder used when none is chosen — one rule for the window and the MCP server
//! (`pdfagent mcp` without `--figures`), so both save where a person looks for them in a
//! file manager:
//!
//! 1. `Documents/PDFAgent figures`, when the person has a Documents folder (the one the
//!    system names — XDG's `XDG_DOCUMENTS_DIR` on Linux, the Documents known folder on
//!    Windows, `~/Documents` on macOS — or else `~/Documents` if it exists);
//! 2. otherwise `PDFAgent figures` in the home folder.
//!
//! A default that would lie inside the data folder (`--src ~/Documents`) is skipped for the
//! next one: the data folder stays read-only, and the server starts instead of refusing.
//! When every candidate lies inside the data folder (the data folder is the home folder),
//! there is no default: the person chooses one (`--figures DIR`, or Settings).
//! `--figures` and the window's Settings override the default. docs/mcp.md and README.md
//! state the same rule.

use std::path::{Path, PathBuf};

/// The default folder's own name, in Documents or in the home folder.
pub const FOLDER_NAME: &str = "PDFAgent figures";

/// The default figures folder, and the one skipped for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DefaultFolder {
    pub path: PathBuf,
    /// The first choice, when it was skipped because it lies inside the data folder.
    pub instead_of: Option<PathBuf>,
}

/// Why there is no default figures folder; the sentence says what to do.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NoDefault {
    #[error(
        "this system names no home folder, so there is no default figures folder: choose one \
         (`--figures DIR`, or Settings in the window)"
    )]
    NoHome,
    #[error(
        "the default figures folder `{}` lies inside the data folder `{}` (which stays \
         read-only): choose a figures folder outside it (`--figures DIR`, or Settings in the \
         window)",
        first.display(),
        src.display()
    )]
    InsideData { first: PathBuf, src: PathBuf },
}

impl DefaultFolder {
    /// One sentence for a person: where figures go by default, and why there when the first
    /// choice was skipped.
    pub fn describe(&self) -> String {
        match &self.instead_of {
            None => format!(
                "the default figures folder is `{}` ({FOLDER_NAME} in Documents, or in the \
                 home folder when there is no Documents folder)",
                self.path.display()
            ),
            Some(first) => format!(
                "the default figures folder `{}` would lie inside the data folder, which stays \
                 read-only; figures go to `{}` instead",
                first.display(),
                self.path.display()
            ),
        }
    }
}

/// The rule itself, over paths only: `documents` is the person's Documents folder when it
/// exists, `home` their home folder, `src` the data folder when one is chosen. Paths are
/// compared as given: pass them resolved (`canonicalize`) alike.
pub fn choose(
    home: Option<&Path>,
    documents: Option<&Path>,
    src: Option<&Path>,
) -> Result<DefaultFolder, NoDefault> {
    let candidates: Vec<PathBuf> = [documents, home]
        .into_iter()
        .flatten()
        .map(|dir| dir.join(FOLDER_NAME))
        .collect();
    let Some(first) = candidates.first().cloned() else {
        return Err(NoDefault::NoHome);
    };
    let outside = |path: &PathBuf| src.is_none_or(|src| !path.starts_with(src));
    match candidates.into_iter().find(outside) {
        Some(path) if path == first => Ok(DefaultFolder {
            path,
            instead_of: None,
        }),
        Some(path) => Ok(DefaultFolder {
            path,
            instead_of: Some(first),
        }),
        None => Err(NoDefault::InsideData {
            first,
            src: src.map(Path::to_path_buf).unwrap_or_default(),
        }),
    }
}

/// The default on this machine, for the data folder `src` (resolved) if one is chosen.
pub fn here(src: Option<&Path>) -> Result<DefaultFolder, NoDefault> {
    let home = dirs::home_dir().map(|h| resolved(&h));
    let documents = dirs::document_dir()
        .filter(|d| d.is_dir())
        .or_else(|| home.as_ref().map(|h| h.join("Documents")))
        .filter(|d| d.is_dir())
        .map(|d| resolved(&d));
    choose(home.as_deref(), documents.as_deref(), src)
}

/// `dir` with links resolved, so it compares with a resolved data folder; as given when it
/// cannot be resolved (a home folder that does not exist yet).
fn resolved(dir: &Path) -> PathBuf {
    dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOME: &str = "/home/ada";
    const DOCS: &str = "/home/ada/Documents";

    fn pick(documents: Option<&str>, src: Option<&str>) -> Result<DefaultFolder, NoDefault> {
        choose(
            Some(Path::new(HOME)),
            documents.map(Path::new),
            src.map(Path::new),
        )
    }

    #[test]
    fn documents_first_then_the_home_folder() {
        let chosen = pick(Some(DOCS), Some("/data/run1")).unwrap();
        assert_eq!(
            chosen.path,
            Path::new("/home/ada/Documents/PDFAgent figures")
        );
        assert_eq!(chosen.instead_of, None);
        // No Documents folder: the home folder's `PDFAgent figures`.
        let chosen = pick(None, Some("/data/run1")).unwrap();
        assert_eq!(chosen.path, Path::new("/home/ada/PDFAgent figures"));
        assert_eq!(chosen.instead_of, None);
        // The window before a data folder is chosen.
        assert_eq!(
            pick(Some(DOCS), None).unwrap().path,
            Path::new("/home/ada/Documents/PDFAgent figures")
        );
    }

    #[test]
    fn a_default_inside_the_data_folder_moves_to_the_home_folder_and_says_so() {
        for src in [DOCS, "/home/ada/Documents/lab"] {
            // A data folder inside Documents only holds the default when it is Documents
            // itself or an ancestor of the default.
            let chosen = pick(Some(DOCS), Some(src)).unwrap();
            if src == DOCS {
                assert_eq!(chosen.path, Path::new("/home/ada/PDFAgent figures"));
                assert_eq!(
                    chosen.instead_of.as_deref(),
                    Some(Path::new("/home/ada/Documents/PDFAgent figures"))
                );
                let said = chosen.describe();
                assert!(said.contains("inside the data folder"), "{said}");
                assert!(said.contains("/home/ada/PDFAgent figures"), "{said}");
            } else {
                assert_eq!(chosen.instead_of, None, "{src}");
            }
        }
        // The data folder is the default folder itself.
        let chosen = pick(Some(DOCS), Some("/home/ada/Documents/PDFAgent figures")).unwrap();
        assert_eq!(chosen.path, Path::new("/home/ada/PDFAgent figures"));
        // A name that only starts the same is not inside: paths compare by component.
        let chosen = pick(Some(DOCS), Some("/home/ada/Doc")).unwrap();
        assert_eq!(chosen.instead_of, None);
    }

    #[test]
    fn no_default_when_every_candidate_is_inside_the_data_folder_or_there_is_no_home() {
        for src in [HOME, "/home", "/"] {
            let err = pick(Some(DOCS), Some(src)).unwrap_err();
            assert_eq!(
                err,
                NoDefault::InsideData {
                    first: PathBuf::from("/home/ada/Documents/PDFAgent figures"),
                    src: PathBuf::from(src),
                }
            );
            assert!(err.to_string().contains("--figures DIR"), "{err}");
        }
        assert_eq!(choose(None, None, None), Err(NoDefault::NoHome));
        // A Documents folder known without a home folder still counts.
        assert_eq!(
            choose(None, Some(Path::new(DOCS)), None).unwrap().path,
            Path::new("/home/ada/Documents/PDFAgent figures")
        );
    }

    #[test]
    fn this_machine_has_a_default_outside_a_data_folder_elsewhere() {
        let data = tempfile::tempdir().unwrap();
        let chosen = here(Some(&data.path().canonicalize().unwrap())).unwrap();
        assert!(chosen.path.ends_with(FOLDER_NAME), "{:?}", chosen.path);
        assert!(chosen.path.is_absolute());
    }
}
