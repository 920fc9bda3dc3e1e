//! Versions through the shipped executable (issue #39): a run under an existing name keeps
//! the old figure in `FIGURES/.pdfagent-versions/`, byte for byte; `pdfagent versions`
//! lists it, `pdfagent restore` brings it back byte-identical and keeps the one it
//! replaces, `pdfagent provenance --version` reads the code it was made from.

#![cfg(target_os = "linux")] // make-figure runs the confined worker as built here.

mod security_support;

use blackbox::{json, pdfagent_with};
use security_support::Sandbox;
use std::path::{Path, PathBuf};
use std::process::Output;

const FIRST: &str = "plt.plot([1, 2, 3], [1, 4, 9])\nplt.title('first')\nplt.savefig(OUT)\n";
const SECOND: &str = "plt.plot([1, 2, 3], [9, 4, 1])\nplt.title('second')\nplt.savefig(OUT)\n";

fn versions(sb: &Sandbox, name: &str) -> serde_json::Value {
    let out = pdfagent_with(&[&"versions", &name, &"--figures", &sb.figures, &"--json"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    json(&out)
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn a_second_run_keeps_the_first_and_restore_brings_it_back() {
    let sb = Sandbox::new("versions-cli");
    let first = sb.make_figure("fig", FIRST, &[]);
    assert_eq!(first.exit_code(), Some(0), "{}", first.json);
    assert!(first.json["replaced"].is_null(), "{}", first.json);
    let fig = sb.figures.join("fig.png");
    let first_bytes = read(&fig);

    let second = sb.make_figure("fig", SECOND, &[]);
    assert_eq!(second.exit_code(), Some(0), "{}", second.json);
    let second_bytes = read(&fig);
    assert_ne!(first_bytes, second_bytes);
    // The result names the version it kept and where.
    let replaced = &second.json["replaced"];
    assert_eq!(replaced["version"], 1, "{}", second.json);
    let kept = PathBuf::from(replaced["path"].as_str().unwrap());
    assert_eq!(read(&kept), first_bytes);
    assert!(kept.starts_with(sb.figures.join(".pdfagent-versions")));
    // A glob of the folder sees only the current figure.
    assert_eq!(sb.figure_files(), ["fig.png"]);

    let listed = versions(&sb, "fig");
    let list = listed["versions"].as_array().unwrap();
    assert_eq!(list.len(), 1, "{listed}");
    assert_eq!(list[0]["version"], 1);
    assert_eq!(
        read(Path::new(list[0]["path"].as_str().unwrap())),
        first_bytes
    );
    assert_eq!(listed["store"]["versions"], 1);
    assert!(listed["store"]["bytes"].as_u64().unwrap() >= first_bytes.len() as u64);

    // Its provenance is the first code.
    let out = pdfagent_with(&[&"provenance", &fig, &"--version", &"1", &"--json"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(json(&out)["provenance"]["code"], FIRST);
    let out = pdfagent_with(&[&"provenance", &fig, &"--json"]);
    assert_eq!(json(&out)["provenance"]["code"], SECOND);

    // Restore: the first figure byte-identical, the second kept as version 2.
    let out = pdfagent_with(&[
        &"restore",
        &"fig",
        &"1",
        &"--figures",
        &sb.figures,
        &"--json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let restored = json(&out);
    assert_eq!(read(&fig), first_bytes);
    assert_eq!(restored["restored"]["replaced"]["version"], 2, "{restored}");
    let listed = versions(&sb, "fig");
    let list = listed["versions"].as_array().unwrap();
    assert_eq!(list.len(), 2, "{listed}");
    assert_eq!(
        read(Path::new(list[1]["path"].as_str().unwrap())),
        second_bytes
    );

    // Text for people, and a clear refusal of a version that does not exist.
    let out = pdfagent_with(&[&"versions", &"fig", &"--figures", &sb.figures]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("2 earlier version(s) of `fig`"), "{text}");
    let out = pdfagent_with(&[&"restore", &"fig", &"7", &"--figures", &sb.figures]);
    assert_eq!(out.status.code(), Some(4));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no version 7"));
}

/// `versions fig --prune --keep 1` with one more flag (`--dry-run` or `--json`).
fn prune_keeping_one(sb: &Sandbox, flag: &str) -> Output {
    pdfagent_with(&[
        &"versions",
        &"fig",
        &"--figures",
        &sb.figures,
        &"--prune",
        &"--keep",
        &"1",
        &flag,
    ])
}

#[test]
fn prune_says_what_it_removes() {
    let sb = Sandbox::new("versions-prune");
    for code in [FIRST, SECOND, FIRST] {
        let run = sb.make_figure("fig", code, &[]);
        assert_eq!(run.exit_code(), Some(0), "{}", run.json);
    }
    let before = versions(&sb, "fig");
    assert_eq!(before["versions"].as_array().unwrap().len(), 2);
    let dry = prune_keeping_one(&sb, "--dry-run");
    let text = String::from_utf8_lossy(&dry.stdout);
    assert!(text.contains("Would remove 1 version(s)"), "{text}");
    assert_eq!(versions(&sb, "fig")["versions"], before["versions"]);
    let out = prune_keeping_one(&sb, "--json");
    let pruned = json(&out);
    let removed = pruned["pruned"]["removed"].as_array().unwrap();
    assert_eq!(removed.len(), 1, "{pruned}");
    assert_eq!(removed[0]["version"], 1);
    assert!(!Path::new(removed[0]["path"].as_str().unwrap()).exists());
    let left = versions(&sb, "fig");
    assert_eq!(left["versions"][0]["version"], 2);
    // --prune without a policy removes nothing and says what to add.
    let out = pdfagent_with(&[&"versions", &"fig", &"--figures", &sb.figures, &"--prune"]);
    assert_eq!(out.status.code(), Some(4));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--keep"));
}

#[test]
fn rerun_of_a_version_makes_a_new_current_figure_from_its_code() {
    let sb = Sandbox::new("versions-rerun");
    assert_eq!(sb.make_figure("fig", FIRST, &[]).exit_code(), Some(0));
    assert_eq!(sb.make_figure("fig", SECOND, &[]).exit_code(), Some(0));
    let fig = sb.figures.join("fig.png");
    std::fs::create_dir_all(sb.runs_dir()).unwrap();
    let out = blackbox::run(
        blackbox::pdfagent()
            .arg("rerun")
            .arg(&fig)
            .arg("--version")
            .arg("1")
            .arg("--src")
            .arg(&sb.src)
            .arg("--json")
            .env("TMPDIR", sb.runs_dir())
            .env("XDG_DATA_HOME", sb.data_home()),
    );
    let result = json(&out);
    assert_eq!(out.status.code(), Some(0), "{result}");
    // Saved in the figures folder, not in the store; the second figure is kept.
    assert_eq!(result["figure"], fig.to_str().unwrap());
    assert_eq!(result["replaced"]["version"], 2, "{result}");
    let out = pdfagent_with(&[&"provenance", &fig, &"--json"]);
    assert_eq!(json(&out)["provenance"]["code"], FIRST);
}

#[test]
fn help_names_the_commands() {
    for command in ["versions", "restore"] {
        let out = pdfagent_with(&[&command, &"--help"]);
        assert_eq!(out.status.code(), Some(0));
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("--figures"), "{command}: {text}");
    }
    let out = pdfagent_with(&[&"provenance", &"--help"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("--version"));
    let out = pdfagent_with(&[&"rerun", &"--help"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("--version"));
}
