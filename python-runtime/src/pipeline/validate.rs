//! Input validation: everything a request carries is checked before any code is looked at,
//! and each refusal says what to send instead (the contract's `input` stage). Whether the
//! name is free in the figures folder is the output stage's to say (`figures/names.rs`,
//! which knows what the folder holds); the pipeline asks it after these checks, and its
//! answer is an [`InputError`] too.

use super::name::{self, BadName, NameProblem, NameTaken};
use super::{FigureFormat, FigureRequest, Limits};
use crate::contract::InputRule;
use std::path::{Path, PathBuf};

pub use super::MAX_CODE_BYTES;
pub use super::name::{MAX_NAME_BYTES, MAX_NAME_CHARS};

/// One reason the request cannot be run as given.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InputError {
    #[error("the figure name `{name}` {problem}")]
    BadName { name: String, problem: NameProblem },
    #[error(transparent)]
    Taken(#[from] NameTaken),
    #[error("the source folder `{}` does not exist or is not a folder: pass the folder that holds the data", .path.display())]
    SrcNotAFolder { path: PathBuf },
    #[error("the folder path `{}` is not valid UTF-8: move the data to a folder with a plain name", .path.display())]
    PathNotUtf8 { path: PathBuf },
    #[error("the figures folder `{}` could not be created or is not a folder: {reason}", .path.display())]
    FiguresFolder { path: PathBuf, reason: String },
    #[error("the code is {len} bytes; at most {MAX_CODE_BYTES} bytes are accepted")]
    CodeTooLarge { len: usize },
    #[error("the code is empty: send the Python code that makes the figure")]
    CodeEmpty,
    #[error("{0}")]
    BadLimit(String),
}

impl InputError {
    /// The rule used in the result's `errors`.
    pub fn rule(&self) -> InputRule {
        match self {
            InputError::BadName { .. } => InputRule::BadName,
            InputError::Taken(_) => InputRule::NameTaken,
            InputError::SrcNotAFolder { .. } => InputRule::SrcNotAFolder,
            InputError::PathNotUtf8 { .. } => InputRule::PathNotUtf8,
            InputError::FiguresFolder { .. } => InputRule::FiguresFolder,
            InputError::CodeTooLarge { .. } => InputRule::CodeTooLarge,
            InputError::CodeEmpty => InputRule::CodeEmpty,
            InputError::BadLimit(_) => InputRule::BadLimit,
        }
    }
}

impl From<BadName> for InputError {
    fn from(BadName { name, problem }: BadName) -> InputError {
        InputError::BadName { name, problem }
    }
}

/// The request's folders, resolved: both exist, are folders and have UTF-8 paths.
#[derive(Debug, Clone)]
pub struct ValidInput {
    /// The figure name, NFC-normalised: the name the files are saved under.
    pub name: String,
    /// The source folder with symlinks resolved (what the worker's `SRC` is).
    pub src: PathBuf,
    /// The figures folder with symlinks resolved (created if it was missing).
    pub figures: PathBuf,
    /// The figure's format (the request's).
    pub format: FigureFormat,
    /// Whether the worker makes previews (the request's).
    pub preview: bool,
}

impl ValidInput {
    /// What the worker is told besides the code.
    pub fn run_options(&self) -> super::script::RunOptions {
        super::script::RunOptions {
            preview: self.preview,
            ..super::script::RunOptions::new(self.format)
        }
    }
}

/// `name` as a figure name ([`name::figure_name`]): NFC-normalised and checked.
pub fn figure_name(raw: &str) -> Result<String, InputError> {
    Ok(name::checked_name(raw)?)
}

/// `name` is a figure name exactly as written (already NFC): for names read back from a
/// record, which were normalised when the figure was made.
pub fn check_name(name: &str) -> Result<(), InputError> {
    Ok(name::check_kept_name(name)?)
}

pub fn check_limits(limits: &Limits) -> Result<(), InputError> {
    let secs = limits.timeout.as_secs_f64();
    if !(1.0..=3600.0).contains(&secs) {
        return Err(InputError::BadLimit(format!(
            "the time limit {secs} s is out of range: give 1 to 3600 seconds"
        )));
    }
    let mib = limits.memory_bytes / (1024 * 1024);
    if !(Limits::MIN_MEMORY_MIB..=Limits::MAX_MEMORY_MIB).contains(&mib) {
        return Err(InputError::BadLimit(format!(
            "the memory limit {mib} MB is out of range: give {} to {} MB",
            Limits::MIN_MEMORY_MIB,
            Limits::MAX_MEMORY_MIB
        )));
    }
    Ok(())
}

fn utf8_path(path: PathBuf) -> Result<PathBuf, InputError> {
    if path.to_str().is_some() {
        Ok(path)
    } else {
        Err(InputError::PathNotUtf8 { path })
    }
}

fn existing_folder(path: &Path) -> Result<PathBuf, InputError> {
    match std::fs::canonicalize(path) {
        Ok(real) if real.is_dir() => utf8_path(real),
        _ => Err(InputError::SrcNotAFolder {
            path: path.to_path_buf(),
        }),
    }
}

