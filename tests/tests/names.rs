//! Figure names as people write them, and nothing lost: a name in any script is a figure;
//! a refused name says why and writes nothing; a run never replaces another run's figure
//! (`b` then `b-2`); a rerun writes the file it was asked for, not the one its record
//! names (a copy, a crafted record); the command line ends quietly on a closed pipe; a host
//! killed mid-save leaves no temporary file behind. Each loss path compares file bytes
//! before and after.

#![cfg(target_os = "linux")] // make-figure runs the confined worker as built here.

mod security_support;

use blackbox::json;
use security_support::{Sandbox, forge_svg_record, limit_file_size};
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};

/// A figure whose background is read from `level.txt`: a rerun after a change draws
/// different bytes.
const LEVEL_CODE: &str = "v = float(np.loadtxt('level.txt'))\n\
    fig = plt.figure(figsize=(1, 1), dpi=20)\n\
    fig.patch.set_facecolor((v, 0.2, 0.2))\n\
    plt.savefig(OUT)\n";

/// A chat-style script that draws two figures.
const TWO_FIGURES: &str = "v = float(np.loadtxt('level.txt'))\n\
    plt.figure(figsize=(1, 1), dpi=20); plt.plot([1, v]); plt.savefig('a.png')\n\
    plt.figure(figsize=(1, 1), dpi=20); plt.plot([v, 1]); plt.savefig('b.png')\n";

fn sandbox(tag: &str) -> Sandbox {
    let sb = Sandbox::new(tag);
    std::fs::write(sb.src.join("level.txt"), "0.5\n").unwrap();
    sb
}

