//! What the window remembers across launches: the data folder, the figures folder and the
//! limits, as JSON in the app's config dir. A missing or unreadable file means defaults.

use python_runtime::Limits;
use python_runtime::default_folder;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::time::Duration;

pub const FILE_NAME: &str = "settings.json";

/// Time limit bounds in seconds.
pub const TIMEOUT_RANGE: std::ops::RangeInclusive<u64> = 5..=3600;

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Settings {
    /// The data folder (resolved); `None` until one is chosen.
    pub folder: Option<PathBuf>,
    pub figures: PathBuf,
    pub timeout_s: u64,
    pub memory_mb: u64,
}

/// The figures folder before Settings chooses one: the engine's default, the MCP server's
/// too (`default_folder`). With no home folder at all, the temporary folder, so the window
/// still opens; Settings then says there is no default.
pub fn default_figures() -> PathBuf {
    default_folder::here(None)
        .map(|d| d.path)
        .unwrap_or_else(|_| std::env::temp_dir().join(default_folder::FOLDER_NAME))
}

/// Where figures go by default, for Settings: the folder, or why there is none.
pub fn default_figures_text(data: Option<&Path>) -> String {
    match default_folder::here(data) {
        Ok(d) => {
            let mut text = d.describe();
            text[..1].make_ascii_uppercase();
            text + "."
        }
        Err(e) => format!("No default figures folder: {e}."),
    }
}

impl Settings {
    pub fn load(file: Option<&Path>, default_figures: PathBuf) -> Settings {
        let defaults = Settings {
            folder: None,
            figures: default_figures,
            timeout_s: 90,
            memory_mb: 4096,
        };
        let Some(saved) = file
            .and_then(|f| std::fs::read_to_string(f).ok())
            .and_then(|text| serde_json::from_str::<Settings>(&text).ok())
        else {
            return defaults;
        };
        Settings {
            // A folder that has gone away since is forgotten rather than shown broken.
            folder: saved.folder.filter(|f| f.is_dir()),
            ..saved
        }
    }

    /// A figures folder left at the default moves out of a data folder that holds it (the
    /// data folder is Documents), as the MCP server's does: figures never land among the
    /// data, and the MCP snippet starts a server. A folder chosen in Settings stays.
    pub fn keep_default_figures_outside_the_data(&mut self) {
        let Some(folder) = &self.folder else { return };
        if !self.figures.starts_with(folder) {
            return;
        }
        let is_default = default_folder::here(None).is_ok_and(|d| d.path == self.figures);
        if let (true, Ok(moved)) = (is_default, default_folder::here(Some(folder))) {
            self.figures = moved.path;
        }
    }

    /// The limits of a run made from the window.
    pub fn limits(&self) -> Limits {
        Limits {
            timeout: Duration::from_secs(self.timeout_s),
            memory_bytes: self.memory_mb.saturating_mul(1 << 20),
            ..Limits::default()
        }
    }

    pub fn save(&self, file: Option<&Path>) -> Result<(), SaveError> {
        let Some(file) = file else { return Ok(()) };
        let text = serde_json::to_string_pretty(self).map_err(SaveError::Encode)?;
        if let Some(dir) = file.parent() {
            std::fs::create_dir_all(dir).map_err(|source| SaveError::CreateDir {
                dir: dir.to_path_buf(),
                source,
            })?;
        }
        std::fs::write(file, text).map_err(|source| SaveError::Write {
            file: file.to_path_buf(),
            source,
        })
    }
}

/// Why the settings could not be saved; the window shows the sentence.
#[derive(Debug, thiserror::Error)]
pub enum SaveError {
    #[error("could not encode the settings: {0}")]
    Encode(#[source] serde_json::Error),
    #[error(
        "could not create `{}` for the settings: {source}; check that your config folder is writable",
        dir.display()
    )]
    CreateDir {
        dir: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error(
        "could not save the settings to `{}`: {source}; check that the file is writable",
        file.display()
    )]
    Write {
        file: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_forgets_a_vanished_folder() {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("cfg").join(FILE_NAME);
        let data = tmp.path().join("data");
        std::fs::create_dir(&data).unwrap();
        let mut s = Settings::load(Some(&file), tmp.path().join("figs"));
        assert_eq!(s.folder, None);
        assert_eq!(s.timeout_s, 90);
        s.folder = Some(data.clone());
        s.timeout_s = 30;
        s.save(Some(&file)).unwrap();
        let again = Settings::load(Some(&file), PathBuf::from("/elsewhere"));
        assert_eq!(again.folder, Some(data.clone()));
        assert_eq!(again.timeout_s, 30);
        assert_eq!(again.figures, tmp.path().join("figs"));
        std::fs::remove_dir(&data).unwrap();
        assert_eq!(Settings::load(Some(&file), PathBuf::new()).folder, None);
    }
}
