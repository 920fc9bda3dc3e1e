//! Check that pyo3 links the CPython the bundled runtime is made from, and let this crate's
//! own test executables find `libpython` when they start.
//!
//! pyo3-ffi's build script already emits the `-lpython3.11` link line; what it cannot know
//! is that the runtime we ship carries exactly one `libpython3.11.so.1.0`, so an executable
//! linked against any other minor version (or a static build) would start and then fail to
//! load the runtime's extension modules. Failing the build here says so early.

/// The minor version `scripts/build-runtime` packages (its `lib/python3.<minor>` folder).
const RUNTIME_MINOR: u8 = 11;

fn main() {
    println!("cargo:rerun-if-env-changed=PYO3_PYTHON");
    let config = pyo3_build_config::get();
    if config.version().major != 3 || config.version().minor != RUNTIME_MINOR {
        panic!(
            "pyo3 is configured for Python {}.{}, but the bundled runtime is Python 3.{RUNTIME_MINOR}: \
             set PYO3_PYTHON to a CPython 3.{RUNTIME_MINOR} shared build (see `.cargo/config.toml`)",
            config.version().major,
            config.version().minor
        );
    }
    let target_os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    if !config.shared() && target_os != "windows" {
        panic!(
            "pyo3 found a static CPython build; the worker needs a shared `libpython3.{RUNTIME_MINOR}` \
             (set PYO3_PYTHON to a build configured with --enable-shared, e.g. pyenv's with \
             PYTHON_CONFIGURE_OPTS=--enable-shared)"
        );
    }
    println!("cargo:rustc-env=PDFAGENT_PYTHON_MINOR={RUNTIME_MINOR}");
    // For the `pdfagent` binary's build script (debug builds' last-resort rpath).
    println!("cargo:lib_dir={}", config.lib_dir().unwrap_or_default());
    // And whether it may put the development runtime on its rpath (the `dev-runtime`
    // feature; locate.rs searches that folder under the same condition).
    let dev_runtime = std::env::var_os("CARGO_FEATURE_DEV_RUNTIME").is_some();
    println!("cargo:dev_runtime={}", u8::from(dev_runtime));

    // Only this crate's unit and integration test executables: the `pdfagent` binary gets
    // its bundle-relative rpath from src-tauri/build.rs. Tests never start the interpreter
    // in-process (that is the worker's job), they only need the loader to resolve the link.
    if target_os == "linux" {
        let manifest_dir = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default();
        let mut dirs = vec![format!("{manifest_dir}/dist/lib")];
        dirs.extend(config.lib_dir().map(str::to_owned));
        println!("cargo:rustc-link-arg=-Wl,-rpath,{}", dirs.join(":"));
    }
}
