//! Opening the window.
//!
//! Linux: the window is the library `libpdfagent_window.so` of this package (src/lib.rs),
//! loaded with `dlopen` only here, when a window is to be opened. Linking it into the
//! executable instead made every process of it — each worker, each command-line call, the MCP
//! server — load WebKitGTK, GTK and ~170 shared libraries it never uses: ≈ 77 ms per process
//! start (99 of them are BIND_NOW: the dynamic loader binds all their symbols up front), +38
//! MiB peak RSS per worker, their constructors running inside the worker before it confines
//! itself, and no command line at all on a machine without the desktop stack. (The linker
//! cannot defer a needed library on glibc: `-z lazy` only defers function binding, and it is
//! the libraries' own BIND_NOW relocations and constructors that cost.)
//!
//! Windows and macOS link the window as before: their web views are system frameworks
//! loaded on first use.

use std::path::PathBuf;

/// Open the window; `folder` (from `--open DIR`) replaces the remembered data folder.
/// Returns the process exit status.
pub fn open(folder: Option<PathBuf>) -> i32 {
    #[cfg(target_os = "linux")]
    {
        match linux::open(folder) {
            Ok(code) => code,
            Err(err) => {
                eprintln!("pdfagent: could not open the window: {err}");
                1
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    {
        pdfagent_window::run(folder)
    }
}

#[cfg(target_os = "linux")]
mod linux {
    use std::ffi::{CStr, c_char};
    use std::path::{Path, PathBuf};

    /// The window's library file.
    pub const LIBRARY: &str = "libpdfagent_window.so";

    /// Where the window's library may be, in this order, relative to the folder of the
    /// (symlink-resolved) executable: beside it (the portable folder `pdfagent/`, and
    /// `target/{debug,release}/` where cargo builds both), then the .deb's
    /// `/usr/lib/PDFAgent/` for `/usr/bin/pdfagent` (beside the runtime; the locator's
    /// `DEB_RUNTIME_FROM_BIN` is the same place). Nothing from the environment: the library
    /// runs with the window's full rights, so it is only ever taken from the installation.
    pub fn candidates(exe_dir: &Path) -> [PathBuf; 2] {
        [
            exe_dir.join(LIBRARY),
            exe_dir.join("../lib/PDFAgent").join(LIBRARY),
        ]
    }

    #[derive(Debug, thiserror::Error)]
    pub enum Error {
        #[error(
            "the path of this executable cannot be resolved ({0}), so its window library cannot be found; the command line and MCP server work without it (`pdfagent --help`)"
        )]
        Exe(#[source] std::io::Error),
        #[error("the window's library `{LIBRARY}` is neither in `{}` nor in `{}`: reinstall PDFAgent (the portable folder keeps `pdfagent`, `{LIBRARY}` and `runtime/` together); the command line and MCP server work without it (`pdfagent --help`)", .0[0].parent().unwrap_or(Path::new("")).display(), .0[1].parent().unwrap_or(Path::new("")).display())]
        NotFound([PathBuf; 2]),
        #[error(
            "the window needs WebKitGTK 4.1 and GTK 3 ({detail}): install libwebkit2gtk-4.1-0 (Debian/Ubuntu; Fedora: webkit2gtk4.1); the command line and MCP server work without it (`pdfagent --help`)"
        )]
        NoWebKit { detail: String },
        #[error("the window's library `{}` cannot be loaded ({detail}): reinstall PDFAgent; the command line and MCP server work without it (`pdfagent --help`)", .path.display())]
        Load { path: PathBuf, detail: String },
        #[error("the window's library `{}` is version {found}, this executable {}: reinstall PDFAgent so that both come from the same version", .path.display(), env!("CARGO_PKG_VERSION"))]
        Version { path: PathBuf, found: String },
    }

    /// Why `dlopen` refused the library, in words. The library itself exists (it was found),
    /// so a shared object that "cannot be opened" is one it needs — in practice WebKitGTK or
    /// GTK, or one of theirs, which the system's WebKitGTK package brings.
    pub fn explain(path: &Path, detail: String) -> Error {
        if detail.contains("cannot open shared object file") {
            Error::NoWebKit { detail }
        } else {
            Error::Load {
                path: path.to_owned(),
                detail,
            }
        }
    }

    pub fn open(folder: Option<PathBuf>) -> Result<i32, Error> {
        let exe = python_runtime::running_executable().map_err(Error::Exe)?;
        let exe_dir = exe.parent().unwrap_or(Path::new("/"));
        let places = candidates(exe_dir);
        let path = places
            .iter()
            .find(|p| p.is_file())
            .cloned()
            .ok_or(Error::NotFound(places.clone()))?;
        // RTLD_NOW: a symbol missing from the system's GTK is reported here, in words, not as
        // a crash in the middle of drawing. RTLD_LOCAL: its libraries are its own business.
        // SAFETY: the library is ours, from the same installation as this executable; its
        // initialisers are those of Rust code and of the system's GTK/WebKitGTK.
        let library = unsafe {
            libloading::os::unix::Library::open(
                Some(&path),
                libloading::os::unix::RTLD_NOW | libloading::os::unix::RTLD_LOCAL,
            )
        }
        .map_err(|err| explain(&path, err.to_string()))?;
        let load = |err: libloading::Error| Error::Load {
            path: path.clone(),
            detail: err.to_string(),
        };
        // SAFETY: the symbol's type is the one src/lib.rs declares.
        let version = unsafe {
            library.get::<unsafe extern "C" fn() -> *const c_char>(b"pdfagent_window_version\0")
        }
        .map_err(load)?;
        // SAFETY: it returns a pointer to a static NUL-terminated string.
        let found = unsafe { CStr::from_ptr(version()) }
            .to_string_lossy()
            .into_owned();
        if found != env!("CARGO_PKG_VERSION") {
            return Err(Error::Version { path, found });
        }
        // SAFETY: the symbol's type is the one src/lib.rs declares (checked by version above).
        let run = unsafe {
            library.get::<unsafe extern "C" fn(*const u8, usize) -> i32>(b"pdfagent_window_run\0")
        }
        .map_err(load)?;
        let folder = folder.map(|f| {
            use std::os::unix::ffi::OsStringExt;
            f.into_os_string().into_vec()
        });
        let (ptr, len) = folder
            .as_deref()
            .map_or((std::ptr::null(), 0), |f| (f.as_ptr(), f.len()));
        // SAFETY: `ptr` is null or points to `len` bytes that live until the call returns.
        let code = unsafe { run(ptr, len) };
        // Never unloaded: threads the window started (Tauri's runtime, GTK's) may still be
        // running its code while the process exits.
        std::mem::forget(library);
        Ok(code)
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn the_library_is_beside_the_executable_then_in_the_debs_lib_folder() {
            let [beside, deb] = candidates(Path::new("/usr/bin"));
            assert_eq!(beside, Path::new("/usr/bin/libpdfagent_window.so"));
            assert_eq!(
                deb,
                Path::new("/usr/bin/../lib/PDFAgent/libpdfagent_window.so")
            );
        }

        #[test]
        fn a_missing_system_library_is_explained_as_webkitgtk() {
            let err = explain(
                Path::new("/opt/pdfagent/libpdfagent_window.so"),
                "libwebkit2gtk-4.1.so.0: cannot open shared object file: No such file or directory"
                    .to_owned(),
            );
            let text = err.to_string();
            assert!(text.contains("install libwebkit2gtk-4.1-0"), "{text}");
            assert!(
                text.contains("the command line and MCP server work without it"),
                "{text}"
            );
            let err = explain(
                Path::new("/opt/pdfagent/libpdfagent_window.so"),
                "undefined symbol: gtk_foo".to_owned(),
            );
            assert!(matches!(err, Error::Load { .. }), "{err}");
        }
    }
}
