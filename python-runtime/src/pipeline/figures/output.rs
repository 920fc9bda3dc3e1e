//! The figure the code saved (`OUT`): read without trusting the run directory, checked,
//! and moved into the figures folder atomically; plus the character-safe output tail.

use super::format::FigureFormat;
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

/// Why the code's output is not a figure we keep.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    #[error("the code saved no figure: save it with `plt.savefig(OUT)`")]
    Missing,
    #[error("`OUT` is not a regular file: save the figure with `plt.savefig(OUT)`")]
    NotAFile,
    #[error("the saved figure is empty: draw something, then `plt.savefig(OUT)`")]
    Empty,
    #[error("the saved figure is larger than {cap} bytes: lower the dpi or the figure size")]
    TooLarge { cap: u64 },
    #[error(
        "the saved figure was refused: {reason}; a {format} figure was asked for: save it with \
         `plt.savefig(OUT)` (no `format=`), and draw only plot elements"
    )]
    WrongFormat {
        format: FigureFormat,
        reason: String,
    },
    /// Too many pixels for a viewer (`dimensions.rs`); the sentence says how many and what to
    /// do.
    #[error("{0}")]
    TooManyPixels(String),
    #[error("could not read the saved figure `{}`: {source}", .path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// Read the figure at `out`, refusing anything but a plain, single-linked regular file.
///
/// The run directory was writable by the code, so `out.png` may be a symlink or a hard
/// link to a file the code could not read itself (the parent can); it may be a FIFO that
/// would block an ordinary open. Open it without following links and without blocking,
/// and check what was opened.
pub fn read_figure(out: &Path, cap: u64, format: FigureFormat) -> Result<Vec<u8>, OutputError> {
    let bytes = read_single_file(out, cap)?;
    if let Some(reason) = format.problem(&bytes) {
        return Err(OutputError::WrongFormat { format, reason });
    }
    // Measured from the header only: nothing here decodes what a viewer could not.
    if let Some(reason) = super::dimensions::problem(format, &bytes) {
        return Err(OutputError::TooManyPixels(reason));
    }
    Ok(bytes)
}

/// Read a file the worker wrote (a figure, its manifest, a preview) as [`read_figure`] does:
/// no links followed, no FIFO opened, one link only, at most `cap` bytes, not empty.
pub fn read_single_file(out: &Path, cap: u64) -> Result<Vec<u8>, OutputError> {
    let file = match open_no_follow(out) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(OutputError::Missing),
        Err(e) if is_symlink_refusal(&e) => return Err(OutputError::NotAFile),
        Err(source) => {
            return Err(OutputError::Read {
                path: out.to_path_buf(),
                source,
            });
        }
    };
    let meta = file.metadata().map_err(|source| OutputError::Read {
        path: out.to_path_buf(),
        source,
    })?;
    if !meta.is_file() || link_count(&meta) != 1 {
        return Err(OutputError::NotAFile);
    }
    let mut bytes = Vec::new();
    file.take(cap + 1)
        .read_to_end(&mut bytes)
        .map_err(|source| OutputError::Read {
            path: out.to_path_buf(),
            source,
        })?;
    if bytes.is_empty() {
        return Err(OutputError::Empty);
    }
    if bytes.len() as u64 > cap {
        return Err(OutputError::TooLarge { cap });
    }
    Ok(bytes)
}

/// Why a file of a figures folder is not handed out ([`read_kept_figure`]).
#[derive(Debug, thiserror::Error)]
pub enum KeptFigureError {
    #[error("`{}` is not directly in the figures folder `{}`", .file.display(), .figures.display())]
    Outside { file: PathBuf, figures: PathBuf },
    #[error("the figures folder `{}` cannot be read: {source}", .figures.display())]
    Folder {
        figures: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error(transparent)]
    Unreadable(#[from] OutputError),
}

/// A kept figure file, read to hand it out (an MCP resource): the folder `file` is in, with
/// links resolved, must be `figures` itself, and the file is read as
/// [`read_single_file`] reads a worker's (no link, FIFO or hard link; at most `cap` bytes).
pub fn read_kept_figure(figures: &Path, file: &Path, cap: u64) -> Result<Vec<u8>, KeptFigureError> {
    let parent = file.parent().and_then(|p| p.canonicalize().ok());
    let root = figures
        .canonicalize()
        .map_err(|source| KeptFigureError::Folder {
            figures: figures.to_path_buf(),
            source,
        })?;
    if parent.as_deref() != Some(root.as_path()) {
        return Err(KeptFigureError::Outside {
            file: file.to_path_buf(),
            figures: figures.to_path_buf(),
        });
    }
    Ok(read_single_file(file, cap)?)
}

#[cfg(unix)]
fn open_no_follow(path: &Path) -> std::io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)
}

