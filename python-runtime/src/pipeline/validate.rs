//! Input validation: everything a request carries is checked before any code is looked at,
//! and each refusal says what to send instead (the contract's `input` stage).

use super::name::{self, NameProblem};
use super::{FigureFormat, FigureRequest, Limits};
use crate::contract::InputRule;
use std::path::{Path, PathBuf};

pub use super::name::{MAX_NAME_BYTES, MAX_NAME_CHARS};
/// Largest accepted code, in bytes: far above any plotting script.
pub const MAX_CODE_BYTES: usize = 1024 * 1024;

/// One reason the request cannot be run as given.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InputError {
    #[error("the figure name `{name}` {problem}")]
    BadName { name: String, problem: NameProblem },
    #[error(
        "the figure name `{name}` is the same as the figure `{file}` but for case, and macOS \
         and Windows take the two for one file: use `{taken}` to replace that figure, or \
         choose another name"
    )]
    CaseClash {
        name: String,
        file: String,
        taken: String,
    },
    #[error(
        "the figure name `{name}` is taken: `{file}` is figure {number} of the run `{owner}`; \
         run `{owner}` again to replace it, or choose another name"
    )]
    OtherRunsFigure {
        name: String,
        file: String,
        owner: String,
        number: usize,
    },
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
            InputError::CaseClash { .. } | InputError::OtherRunsFigure { .. } => {
                InputRule::NameTaken
            }
            InputError::SrcNotAFolder { .. } => InputRule::SrcNotAFolder,
            InputError::PathNotUtf8 { .. } => InputRule::PathNotUtf8,
            InputError::FiguresFolder { .. } => InputRule::FiguresFolder,
            InputError::CodeTooLarge { .. } => InputRule::CodeTooLarge,
            InputError::CodeEmpty => InputRule::CodeEmpty,
            InputError::BadLimit(_) => InputRule::BadLimit,
        }
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
    name::figure_name(raw).map_err(|problem| InputError::BadName {
        name: raw.escape_debug().to_string(),
        problem,
    })
}

/// `name` is a figure name exactly as written (already NFC): for names read back from a
/// record, which were normalised when the figure was made.
pub fn check_name(name: &str) -> Result<(), InputError> {
    match figure_name(name) {
        Ok(kept) if kept == name => Ok(()),
        Ok(_) => Err(InputError::BadName {
            name: name.escape_debug().to_string(),
            problem: NameProblem::NotNfc,
        }),
        Err(e) => Err(e),
    }
}

/// A run of `name` may save into `figures`: no figure there differs from `name` only in
/// case (macOS and Windows would replace it), and `name` is not another run's extra figure
/// ([`super::figures::ownership`]).
pub fn check_name_free(figures: &Path, name: &str) -> Result<(), InputError> {
    let key = name::fold_key(name);
    for (stem, file) in figure_stems(figures) {
        if stem != name && name::fold_key(&stem) == key {
            return Err(InputError::CaseClash {
                name: name.to_owned(),
                file,
                taken: stem,
            });
        }
    }
    if let Some(owner) = super::figures::ownership::owner_of(figures, name) {
        return Err(InputError::OtherRunsFigure {
            name: name.to_owned(),
            file: owner.file,
            owner: owner.name,
            number: owner.number,
        });
    }
    Ok(())
}

/// The name to suggest after a run of `name` in `figures`: `name` with its trailing number
/// counted up (`fig-2` after `fig`, `fig3` after `fig2`), skipping every name that is not
/// free there — a figure's own name, another run's extra, a name that clashes in case. The
/// suggestion is a valid name whenever `name` is one.
pub fn next_free_name(figures: &Path, name: &str) -> String {
    let Ok(name) = figure_name(name) else {
        return name.to_owned();
    };
    let digits = name.len() - name.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    let (base, mut n) = match name[name.len() - digits..].parse::<u64>() {
        Ok(n) if digits > 0 => (name[..name.len() - digits].to_owned(), n),
        _ => (format!("{name}-"), 1),
    };
    let taken: std::collections::BTreeSet<String> = figure_stems(figures)
        .into_iter()
        .map(|(stem, _)| name::fold_key(&stem))
        .collect();
    loop {
        n = n.saturating_add(1);
        let candidate = format!("{base}{n}");
        let usable = figure_name(&candidate).is_ok_and(|c| c == candidate)
            && !taken.contains(&name::fold_key(&candidate))
            && check_name_free(figures, &candidate).is_ok();
        if usable || n == u64::MAX {
            return candidate;
        }
    }
}

