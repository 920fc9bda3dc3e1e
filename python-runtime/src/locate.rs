//! Finding the bundled Python runtime: the one place that knows where it lives.
//!
//! The runtime is recognised by its marker file, never looked up through `PYTHONHOME`,
//! `PATH` or any other variable: the worker runs with an environment built from scratch,
//! and the host's Python (if any) must not be what answers.

use std::path::{Path, PathBuf};

/// The file `scripts/build-runtime` writes last into the runtime folder: its presence means
/// the build finished.
pub const MARKER: &str = "runtime-manifest.json";

/// The .deb layout, relative to `/usr/bin`: where Tauri's bundler installs the `runtime/`
/// resource. `src-tauri/build.rs` bakes the same path into the executable's rpath.
pub const DEB_RUNTIME_FROM_BIN: &str = "../lib/PDFAgent/runtime";

/// The development build output, `python-runtime/dist`, searched after the bundle layouts —
/// by debug builds and by builds with the `dev-runtime` feature (the workspace build the test
/// suites run) only. A bundle's executable knows no build path.
#[cfg(any(debug_assertions, feature = "dev-runtime"))]
pub const DEV_RUNTIME_DIR: Option<&str> = Some(concat!(env!("CARGO_MANIFEST_DIR"), "/dist"));
/// Release builds without `dev-runtime` (every bundle) search the bundle layouts only.
#[cfg(not(any(debug_assertions, feature = "dev-runtime")))]
pub const DEV_RUNTIME_DIR: Option<&str> = None;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("could not tell where this executable is: {0}")]
    CurrentExe(#[source] std::io::Error),
    #[error(
        "the Python runtime was not found: looked for `{marker}` in {}. \
         Reinstall PDFAgent, or in a development tree run `scripts/build-runtime` and use a \
         workspace build (`cargo build --release`), which also searches the tree's runtime",
        .searched.iter().map(|p| format!("`{}`", p.display())).collect::<Vec<_>>().join(", ")
    )]
    NotFound {
        marker: &'static str,
        searched: Vec<PathBuf>,
    },
}

/// The folders that may hold the runtime, in the order they are tried.
pub fn candidates(exe_dir: &Path, dev_dir: Option<&Path>) -> Vec<PathBuf> {
    let mut dirs = vec![
        // Portable folder and Windows installs: `runtime/` beside the executable.
        exe_dir.join("runtime"),
        // Debian package: /usr/bin/pdfagent + /usr/lib/PDFAgent/runtime. Tauri v2's deb
        // bundler puts resources in `/usr/lib/<productName>/` (productName "PDFAgent").
        exe_dir.join(DEB_RUNTIME_FROM_BIN),
        // macOS app bundle: Contents/MacOS/pdfagent + Contents/Resources/runtime.
        exe_dir.join("../Resources/runtime"),
    ];
    dirs.extend(dev_dir.map(Path::to_path_buf));
    dirs
}

/// The first candidate holding the marker, as an absolute path without `..` (and, on
/// Windows, without the verbatim prefix: `plain_path`).
pub fn find_in(exe_dir: &Path, dev_dir: Option<&Path>) -> Result<PathBuf, Error> {
    let searched = candidates(exe_dir, dev_dir);
    for dir in &searched {
        if dir.join(MARKER).is_file() {
            // Plain (no `\\?\` on Windows): this path becomes Python's home and `sys.path`.
            let resolved = dir.canonicalize().unwrap_or_else(|_| dir.clone());
            return Ok(crate::plain_path::plain(resolved));
        }
    }
    Err(Error::NotFound {
        marker: MARKER,
        searched,
    })
}

/// Where the running installation is: the executable file and the runtime folder, found
/// together (one question to the system) and resolved once, so that what a worker's plan
/// grants and what is started are the same paths. A worker job carries them
/// (`ConfinePlan::executable`, `ConfinePlan::runtime`); nothing past the job asks again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InstallPaths {
    /// The executable file: absolute, symlinks resolved, plain (no `\\?\` on Windows).
    pub executable: PathBuf,
    /// The runtime folder ([`find_in`]).
    pub runtime: PathBuf,
}

