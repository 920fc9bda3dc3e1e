//! Provenance through the shipped executable: every figure carries its exact code and the
//! data files it read; `pdfagent provenance --src` tells a stale figure from a fresh one;
//! `pdfagent rerun` draws the new data through Layer 1 and Layer 2 again; a record that was
//! altered, or that holds code Layer 1 rejects, is refused and nothing runs.

#![cfg(target_os = "linux")] // make-figure runs the confined worker as built here.

mod security_support;

use blackbox::{json, pdfagent_with};
use security_support::{Sandbox, forge_svg_record};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// A figure whose background is `(v, 0.2, 0.2)`, `v` read from `level.txt` by a plain
/// relative name, plus two more data files read through `srcpath` and `load`.
const LEVEL_CODE: &str = "import pandas as pd\n\
    v = float(np.loadtxt('level.txt'))\n\
    table = pd.read_csv(srcpath('data.csv'))\n\
    meta = load('meta.json')\n\
    fig = plt.figure(figsize=(1, 1), dpi=20)\n\
    fig.patch.set_facecolor((v, 0.2, 0.2))\n\
    plt.title(meta['title'], fontsize=4)\n\
    plt.savefig(OUT)\n";

fn sandbox(tag: &str, level: &str) -> Sandbox {
    let sb = Sandbox::new(tag);
    std::fs::write(sb.src.join("level.txt"), level).unwrap();
    std::fs::write(sb.src.join("meta.json"), r#"{"title": "t"}"#).unwrap();
    std::fs::write(sb.src.join("unused.csv"), "a\n1\n").unwrap();
    sb
}

fn provenance(figure: &Path, src: Option<&Path>) -> (Option<i32>, serde_json::Value) {
    let mut cmd = blackbox::pdfagent();
    cmd.arg("provenance").arg(figure).arg("--json");
    if let Some(src) = src {
        cmd.arg("--src").arg(src);
    }
    let out = blackbox::run(&mut cmd);
    (out.status.code(), json(&out))
}

fn rerun(sb: &Sandbox, figure: &Path) -> (Option<i32>, serde_json::Value) {
    let runs = sb.runs_dir();
    std::fs::create_dir_all(&runs).unwrap();
    let out = blackbox::run(
        blackbox::pdfagent()
            .arg("rerun")
            .arg(figure)
            .arg("--src")
            .arg(&sb.src)
            .arg("--figures")
            .arg(&sb.figures)
            .arg("--json")
            .env("TMPDIR", &runs)
            .env("XDG_DATA_HOME", sb.data_home()),
    );
    (out.status.code(), json(&out))
}

/// The red channel of the figure's background (its top-left corner, outside the axes), read by the bundled runtime itself (the test has
/// no image decoder): the figure is copied into a probe data folder and a figure run of its
/// own reads it and reports the value in its error.
fn red_of_background(figure: &Path) -> f64 {
    let probe = Sandbox::new("probe");
    std::fs::copy(figure, probe.src.join("fig.png")).unwrap();
    let run = probe.make_figure(
        "probe",
        "img = plt.imread('fig.png')\n\
         raise ValueError(f'PIXEL={img[1, 1, 0]:.4f}=')\n",
        &[],
    );
    let tail = run.json["stderr_tail"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    let value = tail
        .rsplit("PIXEL=")
        .next()
        .and_then(|rest| rest.split('=').next())
        .and_then(|v| v.parse().ok());
    value.unwrap_or_else(|| panic!("no pixel value in {}", run.json))
}

fn inputs(record: &serde_json::Value) -> Vec<String> {
    let mut paths: Vec<String> = record["provenance"]["inputs"]
        .as_array()
        .expect("inputs")
        .iter()
        .map(|i| i["path"].as_str().unwrap().to_owned())
        .collect();
    paths.sort();
    paths
}

#[test]
fn every_format_carries_the_exact_code_and_the_files_it_read() {
    let sb = sandbox("roundtrip", "0.5\n");
    // Odd bytes on purpose: the record must survive each format's escaping unchanged.
    let code = format!("{LEVEL_CODE}# ]]> </metadata> & <svg> (a) \\ /JS stream é 磁场\n");
    for format in ["png", "svg", "pdf"] {
        let name = format!("fig_{format}");
        let run = sb.make_figure(&name, &code, &["--format", format]);
        assert_eq!(run.exit_code(), Some(0), "{format}: {}", run.json);
        let figure = PathBuf::from(run.json["figure"].as_str().unwrap());
        let summary = &run.json["figures"][0]["provenance"];
        let added = summary["embedded_bytes"].as_u64().expect("embedded_bytes");
        assert!(added > 0 && added < 8_000, "{format}: {added} bytes added");

        let (code_exit, record) = provenance(&figure, None);
        assert_eq!(code_exit, Some(0), "{record}");
        let p = &record["provenance"];
        assert_eq!(
            p["code"].as_str().unwrap().as_bytes(),
            code.as_bytes(),
            "{format}"
        );
        assert_eq!(p["name"], name.as_str());
        assert_eq!(p["format"], format);
        assert_eq!(p["file"], format!("{name}.{format}"));
        assert_eq!(p["data_folder"], "src");
        assert_eq!(p["limits"]["timeout_s"], 90);
        assert!(p["runtime"]["numpy"].is_string() && p["runtime"]["matplotlib"].is_string());
        assert!(p["created"].as_str().unwrap().ends_with('Z'));
        assert_eq!(
            inputs(&record),
            ["data.csv", "level.txt", "meta.json"],
            "{format}"
        );
        let level = p["inputs"]
            .as_array()
            .unwrap()
            .iter()
            .find(|i| i["path"] == "level.txt")
            .unwrap();
        assert_eq!(level["bytes"], 4);
        assert_eq!(level["sha256"], hex(&Sha256::digest(b"0.5\n")));
        // No absolute path of this machine in the file, nor the data themselves.
        let bytes = std::fs::read(&figure).unwrap();
        let root = sb.src.parent().unwrap().to_str().unwrap();
        assert!(
            !contains(&bytes, root.as_bytes()),
            "{format}: an absolute path leaked"
        );
        assert!(!contains(&bytes, b"a\\n1"), "{format}");
        // Still a figure the pipeline accepts as this format: it reads it back as data.
        assert!(bytes.len() as u64 == run.json["bytes"].as_u64().unwrap());
    }
}

#[test]
fn changed_data_make_the_figure_stale_and_rerun_draws_the_new_data() {
    let sb = sandbox("stale", "0.9\n");
    let run = sb.make_figure("level", LEVEL_CODE, &[]);
    assert_eq!(run.exit_code(), Some(0), "{}", run.json);
    let figure = sb.figures.join("level.png");
    let before = red_of_background(&figure);
    assert!((before - 0.9).abs() < 0.01, "red {before}");

    let (exit, record) = provenance(&figure, Some(&sb.src));
    assert_eq!(exit, Some(0), "{record}");
    assert_eq!(record["stale"], false);

    std::fs::write(sb.src.join("level.txt"), "0.1\n").unwrap();
    let (exit, record) = provenance(&figure, Some(&sb.src));
    assert_eq!(exit, Some(1), "stale is exit 1: {record}");
    assert_eq!(record["stale"], true);
    let states: Vec<(String, String)> = record["inputs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            (
                i["path"].as_str().unwrap().into(),
                i["state"].as_str().unwrap().into(),
            )
        })
        .collect();
    assert!(
        states.contains(&("level.txt".into(), "changed".into())),
        "{states:?}"
    );
    assert!(
        states.contains(&("data.csv".into(), "unchanged".into())),
        "{states:?}"
    );
    // The text form says so too.
    let text = pdfagent_with(&[&"provenance", &figure, &"--src", &sb.src]);
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("CHANGED") && text.contains("STALE"), "{text}");

    let (exit, result) = rerun(&sb, &figure);
    assert_eq!(exit, Some(0), "{result}");
    assert_eq!(result["ok"], true);
    let after = red_of_background(&figure);
    assert!((after - 0.1).abs() < 0.01, "red after the re-run {after}");
    let (exit, record) = provenance(&figure, Some(&sb.src));
    assert_eq!(
        (exit, &record["stale"]),
        (Some(0), &serde_json::json!(false))
    );

    // A missing data file is stale too.
    std::fs::remove_file(sb.src.join("meta.json")).unwrap();
    let (exit, record) = provenance(&figure, Some(&sb.src));
    assert_eq!(exit, Some(1), "{record}");
    assert!(
        record["inputs"].to_string().contains("\"missing\""),
        "{record}"
    );
}