#[cfg(windows)]
fn open_no_follow(path: &Path) -> std::io::Result<File> {
    use std::os::windows::fs::OpenOptionsExt;
    // FILE_FLAG_OPEN_REPARSE_POINT: open a symlink/junction itself, not its target.
    const FILE_FLAG_OPEN_REPARSE_POINT: u32 = 0x0020_0000;
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(FILE_FLAG_OPEN_REPARSE_POINT)
        .open(path)?;
    if file.metadata()?.file_type().is_symlink() {
        return Err(std::io::Error::other("the figure is a link"));
    }
    Ok(file)
}

#[cfg(unix)]
fn is_symlink_refusal(e: &std::io::Error) -> bool {
    e.raw_os_error() == Some(libc::ELOOP)
}

#[cfg(windows)]
fn is_symlink_refusal(e: &std::io::Error) -> bool {
    e.kind() == std::io::ErrorKind::Other
}

#[cfg(unix)]
fn link_count(meta: &std::fs::Metadata) -> u64 {
    use std::os::unix::fs::MetadataExt;
    meta.nlink()
}

#[cfg(windows)]
fn link_count(_meta: &std::fs::Metadata) -> u64 {
    // The stable std API does not expose the link count on Windows; the Job Object and
    // the restricted token keep the worker from linking files it cannot read.
    1
}

#[derive(Debug, thiserror::Error)]
#[error("could not save the figure as `{}`: {source}; check that the figures folder is writable and has space", .path.display())]
pub struct SaveError {
    pub path: PathBuf,
    #[source]
    pub source: std::io::Error,
}

/// Write `bytes` to `figures/NAME.EXT` (the format's extension) atomically: complete and
/// flushed to disk before it takes the name, replacing the old figure in one step. A failure
/// at any point leaves the old figure (if any) untouched, and a host that dies mid-save
/// leaves no temporary file behind (see [`super::temp`]).
pub fn save_atomically(
    figures: &Path,
    name: &str,
    format: FigureFormat,
    bytes: &[u8],
) -> Result<PathBuf, SaveError> {
    let ext = format.extension();
    let target = figures.join(format!("{name}.{ext}"));
    // A figure is an ordinary document (0644 less umask would need the umask, which cannot
    // be read without changing it: 0644 it is).
    super::temp::write_atomically(
        figures,
        &format!(".{name}.{ext}."),
        &target,
        bytes,
        Some(0o644),
    )
    .map_err(|source| SaveError {
        path: target.clone(),
        source,
    })?;
    sync_dir(figures);
    Ok(target)
}

/// Make the rename durable. Best effort: some file systems refuse to sync a directory, and
/// the figure is already complete and in place either way.
fn sync_dir(dir: &Path) {
    #[cfg(unix)]
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
    #[cfg(not(unix))]
    let _ = dir;
}

/// The first `max_chars` characters of `text` (never splitting a character), with `mark`
/// after them when something was cut.
pub fn cap_chars(text: &str, max_chars: usize, mark: &str) -> String {
    match text.char_indices().nth(max_chars) {
        Some((end, _)) => format!("{}{mark}", &text[..end]),
        None => text.to_owned(),
    }
}

