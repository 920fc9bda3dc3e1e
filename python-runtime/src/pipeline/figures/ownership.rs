//! Which files in a figures folder belong to which figure name, so that a run with several
//! figures (`NAME.png`, `NAME-2.png`, …) can never overwrite another figure.
//!
//! `NAME-2` is also a valid name of its own, so a file `NAME-2.png` may be a figure someone
//! made under that name. The folder keeps a small index, `.pdfagent-groups.json`, of the
//! extra files each name's last run wrote: an extra may replace only a file the index says
//! is its own, a run's leftover extras from an earlier, larger run are removed, and a run
//! under a name that is another run's extra is refused, naming that run — a figure is
//! replaced only by a run of its own name, in both directions. The index is ours (the
//! worker cannot write the figures folder); it is read and written under a lock, so two
//! hosts saving into one folder do not lose each other's entries.

use super::format::FigureFormat;
use std::collections::BTreeMap;
use std::fs::File;
use std::path::{Path, PathBuf};

/// The index of extra files per figure name, in the figures folder.
pub const INDEX: &str = ".pdfagent-groups.json";
/// The file locked while the index is read, the figures are saved and the index is written.
const LOCK: &str = ".pdfagent-groups.lock";

#[derive(Debug, thiserror::Error)]
pub enum OwnershipError {
    #[error(
        "`{}` already exists and is not a figure of `{name}`: choose another name, or move \
         that file away", .path.display()
    )]
    Taken { path: PathBuf, name: String },
    #[error(
        "`{}` is figure {number} of the run `{owner}`: run `{owner}` again to replace it, or \
         choose another name", .path.display()
    )]
    OtherRuns {
        path: PathBuf,
        owner: String,
        number: usize,
    },
    #[error("could not lock `{}`: {source}; check that the figures folder is writable", .path.display())]
    Lock {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

type Index = BTreeMap<String, Vec<String>>;

/// The figures folder's group index, locked until dropped.
pub struct Ownership {
    figures: PathBuf,
    index: Index,
    /// Held until dropped: every run takes it, so that keeping the replaced group as a
    /// version and putting the new one in place is one step for any other host.
    _lock: File,
}

impl Ownership {
    /// Lock the folder's index and read it (a missing or unreadable index is empty).
    pub fn lock(figures: &Path) -> Result<Ownership, OwnershipError> {
        let path = figures.join(LOCK);
        let fail = |source| OwnershipError::Lock {
            path: path.clone(),
            source,
        };
        let lock = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(fail)?;
        lock.lock().map_err(fail)?;
        let index = read_index(figures);
        Ok(Ownership {
            figures: figures.to_path_buf(),
            index,
            _lock: lock,
        })
    }

    /// The figures folder this index belongs to.
    pub fn figures(&self) -> &Path {
        &self.figures
    }

    /// The extra files (`NAME-2.png`, …) the index gives `name`'s current run.
    pub fn extras(&self, name: &str) -> Vec<String> {
        self.index.get(name).cloned().unwrap_or_default()
    }

    /// Give `name` exactly these extra files (a restored or rolled-back version's), taking
    /// them out of every other group, and write the index. A failure to write is returned:
    /// the caller is putting files back and must say so.
    pub fn set_extras(&mut self, name: &str, extras: Vec<String>) -> std::io::Result<()> {
        for files in self.index.values_mut() {
            files.retain(|f| !extras.contains(f));
        }
        self.index.retain(|_, files| !files.is_empty());
        if extras.is_empty() {
            self.index.remove(name);
        } else {
            self.index.insert(name.to_owned(), extras);
        }
        write_index(&self.figures, &self.index)
    }

    /// The file stems for a run of `name` with figures of these formats: `name`, `name-2`,
    /// … — refused when an extra would replace a file that is not one of `name`'s own.
    pub fn claim(
        &self,
        name: &str,
        formats: &[FigureFormat],
    ) -> Result<Vec<String>, OwnershipError> {
        let own = self.index.get(name);
        let mut stems = Vec::with_capacity(formats.len());
        for (i, format) in formats.iter().enumerate() {
            let stem = stem(name, i);
            if i == 0 {
                let file = file_name(&stem, *format);
                if let Some(owner) = owner_in(&self.index, &self.figures, name, &file) {
                    return Err(OwnershipError::OtherRuns {
                        path: self.figures.join(file),
                        owner: owner.name,
                        number: owner.number,
                    });
                }
            } else {
                let file = file_name(&stem, *format);
                let path = self.figures.join(&file);
                let exists = std::fs::symlink_metadata(&path).is_ok();
                if exists && !own.is_some_and(|files| files.contains(&file)) {
                    return Err(OwnershipError::Taken {
                        path,
                        name: name.to_owned(),
                    });
                }
            }
            stems.push(stem);
        }
        Ok(stems)
    }

    /// After a run of `name` kept these files: remember its extras, remove the extras its
    /// earlier runs left that this one did not write again, and take the files out of every
    /// other group. Best effort: the figures are already in place. The lock stays held
    /// until `self` is dropped (the versions store is brought up to date under it).
    pub fn settle(&mut self, name: &str, stems: &[String], formats: &[FigureFormat]) {
        let written: Vec<String> = stems
            .iter()
            .zip(formats)
            .map(|(stem, format)| file_name(stem, *format))
            .collect();
        let extras: Vec<String> = written.iter().skip(1).cloned().collect();
        for stale in self.index.remove(name).unwrap_or_default() {
            let path = self.figures.join(&stale);
            let is_file = std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_file());
            if !written.contains(&stale) && is_file {
                let _ = std::fs::remove_file(path);
            }
        }
        for files in self.index.values_mut() {
            files.retain(|f| !written.contains(f));
        }
        self.index.retain(|_, files| !files.is_empty());
        if !extras.is_empty() {
            self.index.insert(name.to_owned(), extras);
        }
        // A folder of single figures keeps no index file.
        if !self.index.is_empty() || self.figures.join(INDEX).exists() {
            let _ = write_index(&self.figures, &self.index);
        }
    }
}

