//! `file://` URIs for figures: what a `resource_link` names and `resources/read` accepts.
//! Written by hand (percent-encoding is a few lines) so the reading side accepts exactly
//! what the writing side makes.

use std::path::{Path, PathBuf};

/// Bytes that stand for themselves in a URI path; everything else is `%XX`.
fn unreserved(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"-._~/".contains(&b)
}

/// The `file://` URI of an absolute path (UTF-8; others are encoded lossily).
pub fn file_uri(path: &Path) -> String {
    let text = path.to_string_lossy();
    let text = text.replace('\\', "/");
    let mut uri = String::from("file://");
    if !text.starts_with('/') {
        uri.push('/'); // a Windows drive: file:///C:/...
    }
    for b in text.bytes() {
        if unreserved(b) || (b == b':' && uri.len() <= 10) {
            uri.push(char::from(b));
        } else {
            uri.push_str(&format!("%{b:02X}"));
        }
    }
    uri
}

/// The path a `file://` URI names, or `None` when it is no such URI or not valid UTF-8.
pub fn path_from_file_uri(uri: &str) -> Option<PathBuf> {
    let rest = uri.strip_prefix("file://")?;
    // Only local files: `file:///path` (an empty host) or `file://localhost/path`.
    let rest = rest.strip_prefix("localhost").unwrap_or(rest);
    if !rest.starts_with('/') {
        return None;
    }
    let mut bytes = Vec::with_capacity(rest.len());
    let mut it = rest.bytes();
    while let Some(b) = it.next() {
        if b == b'%' {
            let hi = char::from(it.next()?).to_digit(16)?;
            let lo = char::from(it.next()?).to_digit(16)?;
            bytes.push(u8::try_from(hi * 16 + lo).ok()?);
        } else {
            bytes.push(b);
        }
    }
    let text = String::from_utf8(bytes).ok()?;
    if cfg!(windows) && text.get(2..3) == Some(":") {
        return Some(PathBuf::from(&text[1..]));
    }
    Some(PathBuf::from(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_round_trip_with_spaces_quotes_and_non_ascii() {
        for path in [
            "/home/a/figures/fig.png",
            "/home/a b/Résumé 'x' #1?/fig-2.png",
            "/tmp/%41/数据.svg",
        ] {
            let uri = file_uri(Path::new(path));
            assert!(uri.starts_with("file:///"), "{uri}");
            assert!(!uri[7..].contains([' ', '#', '?', '\'']), "{uri}");
            assert_eq!(path_from_file_uri(&uri), Some(PathBuf::from(path)), "{uri}");
        }
        assert_eq!(file_uri(Path::new("/a b")), "file:///a%20b");
    }

    #[test]
    fn only_local_file_uris_are_read() {
        assert_eq!(path_from_file_uri("http://example.com/x.png"), None);
        assert_eq!(path_from_file_uri("file://server/share/x.png"), None);
        assert_eq!(path_from_file_uri("file:///x%zz"), None);
        assert_eq!(path_from_file_uri("file:///x%ff"), None, "not UTF-8");
        assert_eq!(
            path_from_file_uri("file://localhost/x.png"),
            Some(PathBuf::from("/x.png"))
        );
    }
}
