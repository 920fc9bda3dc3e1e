//! Every ELF file in the built runtime resolves its libraries inside the runtime or to
//! glibc's own, with `$ORIGIN`-relative rpaths only. The walk itself is
//! `tests/runtime_elf_check.sh` (ldd + readelf), shared with the build's CI step; this test
//! fails, never skips, when the runtime has not been built (`scripts/build-runtime`).

use std::process::Command;

#[test]
fn every_elf_in_the_runtime_resolves_inside_it_or_to_glibc() {
    let root = blackbox::workspace_root();
    let script = root.join("tests/runtime_elf_check.sh");
    let dist = root.join("python-runtime/dist");
    let out = blackbox::run(Command::new("bash").arg(&script).arg(&dist));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "`{}` failed for `{}`:\n{stdout}{stderr}",
        script.display(),
        dist.display()
    );
    assert!(
        stdout.contains(" passed, 0 failed"),
        "unexpected output from `{}`:\n{stdout}",
        script.display()
    );
}
