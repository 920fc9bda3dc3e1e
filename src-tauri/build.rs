//! Where the `pdfagent` executable finds `libpython` at start-up: inside the runtime it
//! ships with, never wherever the host happens to keep a Python.
//!
//! Linux search order (the first that exists wins):
//! 1. `$ORIGIN/runtime/lib` — portable folder, `pdfagent` next to `runtime/`;
//! 2. `$ORIGIN/../lib/PDFAgent/runtime/lib` — the .deb (`/usr/bin` + `/usr/lib/PDFAgent`, where
//!    Tauri v2's deb bundler puts resources: `/usr/lib/<productName>/`; the locator's
//!    `DEB_RUNTIME_FROM_BIN` is the same path);
//! 3. debug builds and builds with python-runtime's `dev-runtime` feature (the workspace
//!    build the test suites run) only: `<workspace>/python-runtime/dist/lib`, the development
//!    build output, so `target/{debug,release}/pdfagent` runs straight from the tree. The
//!    bundles build `pdfagent` alone, without it: their executable names no build path;
//! 4. debug builds only: the `lib` folder of the CPython pyo3 linked against.
//!
//! We write DT_RPATH (`--disable-new-dtags`), not the linker's default DT_RUNPATH: RPATH is
//! searched before `LD_LIBRARY_PATH`, so a `module load python/3.11` on a cluster (which puts
//! another `libpython3.11.so.1.0` on `LD_LIBRARY_PATH`) cannot swap in a libpython whose
//! build differs from the stdlib and extension modules in our runtime. The worker itself runs
//! with an environment built from scratch, so this matters for the first start only.

fn main() {
    ensure_frontend();
    tauri_build::try_build(tauri_build::Attributes::new().app_manifest(
        tauri_build::AppManifest::new().commands(&[
            "app_state",
            "choose_folder",
            "list_folder",
            "preview_file",
            "starter_code",
            "image_bytes",
            "check_code",
            "run_figure",
            "validate_name",
            "suggest_name",
            "cancel_run",
            "figure_bytes",
            "export_figure",
            "show_figure",
            "run_selftest",
            "save_settings",
            "history_list",
            "history_rerun_stale",
            "history_figure",
            "history_restore",
            "versions_store_size",
        ]),
    ))
    .unwrap_or_else(|err| panic!("tauri-build failed: {err:#}"));
    let target_os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let manifest_dir = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default();
    let dev_lib = std::path::Path::new(&manifest_dir)
        .join("../python-runtime/dist/lib")
        .display()
        .to_string();
    let dev_lib = normalize(&dev_lib);
    println!("cargo:rerun-if-env-changed=DEP_PDFAGENT_PYTHON_DEV_RUNTIME");
    let debug = std::env::var("PROFILE").as_deref() == Ok("debug");
    let dev_runtime =
        debug || std::env::var("DEP_PDFAGENT_PYTHON_DEV_RUNTIME").as_deref() == Ok("1");
    let dev_lib = dev_runtime.then_some(dev_lib);
    // Debug builds only: the interpreter pyo3 linked against, last, so `cargo test` of this
    // crate starts in a fresh clone before `scripts/build-runtime` has run (the worker then
    // reports the missing runtime in words). Release builds never look outside the bundle.
    // (python-runtime's build script publishes it through its `links` metadata.)
    let build_python = debug
        .then(|| std::env::var("DEP_PDFAGENT_PYTHON_LIB_DIR").ok())
        .flatten()
        .filter(|dir| !dir.is_empty());
    match target_os.as_str() {
        "linux" => {
            let mut dirs = vec![
                "$ORIGIN/runtime/lib".to_owned(),
                "$ORIGIN/../lib/PDFAgent/runtime/lib".to_owned(),
            ];
            dirs.extend(dev_lib);
            dirs.extend(build_python);
            println!("cargo:rustc-link-arg=-Wl,--disable-new-dtags");
            println!("cargo:rustc-link-arg=-Wl,-rpath,{}", dirs.join(":"));
        }
        "macos" => {
            // The runtime's libpython must carry an `@rpath/` install name (build-runtime).
            let bundle = [
                "@executable_path/../Resources/runtime/lib".to_owned(),
                "@executable_path/runtime/lib".to_owned(),
            ];
            for dir in bundle.into_iter().chain(dev_lib) {
                println!("cargo:rustc-link-arg=-Wl,-rpath,{dir}");
            }
        }
        // Windows has no rpath: python311.dll is found next to the executable (the bundle
        // step copies it there from runtime/).
        _ => {}
    }
}

/// `a/b/../c` → `a/c`, so the baked-in development path reads cleanly in `readelf -d`.
fn normalize(path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            ".." => {
                parts.pop();
            }
            "." => {}
            _ => parts.push(part),
        }
    }
    parts.join("/")
}

/// The window's assets (`ui/dist`, built by `npm run build` in `ui/`) are embedded at compile
/// time. A release build without them fails here with what to run; other builds (clippy,
/// the cross-target type checks, the black-box suites) get a placeholder page so they do not
/// need Node.
fn ensure_frontend() {
    const PLACEHOLDER_MARK: &str = "pdfagent-placeholder";
    let manifest_dir = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default();
    let dist = std::path::Path::new(&manifest_dir).join("../ui/dist");
    let index = dist.join("index.html");
    println!("cargo:rerun-if-changed={}", index.display());
    let placeholder = std::fs::read_to_string(&index)
        .map(|page| page.contains(PLACEHOLDER_MARK))
        .ok();
    if placeholder == Some(false) {
        return;
    }
    if std::env::var("PROFILE").as_deref() == Ok("release") {
        panic!(
            "`{}` is missing or a placeholder: build the window's assets first (`cd ui && npm ci && npm run build`)",
            index.display()
        );
    }
    if placeholder == Some(true) {
        return;
    }
    let page = "<!doctype html><meta charset=utf-8><title>PDFAgent</title>\
                <!-- pdfagent-placeholder --><p>This is a development build without the window's assets: run \
                <code>cd ui && npm ci && npm run build</code>, then build again.</p>";
    if let Err(err) = std::fs::create_dir_all(&dist).and_then(|()| std::fs::write(&index, page)) {
        panic!(
            "could not write the placeholder `{}`: {err}",
            index.display()
        );
    }
}
