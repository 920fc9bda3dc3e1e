//! The bundle works on its own: the executable and the runtime copied into a fresh folder
//! pass the selftest while every other Python on this machine is hidden — pyenv's, Debian's
//! and the development build the executable would otherwise fall back to (through its baked-in
//! rpath and the locator's last resort).
//!
//! Needs root and `unshare` (util-linux) for a private mount namespace; CI runs as root.

use blackbox::{pdfagent_bin, run, workspace_root};
use std::path::{Path, PathBuf};
use std::process::Command;

/// What the dev build output is called and how the runtime marks itself as complete.
const DEV_RUNTIME: &str = "python-runtime/dist";
const MARKER: &str = "runtime-manifest.json";
/// Where pyenv keeps the CPython the runtime was built from.
const PYENV: &str = "/root/.pyenv";

fn policy_module_count() -> usize {
    let path = workspace_root().join("python-runtime/allowlist.toml");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read the policy `{}`: {e}", path.display()));
    let policy: toml::Table = text
        .parse()
        .unwrap_or_else(|e| panic!("`{}` does not parse: {e}", path.display()));
    policy
        .get("module")
        .and_then(|m| m.as_array())
        .map(Vec::len)
        .unwrap_or_else(|| panic!("`{}` has no [[module]] entries", path.display()))
}

fn copy_tree(from: &Path, to: &Path) {
    // `cp -a` keeps symlinks and modes exactly as a bundle step would.
    let out = run(Command::new("cp").arg("-a").arg(from).arg(to));
    assert!(
        out.status.success(),
        "cp -a `{}` `{}` failed: {}",
        from.display(),
        to.display(),
        String::from_utf8_lossy(&out.stderr)
    );
}

fn sh_quote(path: &Path) -> String {
    format!("'{}'", path.display().to_string().replace('\'', r"'\''"))
}

#[test]
fn copied_bundle_passes_the_selftest_with_every_other_python_hidden() {
    let dev_runtime = workspace_root().join(DEV_RUNTIME);
    assert!(
        dev_runtime.join(MARKER).is_file(),
        "no runtime at `{}`: build it with `scripts/build-runtime` first",
        dev_runtime.display()
    );
    let probe = run(Command::new("unshare").args(["-m", "true"]));
    assert!(
        probe.status.success(),
        "`unshare -m` does not work here (needs root and util-linux's unshare): {}",
        String::from_utf8_lossy(&probe.stderr)
    );

    let tmp = tempfile::tempdir().expect("temp dir");
    let app = tmp
        .path()
        .canonicalize()
        .expect("canonical temp dir")
        .join("app");
    std::fs::create_dir(&app).expect("create the app folder");
    let exe = app.join("pdfagent");
    std::fs::copy(pdfagent_bin(), &exe).expect("copy the executable");
    copy_tree(&dev_runtime, &app.join("runtime"));

    let mut hide: Vec<PathBuf> = vec![dev_runtime.clone()];
    if Path::new(PYENV).exists() {
        hide.push(PathBuf::from(PYENV));
    }
    let mounts: String = hide
        .iter()
        .map(|d| format!("mount -t tmpfs none {}\n", sh_quote(d)))
        .collect();
    let script = format!(
        "set -e\n\
         {mounts}\
         for d in /usr/lib/python3*; do if [ -d \"$d\" ]; then mount -t tmpfs none \"$d\"; fi; done\n\
         # Debian's libpython3.11 is in the loader cache: blank it out as well.\n\
         for f in /usr/lib/*/libpython3*.so* /usr/lib/libpython3*.so*; do\n\
           if [ -f \"$f\" ] && [ ! -L \"$f\" ]; then mount --bind /dev/null \"$f\"; fi\n\
         done\n\
         # Prove the hiding worked before trusting the result.\n\
         if [ -e {dev_marker} ] || ls /usr/lib/python3*/os.py >/dev/null 2>&1; then\n\
           echo 'a host Python is still visible' >&2; exit 99\n\
         fi\n\
         exec env -i {exe} selftest --json\n",
        dev_marker = sh_quote(&dev_runtime.join(MARKER)),
        exe = sh_quote(&exe),
    );
    let out = run(Command::new("unshare").args(["-m", "sh", "-c", &script]));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_ne!(out.status.code(), Some(99), "{stderr}");
    let report: serde_json::Value = serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("selftest printed no JSON ({e}): {stdout}\nstderr: {stderr}"));

    assert_eq!(
        report["ok"], true,
        "selftest failed: {report:#}\nstderr: {stderr}"
    );
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let n = policy_module_count();
    assert_eq!(report["imports"]["total"], n, "{report:#}");
    assert_eq!(report["imports"]["ok"], n, "{report:#}");
    let bytes = report["savefig"]["bytes"].as_u64().unwrap_or(0);
    assert!(bytes > 0, "no figure saved: {report:#}");

    let copy = app.join("runtime");
    let prefix = report["interpreter"]["prefix"].as_str().unwrap_or("");
    assert!(
        Path::new(prefix).starts_with(&copy),
        "sys.prefix `{prefix}` is not inside the copy `{}`",
        copy.display()
    );
    let libpython = report["libpython"].as_str().unwrap_or("");
    assert!(
        Path::new(libpython).starts_with(&copy),
        "loaded libpython `{libpython}` is not inside the copy `{}`",
        copy.display()
    );
    let paths = report["interpreter"]["path"]
        .as_array()
        .expect("interpreter.path is a list");
    assert!(!paths.is_empty());
    for entry in paths {
        let p = entry["path"].as_str().unwrap_or("");
        assert!(
            Path::new(p).starts_with(&copy),
            "sys.path entry `{p}` is outside the copy `{}`",
            copy.display()
        );
    }
}