/// Issue #41 item 5: a rerun's code is the recorded one, and `plt.show()` or
/// `savefig('x.png')` is a capture the code intended: the answer says how the figure was
/// captured and gives no "save with plt.savefig(OUT)" advice, first time or on rerun.
#[test]
fn no_save_advice_after_an_intended_capture_nor_on_rerun() {
    let sb = sandbox("advice", "0.5\n");
    for (name, save) in [("shown", "plt.show()"), ("named", "plt.savefig('x.png')")] {
        let code = format!("v = float(np.loadtxt('level.txt'))\nplt.plot([v, 1])\n{save}\n");
        let run = sb.make_figure(name, &code, &[]);
        assert_eq!(run.exit_code(), Some(0), "{}", run.json);
        let figure = sb.figures.join(format!("{name}.png"));
        std::fs::write(sb.src.join("level.txt"), "0.25\n").unwrap();
        let (exit, rerun) = rerun(&sb, &figure);
        assert_eq!(exit, Some(0), "{rerun}");
        for answer in [&run.json, &rerun] {
            let hint = answer["hint"].as_str().unwrap_or_default();
            assert!(
                hint.contains("Captured"),
                "says how it was captured: {answer}"
            );
            assert!(
                !hint.contains("savefig(OUT)"),
                "advice after a capture: {hint}"
            );
        }
    }
}