/// The last `max_chars` characters of `text` (never splitting a character).
pub fn tail_chars(text: &str, max_chars: usize) -> &str {
    match text.char_indices().rev().nth(max_chars.saturating_sub(1)) {
        Some(_) if max_chars == 0 => "",
        Some((start, _)) => &text[start..],
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PNG: FigureFormat = FigureFormat::Png;
    const TINY_PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0";

    #[test]
    fn tail_keeps_last_chars_on_boundaries() {
        assert_eq!(tail_chars("hello", 3), "llo");
        assert_eq!(tail_chars("hi", 3), "hi");
        assert_eq!(tail_chars("", 3), "");
        assert_eq!(tail_chars("abc", 0), "");
        assert_eq!(tail_chars("aé€😀", 3), "é€😀");
        assert_eq!(tail_chars("aé€😀", 2), "€😀");
        let long = "é".repeat(2000);
        assert_eq!(tail_chars(&long, 1500).chars().count(), 1500);
    }

    #[test]
    fn read_figure_accepts_a_png_and_refuses_the_rest() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out.png");
        assert!(matches!(
            read_figure(&out, 1000, PNG),
            Err(OutputError::Missing)
        ));
        std::fs::write(&out, b"").unwrap();
        assert!(matches!(
            read_figure(&out, 1000, PNG),
            Err(OutputError::Empty)
        ));
        std::fs::write(&out, b"not a png at all, really").unwrap();
        assert!(matches!(
            read_figure(&out, 1000, PNG),
            Err(OutputError::WrongFormat { .. })
        ));
        std::fs::write(&out, TINY_PNG).unwrap();
        assert_eq!(read_figure(&out, 1000, PNG).unwrap(), TINY_PNG);
        assert!(matches!(
            read_figure(&out, 10, PNG),
            Err(OutputError::TooLarge { cap: 10 })
        ));
        std::fs::remove_file(&out).unwrap();
        std::fs::create_dir(&out).unwrap();
        assert!(matches!(
            read_figure(&out, 1000, PNG),
            Err(OutputError::NotAFile)
        ));
    }

    #[test]
    fn read_figure_checks_the_requested_format() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out.svg");
        std::fs::write(&out, TINY_PNG).unwrap();
        assert!(matches!(
            read_figure(&out, 1000, FigureFormat::Svg),
            Err(OutputError::WrongFormat {
                format: FigureFormat::Svg,
                ..
            })
        ));
        std::fs::write(&out, b"<svg><script>alert(1)</script></svg>").unwrap();
        let err = read_figure(&out, 1000, FigureFormat::Svg)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("<script>") && err.contains("svg figure"),
            "{err}"
        );
        std::fs::write(&out, b"<svg xmlns='http://www.w3.org/2000/svg'/>").unwrap();
        assert!(read_figure(&out, 1000, FigureFormat::Svg).is_ok());
        let saved = save_atomically(dir.path(), "fig", FigureFormat::Svg, b"<svg/>").unwrap();
        assert_eq!(saved, dir.path().join("fig.svg"));
    }

    #[cfg(unix)]
    #[test]
    fn read_figure_does_not_follow_links_or_block_on_fifos() {
        let outside = tempfile::tempdir().unwrap();
        let secret = outside.path().join("secret.png");
        std::fs::write(&secret, TINY_PNG).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out.png");

        std::os::unix::fs::symlink(&secret, &out).unwrap();
        assert!(matches!(
            read_figure(&out, 1000, PNG),
            Err(OutputError::NotAFile)
        ));
        std::fs::remove_file(&out).unwrap();

        std::fs::hard_link(&secret, &out).unwrap();
        assert!(matches!(
            read_figure(&out, 1000, PNG),
            Err(OutputError::NotAFile)
        ));
        std::fs::remove_file(&out).unwrap();

        let c = std::ffi::CString::new(out.to_str().unwrap()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        assert!(matches!(
            read_figure(&out, 1000, PNG),
            Err(OutputError::NotAFile)
        ));
    }

    #[test]
    fn save_replaces_atomically_and_leaves_no_temporary_file() {
        let figures = tempfile::tempdir().unwrap();
        let path = save_atomically(figures.path(), "fig", PNG, TINY_PNG).unwrap();
        assert_eq!(path, figures.path().join("fig.png"));
        assert_eq!(std::fs::read(&path).unwrap(), TINY_PNG);
        let mut second = TINY_PNG.to_vec();
        second.push(0);
        save_atomically(figures.path(), "fig", PNG, &second).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), second);
        let names: Vec<_> = std::fs::read_dir(figures.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("fig.png")]);
    }
}