/// The (NFC stem, file name) of every figure file in `figures` (read back NFC: HFS+ returns
/// names decomposed).
pub fn figure_stems(figures: &Path) -> Vec<(String, String)> {
    use unicode_normalization::UnicodeNormalization as _;
    let Ok(dir) = std::fs::read_dir(figures) else {
        return Vec::new();
    };
    dir.filter_map(Result::ok)
        .filter_map(|e| e.file_name().into_string().ok())
        .filter_map(|file| {
            let path = Path::new(&file);
            FigureFormat::of_path(path)?;
            let stem = path.file_stem()?.to_str()?.nfc().collect::<String>();
            Some((stem, file))
        })
        .collect()
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

/// Check everything but the code's content (that is Layer 1's job), in the order a person
/// would fix it: name, code size, limits, source folder, figures folder (created if missing),
/// the name free in it.
pub fn validate(request: &FigureRequest) -> Result<ValidInput, InputError> {
    let valid = validate_settings(request)?;
    check_name_free(&valid.figures, &valid.name)?;
    Ok(valid)
}

/// [`validate`] but for whether the name is free in the figures folder: for checking the
/// settings (folders, limits) with a stand-in name.
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
    fn the_suggested_next_name_is_always_free() {
        let dir = tempfile::tempdir().unwrap();
        let figures = dir.path();
        assert_eq!(next_free_name(figures, "bands"), "bands-2");
        assert_eq!(next_free_name(figures, "fig2"), "fig3");
        assert_eq!(next_free_name(figures, "图1"), "图2");
        // `bands` made two figures: `bands-2.png` is its extra, so the next free one.
        for stem in ["bands", "bands-2", "Fig3"] {
            std::fs::write(figures.join(format!("{stem}.png")), b"x").unwrap();
        }
        assert_eq!(next_free_name(figures, "bands"), "bands-3");
        assert_eq!(next_free_name(figures, "fig2"), "fig4");
    }

    #[test]
    fn a_name_that_differs_from_a_figure_only_in_case_is_taken() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("Straße.png"), b"x").unwrap();
        // Read back decomposed, as HFS+ returns it.
        std::fs::write(dir.path().join("Cafe\u{301}.svg"), b"x").unwrap();
        for name in ["STRASSE", "strasse", "straße", "CAFÉ", "cafe\u{301}"] {
            let name = figure_name(name).unwrap();
            let err = check_name_free(dir.path(), &name).unwrap_err();
            assert_eq!(err.rule(), InputRule::NameTaken, "{name}: {err}");
        }
        assert_eq!(check_name_free(dir.path(), "Straße"), Ok(()));
        assert_eq!(check_name_free(dir.path(), "Café"), Ok(()));
        assert_eq!(check_name_free(dir.path(), "Strasse2"), Ok(()));
        let err = check_name_free(dir.path(), "strasse")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("`Straße`") && err.contains("Straße.png"),
            "{err}"
        );
    }

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
        let err = validate(&request(&tmp.path().join("nope"), &figures)).unwrap_err();
        assert_eq!(err.rule().as_str(), "src-not-a-folder");

        let ok = validate(&request(tmp.path(), &figures)).unwrap();
        assert!(figures.is_dir());
        assert_eq!(ok.src, std::fs::canonicalize(tmp.path()).unwrap());
    }

    #[test]
    fn a_file_is_not_a_folder() {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("f");
        std::fs::write(&file, b"x").unwrap();
        assert_eq!(
            validate(&request(&file, tmp.path()))
                .unwrap_err()
                .rule()
                .as_str(),
            "src-not-a-folder"
        );
        assert_eq!(
            validate(&request(tmp.path(), &file))
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
        assert_eq!(validate(&r).unwrap_err().rule().as_str(), "code-too-large");
        r.code = b"  \n".to_vec();
        assert_eq!(validate(&r).unwrap_err().rule().as_str(), "code-empty");
        r.code = b"x = 1".to_vec();
        r.limits.timeout = std::time::Duration::from_secs(0);
        assert_eq!(validate(&r).unwrap_err().rule().as_str(), "bad-limit");
        r.limits = Limits::default();
        r.limits.memory_bytes = 1024;
        assert_eq!(validate(&r).unwrap_err().rule().as_str(), "bad-limit");
    }
}