/// The run a file belongs to as an extra figure.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Owner {
    /// The run's name.
    pub name: String,
    /// The file, e.g. `bands-2.png`.
    pub file: String,
    /// Which figure of the run it is (2 for `bands-2.png`).
    pub number: usize,
}

/// The other run whose extra figure a run of `name` would replace, if any (read without the
/// lock: the early check before a run; [`Ownership::claim`] checks again under the lock).
pub fn owner_of(figures: &Path, name: &str) -> Option<Owner> {
    let index = read_index(figures);
    [FigureFormat::Png, FigureFormat::Svg, FigureFormat::Pdf]
        .iter()
        .find_map(|f| owner_in(&index, figures, name, &file_name(name, *f)))
}

fn owner_in(index: &Index, figures: &Path, name: &str, file: &str) -> Option<Owner> {
    let (owner, _) = index
        .iter()
        .find(|(owner, files)| owner.as_str() != name && files.iter().any(|f| f == file))?;
    // A file the index lists but that is gone is free again.
    std::fs::symlink_metadata(figures.join(file)).ok()?;
    let number = name
        .strip_prefix(owner.as_str())
        .and_then(|rest| rest.strip_prefix('-'))
        .and_then(|n| n.parse().ok())
        .unwrap_or(2);
    Some(Owner {
        name: owner.clone(),
        file: file.to_owned(),
        number,
    })
}

fn read_index(figures: &Path) -> Index {
    std::fs::read(figures.join(INDEX))
        .ok()
        .and_then(|bytes| serde_json::from_slice(&bytes).ok())
        .unwrap_or_default()
}

/// The stem of the `i`-th figure (from 0) of a run named `name`.
fn stem(name: &str, i: usize) -> String {
    if i == 0 {
        name.to_owned()
    } else {
        format!("{name}-{}", i + 1)
    }
}

fn file_name(stem: &str, format: FigureFormat) -> String {
    format!("{stem}.{}", format.extension())
}

