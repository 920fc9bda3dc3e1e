//! Windows paths as Python can use them: without the verbatim prefix `\\?\` that
//! `canonicalize` puts in front of every path on Windows (issue 45).
//!
//! Python takes `\\?\C:\…` as given: `sys.prefix`, `sys.path` and every module's `__file__`
//! would carry it, `ntpath` leaves `..` in such a path unresolved (a verbatim path means
//! "no normalisation"), and wheels' DLL loaders that build `os.path.join(here, os.pardir,
//! "…libs")` then point nowhere. So every path that reaches Python or an environment
//! variable — the runtime (`locate.rs`, the interpreter's home), the run directory, `SRC`,
//! the plan's paths — goes through [`plain`] first.
//!
//! The rule is the one of the `dunce` crate (`dunce::simplified`): strip the prefix only
//! from a verbatim *disk* path (`\\?\C:\…`) whose every component is a legal legacy file
//! name (no reserved device name such as `CON` or `NUL`, no trailing dot or space, none of
//! `<>:"/\|?*` or control characters, no `.`/`..` component) and whose whole length fits the
//! legacy 260-character limit; anything else keeps its prefix, since without it the path
//! would name something else or nothing. Written here rather than calling `dunce`, because
//! `dunce` decides with `std::path::Prefix`, which is parsed on Windows only — off Windows
//! its `simplified` returns every path untouched, so its decision could not be unit-tested
//! on the machines this is built on. [`plain_text`] is that decision on text, tested on any
//! OS; [`plain`] applies it on Windows and is the identity elsewhere (a Unix file name may
//! legitimately start with `\\?\`).

use std::path::{Path, PathBuf};

/// The longest path Win32 takes without the verbatim prefix (`MAX_PATH`).
const LEGACY_MAX_PATH: usize = 260;

/// Device names Windows reserves in every folder, with or without an extension.
const RESERVED_NAMES: [&str; 22] = [
    "AUX", "NUL", "PRN", "CON", "COM1", "COM2", "COM3", "COM4", "COM5", "COM6", "COM7", "COM8",
    "COM9", "LPT1", "LPT2", "LPT3", "LPT4", "LPT5", "LPT6", "LPT7", "LPT8", "LPT9",
];