#[test]
fn rerun_all_redraws_only_the_stale_figures() {
    let sb = sandbox("all", "0.3\n");
    std::fs::write(sb.src.join("other.txt"), "0.7\n").unwrap();
    let other = LEVEL_CODE.replace("level.txt", "other.txt");
    assert_eq!(sb.make_figure("a", LEVEL_CODE, &[]).exit_code(), Some(0));
    assert_eq!(
        sb.make_figure("b", &other, &["--format", "svg"])
            .exit_code(),
        Some(0)
    );
    std::fs::write(sb.figures.join("notes.png"), b"not a figure of ours").unwrap();
    std::fs::write(sb.src.join("other.txt"), "0.6\n").unwrap();
    let out = pdfagent_with(&[
        &"rerun",
        &"--all",
        &sb.figures,
        &"--src",
        &sb.src,
        &"--figures",
        &sb.figures,
        &"--json",
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let report = json(&out);
    let figures = report["figures"].as_array().unwrap();
    let by_file = |f: &str| {
        figures
            .iter()
            .find(|e| e["file"].as_str().unwrap().ends_with(f))
            .unwrap_or_else(|| panic!("{f} not reported: {report}"))
    };
    assert_eq!(by_file("a.png")["freshness"], "fresh");
    assert!(by_file("a.png").get("result").is_none());
    assert_eq!(by_file("b.svg")["freshness"], "stale");
    assert_eq!(by_file("b.svg")["result"]["ok"], true);
    assert_eq!(by_file("notes.png")["freshness"], "untrusted");
    let (_, record) = provenance(&sb.figures.join("b.svg"), Some(&sb.src));
    assert_eq!(record["stale"], false, "{record}");
}

/// The SVG's record replaced by `edit` applied to its JSON, hash recomputed or not.
fn forge_svg(figure: &Path, edit: impl FnOnce(&mut serde_json::Value), rehash: bool) {
    forge_svg_record(figure, |record| {
        edit(record);
        if rehash {
            let code = record["code"].as_str().unwrap().to_owned();
            record["code_sha256"] = hex(&Sha256::digest(code.as_bytes())).into();
        }
    });
}

#[test]
fn embedded_code_that_layer_1_rejects_is_refused_on_rerun_and_nothing_runs() {
    let sb = sandbox("malicious", "0.5\n");
    let run = sb.make_figure("evil", LEVEL_CODE, &["--format", "svg"]);
    assert_eq!(run.exit_code(), Some(0), "{}", run.json);
    let figure = sb.figures.join("evil.svg");
    let canary = sb.outside.join("canary.txt");
    let evil = format!(
        "import os\nos.system('touch {}')\nopen({}, 'w').write('x')\nplt.savefig(OUT)\n",
        canary.display(),
        Sandbox::py(&canary)
    );
    // A consistent forgery: the hash matches the malicious code, as an attacker would make it.
    forge_svg(&figure, |r| r["code"] = evil.clone().into(), true);
    let (exit, record) = provenance(&figure, None);
    assert_eq!(exit, Some(0), "the forged record reads back: {record}");
    assert_eq!(record["provenance"]["code"], evil.as_str());

    let (exit, result) = rerun(&sb, &figure);
    assert_eq!(exit, Some(1), "refused by the check: {result}");
    assert_eq!(result["stage"], "check");
    let errors = result["errors"].as_array().unwrap();
    assert!(errors.iter().any(|e| e["line"] == 1), "{result}");
    assert!(
        errors.iter().any(|e| e["line"] == 3),
        "open() is named too: {result}"
    );
    assert!(
        result["hint"].as_str().unwrap().contains("savefig(OUT)"),
        "{result}"
    );
    assert!(!canary.exists(), "the embedded code ran");
    let runs: Vec<_> = std::fs::read_dir(sb.runs_dir()).unwrap().collect();
    assert!(
        runs.is_empty(),
        "a run directory was made for rejected code"
    );
    // The figure is left as it was.
    assert!(
        std::fs::read_to_string(&figure)
            .unwrap()
            .contains("os.system")
    );
}

#[test]
fn an_altered_or_damaged_record_is_untrusted_with_a_clear_message() {
    let sb = sandbox("tampered", "0.5\n");
    assert_eq!(
        sb.make_figure("t", LEVEL_CODE, &["--format", "svg"])
            .exit_code(),
        Some(0)
    );
    assert_eq!(sb.make_figure("p", LEVEL_CODE, &[]).exit_code(), Some(0));
    let svg = sb.figures.join("t.svg");
    // The code changed without its hash.
    forge_svg(
        &svg,
        |r| r["code"] = "plt.plot([1])\nplt.savefig(OUT)\n".into(),
        false,
    );
    let (exit, out) = provenance(&svg, Some(&sb.src));
    assert_eq!(exit, Some(2), "{out}");
    let hint = out["hint"].as_str().unwrap();
    assert!(
        hint.contains("altered") && hint.contains("SHA-256"),
        "{hint}"
    );
    let (exit, result) = rerun(&sb, &svg);
    assert_eq!(exit, Some(4), "{result}");
    assert!(
        result["hint"].as_str().unwrap().contains("altered"),
        "{result}"
    );
    // Paths that leave the data folder, in a consistently hashed record.
    forge_svg(
        &svg,
        |r| r["inputs"][0]["path"] = "../outside/secret.txt".into(),
        true,
    );
    let (exit, out) = provenance(&svg, Some(&sb.src));
    assert_eq!(exit, Some(2), "{out}");
    assert!(
        out["hint"].as_str().unwrap().contains("relative path"),
        "{out}"
    );
    // A PNG with a flipped byte inside its record, and one cut short: errors, not crashes.
    let png = sb.figures.join("p.png");
    let mut bytes = std::fs::read(&png).unwrap();
    let at = find(&bytes, b"pdfagent:provenance").unwrap() + 60;
    bytes[at] ^= 0x20;
    std::fs::write(&png, &bytes).unwrap();
    let (exit, out) = provenance(&png, None);
    assert_eq!(exit, Some(2), "{out}");
    assert!(out["hint"].as_str().unwrap().contains("checksum"), "{out}");
    std::fs::write(&png, &bytes[..bytes.len() / 2]).unwrap();
    let (exit, out) = provenance(&png, None);
    assert!(matches!(exit, Some(2) | Some(4)), "{out}");
    assert!(out["hint"].as_str().unwrap().contains("damaged"), "{out}");
    // No record at all.
    std::fs::write(
        sb.figures.join("plain.svg"),
        "<svg xmlns='http://www.w3.org/2000/svg'/>",
    )
    .unwrap();
    let (exit, out) = provenance(&sb.figures.join("plain.svg"), None);
    assert_eq!(exit, Some(2), "{out}");
    assert_eq!(out["stage"], "no-record");
}

/// The recorded SHA-256 of `rel` in `figure`'s record.
fn recorded_sha256(figure: &Path, rel: &str) -> String {
    let (exit, record) = provenance(figure, None);
    assert_eq!(exit, Some(0), "{record}");
    record["provenance"]["inputs"]
        .as_array()
        .expect("inputs")
        .iter()
        .find(|i| i["path"] == rel)
        .and_then(|i| i["sha256"].as_str())
        .unwrap_or_else(|| panic!("no hash of {rel} in {record}"))
        .to_owned()
}

/// The data files the sandbox wrote are older than the input-hash cache's racy window (2 s)
/// once this returns: hashes taken after it are trusted by later figures.
fn age_past_racy_window() {
    std::thread::sleep(std::time::Duration::from_millis(2500));
}

/// `path` rewritten with `content` (the same size), its modification time put back.
fn rewrite_keeping_mtime(path: &Path, content: &str) {
    let mtime = std::fs::metadata(path).unwrap().modified().unwrap();
    assert_eq!(std::fs::metadata(path).unwrap().len(), content.len() as u64);
    std::fs::write(path, content).unwrap();
    std::fs::File::options()
        .write(true)
        .open(path)
        .unwrap()
        .set_modified(mtime)
        .unwrap();
}

/// The one cache file of the sandbox's data folder, as JSON.
fn cache_file(sb: &Sandbox) -> PathBuf {
    let dir = sb.data_home().join("pdfagent").join("hashes");
    let files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("no hash cache at {}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    files[0].clone()
}

#[test]
fn a_second_figure_on_unchanged_data_takes_its_hashes_from_the_cache_on_disk() {
    let sb = sandbox("hashcache", "0.5\n");
    age_past_racy_window();
    let run = sb.make_figure("first", LEVEL_CODE, &[]);
    assert_eq!(run.exit_code(), Some(0), "{}", run.json);
    let real = hex(&Sha256::digest(b"0.5\n"));
    assert_eq!(
        recorded_sha256(&sb.figures.join("first.png"), "level.txt"),
        real
    );

    // A stand-in hash in the cache file: a figure that reads the cache instead of the file
    // records it (the user's own data folder is where the cache lives; the code cannot
    // write there).
    let cache = cache_file(&sb);
    let text = std::fs::read_to_string(&cache).unwrap();
    assert!(text.contains(&real), "{text}");
    let stand_in = "ab".repeat(32);
    std::fs::write(&cache, text.replace(&real, &stand_in)).unwrap();
    let run = sb.make_figure("second", LEVEL_CODE, &[]);
    assert_eq!(run.exit_code(), Some(0), "{}", run.json);
    let second = sb.figures.join("second.png");
    assert_eq!(recorded_sha256(&second, "level.txt"), stand_in);
    // `provenance --src` compares with the file itself, never with the cache.
    let (exit, record) = provenance(&second, Some(&sb.src));
    assert_eq!(exit, Some(1), "{record}");
    assert!(
        record["inputs"].to_string().contains("\"changed\""),
        "{record}"
    );

    // Same size, modification time put back: the change time moved, so it is read again.
    rewrite_keeping_mtime(&sb.src.join("level.txt"), "0.7\n");
    let run = sb.make_figure("third", LEVEL_CODE, &[]);
    assert_eq!(run.exit_code(), Some(0), "{}", run.json);
    assert_eq!(
        recorded_sha256(&sb.figures.join("third.png"), "level.txt"),
        hex(&Sha256::digest(b"0.7\n"))
    );
}

#[test]
fn a_figure_whose_input_changed_during_the_run_records_the_change() {
    let sb = sandbox("hashcache-during", "0.5\n");
    age_past_racy_window();
    let run = sb.make_figure("warm", LEVEL_CODE, &[]);
    assert_eq!(run.exit_code(), Some(0), "{}", run.json);
    let old = hex(&Sha256::digest(b"0.5\n"));
    assert_eq!(
        recorded_sha256(&sb.figures.join("warm.png"), "level.txt"),
        old
    );

    let slow = format!("{LEVEL_CODE}import time\ntime.sleep(4)\n");
    let child = sb
        .make_figure_command("slow", &slow, &[])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    rewrite_keeping_mtime(&sb.src.join("level.txt"), "0.7\n");
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let recorded = recorded_sha256(&sb.figures.join("slow.png"), "level.txt");
    assert_ne!(
        recorded, old,
        "the cache's hash from before the run was reused"
    );
    assert_eq!(recorded, hex(&Sha256::digest(b"0.7\n")));
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    find(haystack, needle).is_some()
}