fn write_index(figures: &Path, index: &Index) -> std::io::Result<()> {
    let bytes = serde_json::to_vec_pretty(index).map_err(std::io::Error::other)?;
    super::temp::write_atomically(
        figures,
        ".pdfagent-groups.",
        &figures.join(INDEX),
        &bytes,
        None,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const PNG: FigureFormat = FigureFormat::Png;

    use crate::pipeline::figures::visible_names as files;

    fn run(dir: &Path, name: &str, formats: &[FigureFormat]) -> Result<(), OwnershipError> {
        let mut ownership = Ownership::lock(dir)?;
        let stems = ownership.claim(name, formats)?;
        for (stem, format) in stems.iter().zip(formats) {
            std::fs::write(dir.join(file_name(stem, *format)), name).unwrap();
        }
        ownership.settle(name, &stems, formats);
        Ok(())
    }

    #[test]
    fn extras_are_numbered_and_replace_only_their_own_files() {
        let dir = tempfile::tempdir().unwrap();
        run(dir.path(), "fig", &[PNG, FigureFormat::Svg, PNG]).unwrap();
        assert_eq!(files(dir.path()), ["fig-2.svg", "fig-3.png", "fig.png"]);
        // The same name again: its own extras are replaced, the leftover one removed.
        run(dir.path(), "fig", &[PNG, FigureFormat::Svg]).unwrap();
        assert_eq!(files(dir.path()), ["fig-2.svg", "fig.png"]);
        run(dir.path(), "fig", &[PNG]).unwrap();
        assert_eq!(files(dir.path()), ["fig.png"]);
    }

    #[test]
    fn an_extra_never_overwrites_a_figure_of_another_name() {
        let dir = tempfile::tempdir().unwrap();
        run(dir.path(), "fig-2", &[PNG]).unwrap();
        let err = run(dir.path(), "fig", &[PNG, PNG]).unwrap_err();
        assert!(matches!(err, OwnershipError::Taken { .. }), "{err}");
        assert!(err.to_string().contains("fig-2.png"), "{err}");
        assert_eq!(
            std::fs::read_to_string(dir.path().join("fig-2.png")).unwrap(),
            "fig-2"
        );
        // Nor a file that is no figure of ours at all, a link included.
        let other = tempfile::tempdir().unwrap();
        std::fs::write(other.path().join("notes.txt"), "x").unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(
            other.path().join("notes.txt"),
            dir.path().join("plot-2.png"),
        )
        .unwrap();
        #[cfg(unix)]
        assert!(run(dir.path(), "plot", &[PNG, PNG]).is_err());
    }

    #[test]
    fn a_run_named_as_another_runs_extra_is_refused_naming_that_run() {
        let dir = tempfile::tempdir().unwrap();
        run(dir.path(), "fig", &[PNG, PNG]).unwrap();
        assert_eq!(
            owner_of(dir.path(), "fig-2"),
            Some(Owner {
                name: "fig".into(),
                file: "fig-2.png".into(),
                number: 2
            })
        );
        assert_eq!(owner_of(dir.path(), "fig"), None);
        let err = run(dir.path(), "fig-2", &[PNG]).unwrap_err();
        assert!(
            matches!(err, OwnershipError::OtherRuns { number: 2, .. }),
            "{err}"
        );
        assert!(err.to_string().contains("`fig`"), "{err}");
        assert_eq!(
            std::fs::read_to_string(dir.path().join("fig-2.png")).unwrap(),
            "fig"
        );
        // Once fig's smaller run removed its extra, the name is free.
        run(dir.path(), "fig", &[PNG]).unwrap();
        assert_eq!(owner_of(dir.path(), "fig-2"), None);
        run(dir.path(), "fig-2", &[PNG]).unwrap();
        assert_eq!(files(dir.path()), ["fig-2.png", "fig.png"]);
    }

    #[test]
    fn one_figure_in_a_folder_leaves_only_hidden_bookkeeping() {
        let dir = tempfile::tempdir().unwrap();
        run(dir.path(), "fig", &[PNG]).unwrap();
        assert_eq!(files(dir.path()), ["fig.png"]);
        run(dir.path(), "fig", &[PNG, PNG]).unwrap();
        assert!(dir.path().join(INDEX).is_file());
    }

    #[test]
    fn a_damaged_index_protects_every_existing_file() {
        let dir = tempfile::tempdir().unwrap();
        run(dir.path(), "fig", &[PNG, PNG]).unwrap();
        std::fs::write(dir.path().join(INDEX), b"{not json").unwrap();
        assert!(run(dir.path(), "fig", &[PNG, PNG]).is_err());
        run(dir.path(), "fig", &[PNG]).unwrap();
        assert_eq!(files(dir.path()), ["fig-2.png", "fig.png"]);
    }
}
