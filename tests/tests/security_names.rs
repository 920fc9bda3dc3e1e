//! Input abuse through the command line: a figure name that is not a figure name, a
//! missing source folder or unreadable code is refused with exit 4 and nothing is written
//! or started.

#![cfg(target_os = "linux")] // Layer 2 as built and proven here: Landlock, seccomp, /proc.

mod security_support;

use security_support::Sandbox;

fn files_under(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut found = Vec::new();
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            if e.file_type().is_ok_and(|t| t.is_dir()) {
                found.extend(files_under(&e.path()));
            } else {
                found.push(e.path());
            }
        }
    }
    found
}

#[test]
fn bad_names_are_refused_and_nothing_is_written() {
    let sb = Sandbox::new("names");
    let before = sb.snapshot();
    let abs = sb.outside.join("abs");
    for name in [
        "../x".to_owned(),
        "../../x".to_owned(),
        abs.display().to_string(),
        "a/b".to_owned(),
        "x\ny".to_owned(),
        "x\r".to_owned(),
        ".hidden".to_owned(),
        "..".to_owned(),
        String::new(),
        "a".repeat(65),
        // Inner spaces are fine; a trailing one (Windows drops it) is not.
        "fig name ".to_owned(),
        "CON".to_owned(),
        "fig\u{202E}gnp".to_owned(),
    ] {
        let run = sb.make_figure(&name, "plt.plot([1, 2])\nplt.savefig(OUT)\n", &[]);
        assert_eq!(run.exit_code(), Some(4), "{name:?}: {}", run.json);
        assert_eq!(run.stage(), "input", "{name:?}");
        assert_eq!(run.json["errors"][0]["rule"], "bad-name", "{name:?}");
    }
    security_support::assert_unchanged(&sb, &before, "bad names");
    assert!(files_under(&sb.figures).is_empty());
    assert!(files_under(&sb.runs_dir()).is_empty(), "a run was started");
    assert!(!abs.with_extension("png").exists());
}

#[test]
fn bad_folders_code_and_limits_are_refused() {
    let sb = Sandbox::new("inputs");
    let code_file = sb.inputs().join("ok.py");
    std::fs::write(&code_file, "plt.plot([1])\nplt.savefig(OUT)\n").unwrap();
    let a_file = sb.src.join("data.csv");
    let cases: Vec<(&str, Vec<String>)> = vec![
        (
            "missing src",
            vec!["--src".into(), sb.src.join("nope").display().to_string()],
        ),
        (
            "src is a file",
            vec!["--src".into(), a_file.display().to_string()],
        ),
        (
            "figures is a file",
            vec!["--figures".into(), a_file.display().to_string()],
        ),
        (
            "missing code",
            vec![
                "--code".into(),
                sb.src.join("nope.py").display().to_string(),
            ],
        ),
        ("zero timeout", vec!["--timeout".into(), "0".into()]),
        ("tiny memory", vec!["--memory".into(), "1".into()]),
    ];
    for (label, overrides) in cases {
        let mut args = vec![
            "make-figure".to_owned(),
            "--name".into(),
            "fig".into(),
            "--json".into(),
        ];
        for flag in ["--src", "--figures", "--code"] {
            if !overrides.iter().any(|o| o == flag) {
                let value = match flag {
                    "--src" => sb.src.display().to_string(),
                    "--figures" => sb.figures.display().to_string(),
                    _ => code_file.display().to_string(),
                };
                args.extend([flag.to_owned(), value]);
            }
        }
        args.extend(overrides);
        let out = blackbox::run(blackbox::pdfagent().args(&args).env("TMPDIR", sb.inputs()));
        let json: serde_json::Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{label}: no JSON ({e}): {:?}", out));
        assert_eq!(out.status.code(), Some(4), "{label}: {json}");
        assert_eq!(json["stage"], "input", "{label}: {json}");
        assert!(!sb.figures.join("fig.png").exists(), "{label}");
    }
}
