//! The window's libraries only in the window: the worker, the command line and the MCP
//! server — all the same `pdfagent` executable — start without WebKitGTK, GTK or anything
//! they bring (issue 16, part 3). The window is `libpdfagent_window.so` beside the
//! executable, loaded only to open a window (src-tauri/src/window.rs).
//!
//! Each check looks at what is really loaded — the dynamic loader's own list for the
//! executable, `/proc/PID/maps` of a running confined worker and of the MCP server and its
//! warm worker — and fails if any GUI library is there.

#![cfg(target_os = "linux")]

mod security_support;

use blackbox::procfs::{children_of, maps};
use security_support::Sandbox;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Shared objects of the desktop stack: WebKitGTK, its JavaScript engine, GTK/GDK, libsoup.
const GUI_LIBRARIES: [&str; 6] = [
    "libwebkit2gtk",
    "libjavascriptcoregtk",
    "libgtk-3",
    "libgdk-3",
    "libsoup-3",
    "libpdfagent_window",
];

/// The GUI libraries named in `text` (a loader listing or a maps file), each once.
fn gui_libraries_in(text: &str) -> Vec<String> {
    let mut found: Vec<String> = text
        .split_whitespace()
        .filter(|word| GUI_LIBRARIES.iter().any(|lib| word.contains(lib)))
        .map(str::to_owned)
        .collect();
    found.sort();
    found.dedup();
    found
}

#[test]
fn the_executable_loads_no_gui_library_at_start() {
    // LD_TRACE_LOADED_OBJECTS is what `ldd` sets: the loader lists every shared object the
    // executable would load (needed ones and theirs) and exits without running it.
    let out = blackbox::run(
        blackbox::pdfagent()
            .env_clear()
            .env("LD_TRACE_LOADED_OBJECTS", "1"),
    );
    let listing = String::from_utf8_lossy(&out.stdout);
    assert!(
        listing.contains("libpython3"),
        "the loader's listing should name libpython (else this check reads nothing):\n{listing}"
    );
    let gui = gui_libraries_in(&listing);
    assert!(
        gui.is_empty(),
        "every process of `pdfagent` (worker, command line, MCP server) would load {gui:?}:\n{listing}"
    );
}

#[test]
fn the_window_library_is_beside_the_executable_and_holds_the_window() {
    let bin = blackbox::pdfagent_bin();
    let lib = bin.with_file_name("libpdfagent_window.so");
    let bytes = std::fs::read(&lib).unwrap_or_else(|e| {
        panic!(
            "`{}` should be built beside the executable by the same cargo build: {e}",
            lib.display()
        )
    });
    assert_eq!(
        &bytes[..4],
        b"\x7fELF",
        "`{}` is not an ELF file",
        lib.display()
    );
    // What the executable calls, and the WebKitGTK it needs (the loader resolves it on dlopen).
    for needle in [
        &b"pdfagent_window_run"[..],
        b"pdfagent_window_version",
        b"libwebkit2gtk-4.1.so.0",
    ] {
        assert!(
            bytes.windows(needle.len()).any(|w| w == needle),
            "`{}` does not contain `{}`",
            lib.display(),
            String::from_utf8_lossy(needle)
        );
    }
}

#[test]
fn a_confined_worker_maps_no_gui_library() {
    let sandbox = Sandbox::new("gui-free");
    // Layer 1 bypassed (as in the security suites): the worker reads its own mappings.
    let run = sandbox.worker(
        "maps = open('/proc/self/maps').read()\n\
         print('MAPS-BEGIN'); print(maps); print('MAPS-END')\n",
    );
    let out = run.stdout();
    assert!(
        run.status.code() == Some(0) && out.contains("MAPS-END"),
        "the worker should have printed its maps: {}",
        run.output()
    );
    assert!(
        out.contains("libpython3"),
        "the worker's maps should show libpython:\n{out}"
    );
    let gui = gui_libraries_in(&out);
    assert!(gui.is_empty(), "the confined worker maps {gui:?}");
}

#[test]
fn the_mcp_server_and_its_warm_worker_map_no_gui_library() {
    let sandbox = Sandbox::new("gui-free-mcp");
    let mut server = blackbox::pdfagent()
        .arg("mcp")
        .arg("--src")
        .arg(&sandbox.src)
        .arg("--figures")
        .arg(&sandbox.figures)
        .env("TMPDIR", sandbox.root.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start `pdfagent mcp`");
    let pid = server.id();
    // The server starts a warm worker for its data folder at once: wait until one is up
    // (a child that has mapped libpython, i.e. past the loader and into the interpreter).
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut worker = None;
    while worker.is_none() && Instant::now() < deadline {
        worker = children_of(pid)
            .into_iter()
            .find(|&kid| maps(kid).is_some_and(|m| m.contains("libpython3")));
        if worker.is_none() {
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    let server_maps = maps(pid).unwrap_or_default();
    let worker_maps = worker.and_then(maps).unwrap_or_default();
    // End the server (EOF on stdin) before asserting, so a failure leaves nothing behind.
    drop(server.stdin.take());
    let ended = Instant::now() + Duration::from_secs(20);
    while server.try_wait().ok().flatten().is_none() && Instant::now() < ended {
        std::thread::sleep(Duration::from_millis(50));
    }
    if server.try_wait().ok().flatten().is_none() {
        let _ = server.kill();
        let _ = server.wait();
    }
    assert!(
        server_maps.contains("libpython3"),
        "the MCP server's maps should have been read (pid {pid})"
    );
    assert!(
        worker.is_some(),
        "the MCP server started no warm worker within 60 s"
    );
    let gui = gui_libraries_in(&server_maps);
    assert!(gui.is_empty(), "the MCP server maps {gui:?}");
    let gui = gui_libraries_in(&worker_maps);
    assert!(gui.is_empty(), "the MCP server's warm worker maps {gui:?}");
}

/// A copy of the executable in a folder of its own (its rpath still finds libpython),
/// optionally with a file as its window library.
fn lone_copy(dir: &Path, window_lib: Option<&[u8]>) -> std::path::PathBuf {
    let exe = dir.join("pdfagent");
    std::fs::copy(blackbox::pdfagent_bin(), &exe).expect("copy the executable");
    if let Some(bytes) = window_lib {
        std::fs::write(dir.join("libpdfagent_window.so"), bytes).expect("write the library");
    }
    exe
}

#[test]
fn without_the_window_library_the_command_line_works_and_the_window_says_why_not() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let exe = lone_copy(tmp.path(), None);
    let out = blackbox::run(Command::new(&exe).arg("--version"));
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let code = tmp.path().join("plot.py");
    std::fs::write(
        &code,
        "import numpy as np\nplt.plot(np.arange(3))\nplt.savefig(OUT)\n",
    )
    .expect("write the code");
    let out = blackbox::run(Command::new(&exe).arg("check").arg("--code").arg(&code));
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let out = blackbox::run(Command::new(&exe).arg("--open").arg(tmp.path()));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("libpdfagent_window.so")
            && err.contains("reinstall PDFAgent")
            && err.contains("the command line and MCP server work without it"),
        "{err}"
    );
}

#[test]
fn a_broken_window_library_is_refused_in_words() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let exe = lone_copy(tmp.path(), Some(b"not a shared object"));
    let mut cmd = Command::new(&exe);
    cmd.arg("--open").arg(tmp.path()).stdin(Stdio::null());
    let out = blackbox::run(&mut cmd);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("cannot be loaded") && err.contains("reinstall PDFAgent"),
        "{err}"
    );
}