/// `text` without its verbatim prefix when the rest is the same path in legacy form
/// (`\\?\C:\Program Files\PDFAgent` → `C:\Program Files\PDFAgent`); `None` when it has no
/// such prefix or the prefix must stay (a UNC or device path, a reserved or illegal name, a
/// path longer than 260 characters).
pub fn plain_text(text: &str) -> Option<&str> {
    let rest = text.strip_prefix(r"\\?\")?;
    let bytes = rest.as_bytes();
    // A drive letter, a colon, and a root: `C:\`. `\\?\UNC\…`, `\\?\Volume{…}` stay verbatim.
    if bytes.len() < 3 || !bytes[0].is_ascii_alphabetic() || bytes[1] != b':' || bytes[2] != b'\\' {
        return None;
    }
    // As `dunce` counts: the verbatim text, prefix included (so the plain path stays well
    // inside `MAX_PATH`, which also counts the terminating NUL).
    if text.encode_utf16().count() > LEGACY_MAX_PATH {
        return None;
    }
    let components = rest[3..].split('\\').filter(|c| !c.is_empty());
    for name in components {
        if !legal_legacy_name(name) {
            return None;
        }
    }
    // `\\?\C:\a\\b` (an empty component) would become `C:\a\\b`, which Win32 reads as
    // `C:\a\b`: the same file, so stripping is harmless there.
    Some(rest)
}

/// `path` as it may be handed to Python or put into an environment variable: on Windows
/// without a strippable verbatim prefix ([`plain_text`]); elsewhere unchanged.
pub fn plain(path: PathBuf) -> PathBuf {
    if !cfg!(windows) {
        return path;
    }
    match path.to_str().and_then(plain_text) {
        Some(rest) => PathBuf::from(rest),
        None => path,
    }
}

/// [`plain`] of a borrowed path.
pub fn plain_ref(path: &Path) -> PathBuf {
    plain(path.to_path_buf())
}

fn legal_legacy_name(name: &str) -> bool {
    if name == "." || name == ".." || name.encode_utf16().count() > 255 {
        return false;
    }
    let illegal = |c: char| c < ' ' || matches!(c, '<' | '>' | ':' | '"' | '/' | '|' | '?' | '*');
    if name.chars().any(illegal) || name.ends_with(['.', ' ']) {
        return false;
    }
    // `CON`, `con.txt`, `NUL .log`: the device, whatever the extension or trailing spaces.
    let stem = name
        .split('.')
        .next()
        .unwrap_or(name)
        .trim_end_matches([' ', '.']);
    !RESERVED_NAMES
        .iter()
        .any(|reserved| stem.eq_ignore_ascii_case(reserved))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_verbatim_disk_path_loses_its_prefix() {
        assert_eq!(
            plain_text(r"\\?\C:\Users\ana\AppData\Local\Programs\PDFAgent\runtime"),
            Some(r"C:\Users\ana\AppData\Local\Programs\PDFAgent\runtime")
        );
        assert_eq!(
            plain_text(r"\\?\D:\Program Files\PDFAgent"),
            Some(r"D:\Program Files\PDFAgent")
        );
        assert_eq!(plain_text(r"\\?\c:\"), Some(r"c:\"));
    }

    #[test]
    fn paths_without_the_prefix_are_left_alone() {
        assert_eq!(plain_text(r"C:\Users\ana"), None);
        assert_eq!(plain_text("/home/ana"), None);
        assert_eq!(plain_text(r"\\server\share\x"), None);
    }

    #[test]
    fn unc_and_device_paths_keep_the_prefix() {
        // Stripping `\\?\` from these would name another thing (or nothing).
        assert_eq!(plain_text(r"\\?\UNC\server\share\data"), None);
        assert_eq!(
            plain_text(r"\\?\Volume{6e3d3a68-2b1c-11e7-a9b3-806e6f6e6963}\x"),
            None
        );
        assert_eq!(plain_text(r"\\?\GLOBALROOT\Device\HarddiskVolume1"), None);
        assert_eq!(plain_text(r"\\?\C:"), None);
    }

    #[test]
    fn names_win32_would_read_differently_keep_the_prefix() {
        // A reserved device name, with or without an extension.
        assert_eq!(plain_text(r"\\?\C:\data\con"), None);
        assert_eq!(plain_text(r"\\?\C:\data\NUL.txt"), None);
        assert_eq!(plain_text(r"\\?\C:\data\com1 .csv"), None);
        // Win32 drops trailing dots and spaces; a verbatim path keeps them.
        assert_eq!(plain_text(r"\\?\C:\data\name."), None);
        assert_eq!(plain_text(r"\\?\C:\data\name "), None);
        // `..` is literal in a verbatim path and would be resolved without the prefix.
        assert_eq!(plain_text(r"\\?\C:\data\..\secret"), None);
        assert_eq!(plain_text(r"\\?\C:\data\.\x"), None);
        // Characters Win32 refuses in names.
        assert_eq!(plain_text(r"\\?\C:\data\a?b"), None);
        assert_eq!(plain_text("\\\\?\\C:\\data\\a\u{1}b"), None);
        // Names that merely contain a reserved word are fine.
        assert_eq!(
            plain_text(r"\\?\C:\console\nul_data\aux1.csv"),
            Some(r"C:\console\nul_data\aux1.csv")
        );
    }

    #[test]
    fn a_path_past_the_legacy_limit_keeps_the_prefix() {
        // `\\?\C:` and five 50-character folders: 6 + 5 × 51 = 261 characters.
        let long = format!(r"\\?\C:{}", format!(r"\{}", "a".repeat(50)).repeat(5));
        assert_eq!(long.len(), 261);
        assert_eq!(plain_text(&long), None);
        // One character fewer: 260 with the prefix, 256 without.
        let fits = &long[..260];
        assert_eq!(plain_text(fits).map(str::len), Some(256));
    }

    #[test]
    fn plain_changes_nothing_off_windows() {
        let odd = PathBuf::from(r"\\?\C:\x");
        if cfg!(windows) {
            assert_eq!(plain(odd), PathBuf::from(r"C:\x"));
        } else {
            // On Unix that is a relative file name, not a prefix.
            assert_eq!(plain(odd.clone()), odd);
        }
    }
}