fn bytes(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn rerun(sb: &Sandbox, figure: &Path) -> (Option<i32>, serde_json::Value) {
    let out = blackbox::run(
        blackbox::pdfagent()
            .arg("rerun")
            .arg(figure)
            .arg("--src")
            .arg(&sb.src)
            .arg("--json")
            .env("TMPDIR", sb.runs_dir()),
    );
    (out.status.code(), json(&out))
}

#[test]
fn a_name_in_any_script_is_a_figure_saved_as_nfc() {
    let sb = sandbox("script");
    for (typed, kept) in [
        ("图1", "图1"),
        ("شكل ٣", "شكل ٣"),
        ("क\u{94D}\u{200D}ष", "क\u{94D}\u{200D}ष"),
        ("Cafe\u{301}", "Café"),
    ] {
        let run = sb.make_figure(typed, LEVEL_CODE, &[]);
        assert_eq!(run.exit_code(), Some(0), "{typed:?}: {}", run.json);
        let figure = PathBuf::from(run.json["figure"].as_str().unwrap());
        assert_eq!(figure, sb.figures.join(format!("{kept}.png")), "{typed:?}");
        assert!(figure.is_file());
        let out = blackbox::run(
            blackbox::pdfagent()
                .arg("provenance")
                .arg(&figure)
                .arg("--json"),
        );
        assert_eq!(json(&out)["provenance"]["name"], kept, "{typed:?}");
    }
    assert_eq!(
        sb.figure_files(),
        ["Café.png", "شكل ٣.png", "क\u{94D}\u{200D}ष.png", "图1.png"]
    );
}

#[test]
fn each_refused_name_says_why_and_nothing_is_written() {
    let sb = sandbox("refused");
    for (name, words) in [
        ("CON", "device name"),
        ("nul.txt", "device name"),
        ("fig\u{202E}gnp", "direction control"),
        ("\u{301}a", "combining mark"),
        ("fig.", "ends with `.`"),
        ("fig ", "ends with a space"),
        ("a/b", "separator"),
    ] {
        let run = sb.make_figure(name, LEVEL_CODE, &[]);
        assert_eq!(run.exit_code(), Some(4), "{name:?}: {}", run.json);
        assert_eq!(run.json["errors"][0]["rule"], "bad-name", "{name:?}");
        let message = run.json["errors"][0]["message"].as_str().unwrap();
        assert!(message.contains(words), "{name:?}: {message}");
    }
    assert!(sb.figure_files().is_empty(), "{:?}", sb.figure_files());
}

#[test]
fn a_name_that_differs_from_a_figure_only_in_case_never_replaces_it() {
    let sb = sandbox("case");
    assert_eq!(
        sb.make_figure("Straße", LEVEL_CODE, &[]).exit_code(),
        Some(0)
    );
    let before = bytes(&sb.figures.join("Straße.png"));
    for name in ["STRASSE", "strasse"] {
        let run = sb.make_figure(name, LEVEL_CODE, &[]);
        assert_eq!(run.exit_code(), Some(4), "{name}: {}", run.json);
        assert_eq!(run.json["errors"][0]["rule"], "name-taken", "{name}");
        let hint = run.json["hint"].as_str().unwrap();
        assert!(hint.contains("`Straße`"), "{hint}");
    }
    assert_eq!(bytes(&sb.figures.join("Straße.png")), before);
    assert_eq!(sb.figure_files(), ["Straße.png"]);
}

#[test]
fn a_run_named_as_another_runs_extra_figure_is_refused_and_both_are_kept() {
    let sb = sandbox("extra");
    let run = sb.make_figure("b", TWO_FIGURES, &[]);
    assert_eq!(run.exit_code(), Some(0), "{}", run.json);
    assert_eq!(sb.figure_files(), ["b-2.png", "b.png"]);
    let b = bytes(&sb.figures.join("b.png"));
    let b2 = bytes(&sb.figures.join("b-2.png"));
    let index = bytes(&sb.figures.join(".pdfagent-groups.json"));

    let run = sb.make_figure("b-2", LEVEL_CODE, &[]);
    assert_eq!(run.exit_code(), Some(4), "{}", run.json);
    assert_eq!(run.json["errors"][0]["rule"], "name-taken");
    let hint = run.json["hint"].as_str().unwrap();
    assert!(
        hint.contains("`b-2.png`") && hint.contains("run `b`"),
        "{hint}"
    );
    assert_eq!(bytes(&sb.figures.join("b.png")), b);
    assert_eq!(bytes(&sb.figures.join("b-2.png")), b2);
    assert_eq!(bytes(&sb.figures.join(".pdfagent-groups.json")), index);
    assert!(
        std::fs::read_dir(sb.runs_dir()).unwrap().next().is_none(),
        "a run was started"
    );
    // `b` itself may replace its own figures.
    let again = sb.make_figure("b", TWO_FIGURES, &[]);
    assert_eq!(again.exit_code(), Some(0), "{}", again.json);
    assert_eq!(sb.figure_files(), ["b-2.png", "b.png"]);
}

#[test]
fn a_rerun_of_a_copy_writes_the_copy_and_leaves_the_original() {
    let sb = sandbox("copy");
    assert_eq!(sb.make_figure("a", LEVEL_CODE, &[]).exit_code(), Some(0));
    let a = sb.figures.join("a.png");
    let c = sb.figures.join("c.png");
    std::fs::copy(&a, &c).unwrap();
    let original = bytes(&a);
    std::fs::write(sb.src.join("level.txt"), "0.1\n").unwrap();

    let (exit, result) = rerun(&sb, &c);
    assert_eq!(exit, Some(0), "{result}");
    assert_eq!(result["rerun_as"], "c", "{result}");
    let note = result["note"].as_str().unwrap_or_default();
    assert!(
        note.contains("`a`") && note.contains("not touched"),
        "{note}"
    );
    assert_eq!(bytes(&a), original, "the original was rewritten");
    assert_ne!(bytes(&c), original, "the copy was not redrawn");
    assert_eq!(
        PathBuf::from(result["figure"].as_str().unwrap()),
        std::fs::canonicalize(&sb.figures).unwrap().join("c.png")
    );
    assert_eq!(sb.figure_files(), ["a.png", "c.png"]);
}

#[test]
fn a_crafted_record_naming_another_figure_is_reported_never_followed() {
    let sb = sandbox("crafted");
    for name in ["victim", "t"] {
        let run = sb.make_figure(name, LEVEL_CODE, &["--format", "svg"]);
        assert_eq!(run.exit_code(), Some(0), "{}", run.json);
    }
    let victim = sb.figures.join("victim.svg");
    let t = sb.figures.join("t.svg");
    forge_svg_record(&t, |r| {
        r["name"] = "victim".into();
        r["file"] = "victim.svg".into();
    });
    let untouched = bytes(&victim);
    let forged = bytes(&t);

    let (exit, result) = rerun(&sb, &t);
    assert_eq!(exit, Some(0), "{result}");
    assert_eq!(result["rerun_as"], "t");
    let note = result["note"].as_str().unwrap_or_default();
    assert!(note.contains("`victim`"), "{note}");
    assert_eq!(bytes(&victim), untouched, "the rerun followed the record");
    assert_ne!(bytes(&t), forged);
    assert_eq!(sb.figure_files(), ["t.svg", "victim.svg"]);

    // `rerun --all` obeys the same rule, and lists what it will run first.
    forge_svg_record(&t, |r| {
        r["name"] = "victim".into();
        r["file"] = "victim.svg".into();
    });
    std::fs::write(sb.src.join("level.txt"), "0.9\n").unwrap();
    let untouched = bytes(&victim);
    let forged = bytes(&t);
    let out = blackbox::run(
        blackbox::pdfagent()
            .args(["rerun", "--all"])
            .arg(&sb.figures)
            .arg("--src")
            .arg(&sb.src)
            .env("TMPDIR", sb.runs_dir()),
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("will re-run as `t`"), "{text}");
    assert!(text.contains("will re-run as `victim`"), "{text}");
    let listed = text.find("will re-run as `t`").unwrap();
    let saved = text.find("re-run, saved").unwrap_or(usize::MAX);
    assert!(listed < saved, "listed after running: {text}");
    // Both were stale: each redrawn under its own file's name, once.
    assert_ne!(bytes(&victim), untouched);
    assert_ne!(bytes(&t), forged);
}

#[test]
fn a_rerun_of_an_extra_figure_reruns_its_run() {
    let sb = sandbox("rerun-extra");
    assert_eq!(sb.make_figure("a", TWO_FIGURES, &[]).exit_code(), Some(0));
    let before = (
        bytes(&sb.figures.join("a.png")),
        bytes(&sb.figures.join("a-2.png")),
    );
    std::fs::write(sb.src.join("level.txt"), "0.1\n").unwrap();
    let (exit, result) = rerun(&sb, &sb.figures.join("a-2.png"));
    assert_eq!(exit, Some(0), "{result}");
    assert_eq!(result["rerun_as"], "a");
    assert!(
        result["note"]
            .as_str()
            .unwrap_or_default()
            .contains("run `a`"),
        "{result}"
    );
    assert_eq!(result["figures"].as_array().unwrap().len(), 2);
    assert_ne!(bytes(&sb.figures.join("a.png")), before.0);
    assert_ne!(bytes(&sb.figures.join("a-2.png")), before.1);
    assert_eq!(sb.figure_files(), ["a-2.png", "a.png"]);
}

/// `pdfagent ARGS` with its stdout a pipe whose reader has already gone.
fn to_closed_pipe(args: &[&std::ffi::OsStr]) -> Output {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let mut cmd = blackbox::pdfagent();
    cmd.args(args).stdout(writer).stderr(Stdio::piped());
    blackbox::run(&mut cmd)
}

#[test]
fn the_command_line_ends_quietly_on_a_closed_pipe() {
    let sb = sandbox("pipe");
    assert_eq!(sb.make_figure("p", LEVEL_CODE, &[]).exit_code(), Some(0));
    let figure = sb.figures.join("p.png");
    let code = sb.inputs().join("ok.py");
    std::fs::write(&code, LEVEL_CODE).unwrap();
    let cases: Vec<(Vec<&std::ffi::OsStr>, i32)> = vec![
        (vec!["provenance".as_ref(), figure.as_os_str()], 0),
        (
            vec!["provenance".as_ref(), figure.as_os_str(), "--json".as_ref()],
            0,
        ),
        (
            vec!["check".as_ref(), "--code".as_ref(), code.as_os_str()],
            0,
        ),
        (
            vec![
                "rerun".as_ref(),
                figure.as_os_str(),
                "--src".as_ref(),
                sb.src.as_os_str(),
            ],
            0,
        ),
        (vec!["--help".as_ref()], 0),
    ];
    for (args, status) in cases {
        let out = to_closed_pipe(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(!stderr.contains("Broken pipe"), "{args:?}: {stderr}");
        assert_eq!(out.status.code(), Some(status), "{args:?}: {stderr}");
    }
    // The rerun still did its work.
    assert!(figure.is_file());
}

/// A figure of about 1.5 MB (noise does not compress).
const BIG_FIGURE: &str = "img = np.random.default_rng(0).random((700, 700, 3))\n\
    plt.figure(figsize=(7, 7), dpi=100)\n\
    plt.imshow(img)\n\
    plt.savefig(OUT)\n";

/// The hidden files in the figures folder other than the groups bookkeeping.
fn temporaries(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.') && !n.starts_with(".pdfagent-groups.json"))
        .filter(|n| n != ".pdfagent-groups.lock" && n != ".pdfagent-versions")
        .collect()
}

#[test]
fn a_host_stopped_mid_save_leaves_the_old_figure_and_no_temporary_file() {
    use std::os::unix::process::ExitStatusExt as _;
    let sb = sandbox("midsave");
    let first = sb.make_figure("big", BIG_FIGURE, &[]);
    assert_eq!(first.exit_code(), Some(0), "{}", first.json);
    let figure = sb.figures.join("big.png");
    let before = bytes(&figure);
    assert!(before.len() > 600_000, "{} bytes", before.len());

    // The host may write files of at most 512 KB: the run directory's script passes, the
    // figure's save does not (the host is stopped by SIGXFSZ, or its write fails).
    let code = BIG_FIGURE.replace("random((700", "random((701");
    let mut cmd = sb.make_figure_command("big", &code, &[]);
    limit_file_size(&mut cmd, 512 << 10);
    let out = blackbox::run(&mut cmd);
    let stopped = out.status.signal() == Some(libc::SIGXFSZ) || out.status.code() == Some(2);
    assert!(
        stopped,
        "the save was not cut short: {:?} {}",
        out.status,
        String::from_utf8_lossy(&out.stdout)
    );
    assert_eq!(bytes(&figure), before, "the old figure was replaced");
    assert_eq!(temporaries(&sb.figures), Vec::<String>::new());
    // A temporary file a dead host left under the named scheme (other systems, or a file
    // system without O_TMPFILE) is removed by the next start; a live host's is kept.
    let mut child = std::process::Command::new("true").spawn().unwrap();
    let dead = child.id();
    child.wait().unwrap();
    let live = std::process::id();
    for pid in [dead, live] {
        let name = format!(".big.png.pdfagent-{pid}-abcdef.tmp");
        std::fs::write(sb.figures.join(name), b"partial").unwrap();
    }
    let next = sb.make_figure("small", LEVEL_CODE, &[]);
    assert_eq!(next.exit_code(), Some(0), "{}", next.json);
    assert_eq!(
        temporaries(&sb.figures),
        [format!(".big.png.pdfagent-{live}-abcdef.tmp")]
    );
}