fn figures_folder(path: &Path) -> Result<PathBuf, InputError> {
    let fail = |reason: String| InputError::FiguresFolder {
        path: path.to_path_buf(),
        reason,
    };
    std::fs::create_dir_all(path).map_err(|e| fail(e.to_string()))?;
    let real = std::fs::canonicalize(path).map_err(|e| fail(e.to_string()))?;
    if !real.is_dir() {
        return Err(fail("it is not a folder".into()));
    }
    utf8_path(real)
}

/// Check everything but the code's content (that is Layer 1's job) and whether the name is
/// free in the figures folder (the output stage's, `check_name_free` in `figures/names.rs`), in
/// the order a person would fix it: name, code size, limits, source folder, figures folder
/// (created if missing). For the settings alone too (folders, limits, with a stand-in name).
pub fn validate_settings(request: &FigureRequest) -> Result<ValidInput, InputError> {
    let name = figure_name(&request.name)?;
    if request.code.len() > MAX_CODE_BYTES {
        return Err(InputError::CodeTooLarge {
            len: request.code.len(),
        });
    }
    if request.code.iter().all(u8::is_ascii_whitespace) {
        return Err(InputError::CodeEmpty);
    }
    check_limits(&request.limits)?;
    let src = existing_folder(&request.src)?;
    let figures = figures_folder(&request.figures)?;
    Ok(ValidInput {
        name,
        src,
        figures,
        format: request.format,
        preview: request.preview,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_stems_are_accepted() {
        for name in [
            "fig",
            "field_sweep",
            "a-b.c",
            "Fig2",
            "x..y",
            &"a".repeat(64),
        ] {
            assert_eq!(check_name(name), Ok(()), "{name}");
        }
    }

    #[test]
    fn anything_else_is_refused() {
        let long = "a".repeat(65);
        for name in [
            "", ".", "..", ".hidden", "../x", "/abs", "a/b", "a\\b", "x\ny", "x\0y", "C:x", "a b ",
            "x\r", "fig\t", &long,
        ] {
            assert!(
                matches!(check_name(name), Err(InputError::BadName { .. })),
                "{name:?} was accepted"
            );
        }
    }

    #[test]
    fn refusal_names_what_to_use() {
        let err = check_name("../x").unwrap_err().to_string();
        assert!(err.contains("`../x`") && err.contains("separator"), "{err}");
        let err = check_name("a\nb").unwrap_err().to_string();
        assert!(
            err.contains("a\\nb"),
            "newline must be shown escaped: {err}"
        );
    }

    fn request(src: &Path, figures: &Path) -> FigureRequest {
        FigureRequest {
            name: "fig".into(),
            code: b"plt.savefig(OUT)\n".to_vec(),
            src: src.to_path_buf(),
            figures: figures.to_path_buf(),
            format: FigureFormat::default(),
            limits: Limits::default(),
            preview: false,
        }
    }

    #[test]
    fn missing_src_is_refused_and_figures_is_created() {
        let tmp = tempfile::tempdir().unwrap();
        let figures = tmp.path().join("new/figs");
        let err = validate_settings(&request(&tmp.path().join("nope"), &figures)).unwrap_err();
        assert_eq!(err.rule().as_str(), "src-not-a-folder");

        let ok = validate_settings(&request(tmp.path(), &figures)).unwrap();
        assert!(figures.is_dir());
        assert_eq!(ok.src, std::fs::canonicalize(tmp.path()).unwrap());
    }

    #[test]
    fn a_file_is_not_a_folder() {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("f");
        std::fs::write(&file, b"x").unwrap();
        assert_eq!(
            validate_settings(&request(&file, tmp.path()))
                .unwrap_err()
                .rule()
                .as_str(),
            "src-not-a-folder"
        );
        assert_eq!(
            validate_settings(&request(tmp.path(), &file))
                .unwrap_err()
                .rule()
                .as_str(),
            "figures-folder"
        );
    }

    #[test]
    fn oversize_or_empty_code_and_wild_limits_are_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let mut r = request(tmp.path(), tmp.path());
        r.code = vec![b'x'; MAX_CODE_BYTES + 1];
        assert_eq!(
            validate_settings(&r).unwrap_err().rule().as_str(),
            "code-too-large"
        );
        r.code = b"  \n".to_vec();
        assert_eq!(
            validate_settings(&r).unwrap_err().rule().as_str(),
            "code-empty"
        );
        r.code = b"x = 1".to_vec();
        r.limits.timeout = std::time::Duration::from_secs(0);
        assert_eq!(
            validate_settings(&r).unwrap_err().rule().as_str(),
            "bad-limit"
        );
        r.limits = Limits::default();
        r.limits.memory_bytes = 1024;
        assert_eq!(
            validate_settings(&r).unwrap_err().rule().as_str(),
            "bad-limit"
        );
    }
}