/// Why [`InstallPaths::find`] failed.
#[derive(Debug, thiserror::Error)]
pub enum FindError {
    /// The executable's path could not be told or resolved.
    #[error("could not tell where this executable is: {0}; reinstall PDFAgent")]
    Executable(#[source] std::io::Error),
    #[error(transparent)]
    Runtime(Error),
}

impl InstallPaths {
    /// The running installation: the executable resolved (an error when it cannot be, e.g.
    /// replaced since it started), the runtime beside it ([`runtime_dir`]).
    pub fn find() -> Result<InstallPaths, FindError> {
        let exe = running_executable().map_err(FindError::Executable)?;
        let executable = exe
            .canonicalize()
            .map(crate::plain_path::plain)
            .map_err(FindError::Executable)?;
        let runtime = runtime_beside(&exe).map_err(FindError::Runtime)?;
        Ok(InstallPaths {
            executable,
            runtime,
        })
    }
}

/// The running executable's path as the system tells it (not resolved): the one place the
/// crate asks.
pub fn running_executable() -> std::io::Result<PathBuf> {
    std::env::current_exe()
}

/// The runtime for the running executable (bundle layouts first, then, in development and
/// test builds, the build output).
pub fn runtime_dir() -> Result<PathBuf, Error> {
    runtime_beside(&running_executable().map_err(Error::CurrentExe)?)
}

/// The runtime for the executable `exe`.
fn runtime_beside(exe: &Path) -> Result<PathBuf, Error> {
    // Resolve symlinks (`/usr/bin/pdfagent` → …) so the layouts are judged where the file is.
    let exe = exe.canonicalize().unwrap_or_else(|_| exe.to_path_buf());
    let exe_dir = exe.parent().unwrap_or(Path::new("/"));
    find_in(exe_dir, DEV_RUNTIME_DIR.map(Path::new))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn make_runtime(dir: &Path) {
        fs::create_dir_all(dir).unwrap();
        fs::write(dir.join(MARKER), "{}").unwrap();
    }

    #[test]
    fn portable_layout_runtime_beside_the_executable() {
        let tmp = tempfile::tempdir().unwrap();
        make_runtime(&tmp.path().join("runtime"));
        let found = find_in(tmp.path(), None).unwrap();
        assert_eq!(found, tmp.path().join("runtime").canonicalize().unwrap());
    }

    #[test]
    fn deb_layout_runtime_under_lib_product_name() {
        let tmp = tempfile::tempdir().unwrap();
        let bin = tmp.path().join("usr/bin");
        fs::create_dir_all(&bin).unwrap();
        make_runtime(&tmp.path().join("usr/lib/PDFAgent/runtime"));
        let found = find_in(&bin, None).unwrap();
        assert_eq!(
            found,
            tmp.path()
                .join("usr/lib/PDFAgent/runtime")
                .canonicalize()
                .unwrap()
        );
    }

    #[test]
    fn windows_layout_runtime_beside_the_exe() {
        // NSIS/MSI install resources into the install folder, beside `pdfagent.exe`.
        let tmp = tempfile::tempdir().unwrap();
        let install = tmp.path().join("Program Files/PDFAgent");
        make_runtime(&install.join("runtime"));
        let found = find_in(&install, None).unwrap();
        assert!(found.ends_with("PDFAgent/runtime"), "{found:?}");
    }

    #[test]
    fn macos_layout_runtime_in_resources() {
        let tmp = tempfile::tempdir().unwrap();
        let macos = tmp.path().join("PDFAgent.app/Contents/MacOS");
        fs::create_dir_all(&macos).unwrap();
        make_runtime(&tmp.path().join("PDFAgent.app/Contents/Resources/runtime"));
        let found = find_in(&macos, None).unwrap();
        assert!(found.ends_with("Contents/Resources/runtime"), "{found:?}");
    }

    #[test]
    fn bundle_wins_over_the_development_build() {
        let tmp = tempfile::tempdir().unwrap();
        make_runtime(&tmp.path().join("app/runtime"));
        make_runtime(&tmp.path().join("dev"));
        let found = find_in(&tmp.path().join("app"), Some(&tmp.path().join("dev"))).unwrap();
        assert!(found.ends_with("app/runtime"), "{found:?}");
    }

    #[test]
    fn development_build_is_the_last_resort() {
        let tmp = tempfile::tempdir().unwrap();
        fs::create_dir_all(tmp.path().join("app")).unwrap();
        make_runtime(&tmp.path().join("dev"));
        let found = find_in(&tmp.path().join("app"), Some(&tmp.path().join("dev"))).unwrap();
        assert!(found.ends_with("dev"), "{found:?}");
    }

    #[test]
    fn a_folder_without_the_marker_is_not_a_runtime() {
        let tmp = tempfile::tempdir().unwrap();
        // An unfinished build: the stdlib is there but the marker is not.
        fs::create_dir_all(tmp.path().join("runtime/lib/python3.11")).unwrap();
        let err = find_in(tmp.path(), None).unwrap_err();
        let msg = err.to_string();
        assert!(msg.contains(MARKER), "{msg}");
        assert!(msg.contains("scripts/build-runtime"), "{msg}");
        assert!(
            msg.contains(&tmp.path().join("runtime").display().to_string()),
            "{msg}"
        );
    }

    #[test]
    fn the_build_path_is_there_only_in_development_and_test_builds() {
        let dev = cfg!(any(debug_assertions, feature = "dev-runtime"));
        match DEV_RUNTIME_DIR {
            Some(dir) => {
                assert!(dev, "a release build without `dev-runtime` names `{dir}`");
                assert!(dir.ends_with("python-runtime/dist"), "{dir}");
            }
            None => assert!(!dev, "a development build lost its runtime path"),
        }
    }

    #[test]
    fn only_layouts_beside_the_executable_are_searched() {
        let tmp = tempfile::tempdir().unwrap();
        let candidates = candidates(tmp.path(), None);
        assert_eq!(candidates.len(), 3);
        assert!(candidates.iter().all(|c| c.starts_with(tmp.path())));
    }
}
