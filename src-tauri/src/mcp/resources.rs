//! The rules for figure code (`pdfagent://rules`, text) and the figures folder as MCP
//! resources: `resources/list` names the rules and the figure files, `resources/read`
//! returns one whole. Only regular files directly in the figures folder
//! with a figure's extension are served — no link, no sub-folder, nothing else on disk,
//! whatever URI a client sends.

use super::{text, uri};
use base64::Engine as _;
use python_runtime::{FigureFormat, KeptFigureError, OutputError, read_kept_figure, validate};
use rmcp::model::{Resource, ResourceContents};
use std::path::{Path, PathBuf};

/// Why a resource is not served: what the client sent is not a figure of this server, or
/// the figures folder cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum ResourceError {
    #[error(
        "`{uri}` is not a figure of this server: it serves the figure files in `{}` (the links \
         make_figure returns)",
        figures.display()
    )]
    NotAFigure { uri: String, figures: PathBuf },
    #[error(
        "`{uri}` is not a figure this server can serve ({source}): it serves the figure files \
         in `{}` (the links make_figure returns)",
        figures.display()
    )]
    Unreadable {
        uri: String,
        figures: PathBuf,
        #[source]
        source: OutputError,
    },
    #[error("the figures folder `{}` cannot be read: {source}", figures.display())]
    Folder {
        figures: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// Largest figure served (the pipeline keeps none larger).
const MAX_BYTES: u64 = 50 << 20;
/// Most resources listed: the newest first.
const MAX_LISTED: usize = 500;

/// The rules for figure code, as listed (the text is `text::rules_document`).
pub fn rules() -> Resource {
    Resource::new(text::RULES_URI, "rules")
        .with_title("Rules for figure code")
        .with_description(
            "What make_figure code may import, use and call; read it before writing code.",
        )
        .with_mime_type("text/markdown")
}

/// The rules' text as `resources/read` returns it.
pub fn rules_contents(rules: String) -> ResourceContents {
    ResourceContents::text(rules, text::RULES_URI).with_mime_type("text/markdown")
}

/// The figure files in `figures`, newest first.
pub fn list(figures: &Path) -> Vec<Resource> {
    let Ok(entries) = std::fs::read_dir(figures) else {
        return Vec::new();
    };
    let mut found: Vec<(std::time::SystemTime, Resource)> = entries
        .flatten()
        .filter_map(|entry| {
            let path = entry.path();
            let name = entry.file_name().to_str()?.to_owned();
            let meta = std::fs::symlink_metadata(&path).ok()?;
            let format = FigureFormat::of_path(&path)?;
            if !meta.is_file() || name.starts_with('.') {
                return None;
            }
            let modified = meta.modified().unwrap_or(std::time::UNIX_EPOCH);
            let resource = Resource::new(uri::file_uri(&path), name)
                .with_mime_type(format.mime())
                .with_size(meta.len());
            Some((modified, resource))
        })
        .collect();
    found.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.name.cmp(&b.1.name)));
    found.into_iter().take(MAX_LISTED).map(|(_, r)| r).collect()
}

/// The figure `uri` names, if it is a figure file directly in `figures`.
pub fn read(figures: &Path, uri_text: &str) -> Result<ResourceContents, ResourceError> {
    let refuse = || ResourceError::NotAFigure {
        uri: uri_text.to_owned(),
        figures: figures.to_path_buf(),
    };
    let path = uri::path_from_file_uri(uri_text).ok_or_else(refuse)?;
    let format = FigureFormat::of_path(&path).ok_or_else(refuse)?;
    // The decoded name is checked again by the figure-name rule: a link names a figure by
    // its percent-encoded name, and nothing else (no `..`, no control or direction
    // character) is read through one. A decomposed name is the same name (macOS lists
    // names decomposed).
    let stem = path
        .file_stem()
        .and_then(|s| s.to_str())
        .ok_or_else(refuse)?;
    if validate::figure_name(stem).is_err() {
        return Err(refuse());
    }
    // The folder the file is in, with links resolved, must be the figures folder itself;
    // the file must not be a link (the engine refuses links, FIFOs and hard links).
    let bytes = read_kept_figure(figures, &path, MAX_BYTES).map_err(|e| match e {
        KeptFigureError::Outside { .. } => refuse(),
        KeptFigureError::Folder { figures, source } => ResourceError::Folder { figures, source },
        KeptFigureError::Unreadable(source) => ResourceError::Unreadable {
            uri: uri_text.to_owned(),
            figures: figures.to_path_buf(),
            source,
        },
    })?;
    let data = base64::engine::general_purpose::STANDARD.encode(bytes);
    Ok(ResourceContents::blob(data, uri_text).with_mime_type(format.mime()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serves_figures_of_the_folder_and_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        let figures = dir.path().join("figures");
        std::fs::create_dir(&figures).unwrap();
        std::fs::write(figures.join("a.png"), b"png bytes").unwrap();
        std::fs::write(figures.join("notes.txt"), b"x").unwrap();
        std::fs::write(dir.path().join("secret.png"), b"secret").unwrap();
        let ok = read(&figures, &uri::file_uri(&figures.join("a.png"))).unwrap();
        assert!(matches!(ok, ResourceContents::BlobResourceContents { .. }));
        for bad in [
            uri::file_uri(&figures.join("notes.txt")),
            uri::file_uri(&dir.path().join("secret.png")),
            uri::file_uri(&figures.join("../secret.png")),
            "file:///etc/passwd".to_owned(),
            "http://example.com/a.png".to_owned(),
        ] {
            assert!(read(&figures, &bad).is_err(), "{bad} was served");
        }
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(dir.path().join("secret.png"), figures.join("l.png"))
                .unwrap();
            assert!(read(&figures, &uri::file_uri(&figures.join("l.png"))).is_err());
        }
        let names: Vec<String> = list(&figures).into_iter().map(|r| r.name).collect();
        assert_eq!(names, ["a.png"]);
    }

    #[test]
    fn names_in_any_script_round_trip_and_the_decoded_name_is_checked_again() {
        let dir = tempfile::tempdir().unwrap();
        let figures = dir.path();
        std::fs::write(figures.join("图1.png"), b"png bytes").unwrap();
        let link = uri::file_uri(&figures.join("图1.png"));
        assert!(link.is_ascii() && link.contains("%E5%9B%BE1.png"), "{link}");
        let ResourceContents::BlobResourceContents { blob, .. } = read(figures, &link).unwrap()
        else {
            panic!("not a blob");
        };
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(blob)
            .unwrap();
        assert_eq!(bytes, b"png bytes");
        // A file whose name the rule refuses is not served, whatever its extension.
        for name in [
            "a\u{202E}gnp.png",
            "\u{301}e.png",
            "CON.png",
            "a:b.png",
            " a.png",
        ] {
            std::fs::write(figures.join(name), b"png bytes").unwrap();
            assert!(
                read(figures, &uri::file_uri(&figures.join(name))).is_err(),
                "{name:?} was served"
            );
        }
    }
}
