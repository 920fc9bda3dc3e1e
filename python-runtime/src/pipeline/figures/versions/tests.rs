use super::*;
use crate::pipeline::Limits;
use crate::pipeline::figures::capture::{self, Kept, MANIFEST};
use crate::pipeline::figures::visible_names;
use std::time::Instant;

const PNG: FigureFormat = FigureFormat::Png;
const SVG: FigureFormat = FigureFormat::Svg;
const TINY_PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0";
/// A complete 1×1 PNG, one a provenance record can be embedded into.
const FULL_PNG: &[u8] = b"\x89\x50\x4e\x47\x0d\x0a\x1a\x0a\x00\x00\x00\x0d\x49\x48\x44\x52\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\x0d\x49\x44\x41\x54\x78\x9c\x63\xf8\xcf\xc0\xf0\x1f\x00\x05\x00\x01\xff\x89\x99\x3d\x1d\x00\x00\x00\x00\x49\x45\x4e\x44\xae\x42\x60\x82";

/// A PNG no other test figure equals.
fn png(tag: &str) -> Vec<u8> {
    let mut bytes = TINY_PNG.to_vec();
    bytes.extend_from_slice(tag.as_bytes());
    bytes
}

fn svg(tag: &str) -> Vec<u8> {
    format!("<svg xmlns='http://www.w3.org/2000/svg'><!-- {tag} --></svg>").into_bytes()
}

/// One run of `name` whose code saved `figs` (as `capture.py` leaves them), kept through
/// the real output stage. `code`: with a provenance record of that code.
fn run_at(
    figures: &Path,
    name: &str,
    figs: &[(FigureFormat, Vec<u8>)],
    code: Option<&str>,
    submitted: SystemTime,
) -> Kept {
    let run = tempfile::tempdir().unwrap();
    let src = tempfile::tempdir().unwrap();
    let listed: Vec<serde_json::Value> = figs
        .iter()
        .enumerate()
        .map(|(i, (format, bytes))| {
            std::fs::write(
                run.path().join(capture::capture_file_name(i + 1, *format)),
                bytes,
            )
            .unwrap();
            serde_json::json!({"index": i + 1, "format": format, "captured": "saved",
                "name": format!("f{i}.{}", format.extension())})
        })
        .collect();
    std::fs::write(
        run.path().join(MANIFEST),
        serde_json::json!({ "figures": listed }).to_string(),
    )
    .unwrap();
    let origin = code.map(|code| provenance::Origin {
        name: name.to_owned(),
        code: code.to_owned(),
        src: src.path().to_path_buf(),
        limits: Limits::default(),
        guard: Vec::new(),
    });
    capture::keep_figures(
        run.path(),
        &run.path().join("out.png"),
        PNG,
        figures,
        name,
        1 << 20,
        origin.as_ref(),
        submitted,
    )
    .unwrap()
}

fn run(figures: &Path, name: &str, figs: &[(FigureFormat, Vec<u8>)]) -> Kept {
    run_at(figures, name, figs, None, SystemTime::now())
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap()
}

/// The group of `fig` in the folder: file name and bytes.
fn group(figures: &Path) -> Vec<(String, Vec<u8>)> {
    visible_names(figures)
        .into_iter()
        .filter(|n| n.starts_with("fig"))
        .map(|n| (n.clone(), read(&figures.join(&n))))
        .collect()
}

#[test]
fn the_whole_group_is_kept_and_leaves_the_plain_name() {
    let dir = tempfile::tempdir().unwrap();
    let figures = dir.path();
    run(
        figures,
        "fig",
        &[(PNG, png("1a")), (PNG, png("1b")), (SVG, svg("1c"))],
    );
    // An export of another format beside it, as a report includes it (`\includegraphics`
    // picks the PDF first).
    std::fs::write(figures.join("fig.pdf"), b"%PDF-1.4 first").unwrap();
    let before = group(figures);
    assert_eq!(
        before.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(),
        ["fig-2.png", "fig-3.svg", "fig.pdf", "fig.png"]
    );

    let kept = run(figures, "fig", &[(PNG, png("2a"))]);
    let replaced = kept.replaced.expect("the old group was kept");
    assert_eq!(replaced.version, 1);
    assert_eq!(visible_names(figures), ["fig.png"]);
    assert_eq!(read(&figures.join("fig.png")), png("2a"));

    let versions = list(figures, "fig").unwrap();
    assert_eq!(versions.len(), 1);
    let v = &versions[0];
    assert_eq!(v.path, replaced.path);
    assert!(
        v.path.ends_with(".pdfagent-versions/fig/1/fig.png"),
        "{v:?}"
    );
    let mut in_store: Vec<(String, Vec<u8>)> = v
        .files
        .iter()
        .map(|f| (f.file.clone(), read(&f.path)))
        .collect();
    assert_eq!(in_store[0].0, "fig.png", "the main file comes first");
    in_store.sort();
    assert_eq!(in_store, before);
    assert_eq!(
        v.bytes,
        before.iter().map(|(_, b)| b.len() as u64).sum::<u64>()
    );
    // The index no longer gives `fig` the old extras: the names are free again.
    assert_eq!(super::super::ownership::owner_of(figures, "fig-2"), None);
}

#[test]
fn restore_is_byte_identical_and_keeps_the_group_it_replaces() {
    let dir = tempfile::tempdir().unwrap();
    let figures = dir.path();
    run(figures, "fig", &[(PNG, png("one")), (SVG, svg("one-b"))]);
    let first = group(figures);
    run(figures, "fig", &[(PNG, png("two"))]);
    let second = group(figures);

    let restored = restore(figures, "fig", 1).unwrap();
    assert_eq!(group(figures), first);
    assert_eq!(restored.restored.version, 1);
    let replaced = restored.replaced.expect("the second figure was kept");
    assert_eq!(replaced.version, 2);
    assert_eq!(read(&replaced.path), second[0].1);
    // Both stay listed; the restored file is a copy, not a link into the store.
    assert_eq!(list(figures, "fig").unwrap().len(), 2);
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        assert_eq!(
            std::fs::metadata(figures.join("fig.png")).unwrap().nlink(),
            1
        );
    }
    // The restored extra is `fig`'s own again: the next run of `fig` replaces it.
    run(
        figures,
        "fig",
        &[(PNG, png("three")), (SVG, svg("three-b"))],
    );
    assert_eq!(read(&figures.join("fig-2.svg")), svg("three-b"));
    assert_eq!(list(figures, "fig").unwrap().len(), 3);

    let err = restore(figures, "fig", 9).unwrap_err();
    assert!(err.to_string().contains("no version 9"), "{err}");
}

#[test]
fn an_export_of_the_same_figure_stays_beside_it_and_a_new_figure_replaces_every_format() {
    let dir = tempfile::tempdir().unwrap();
    let figures = dir.path();
    let code = "plt.plot([1, 2])\nplt.savefig(OUT)\n";
    let now = SystemTime::now();
    run_at(figures, "fig", &[(PNG, FULL_PNG.to_vec())], Some(code), now);
    // The window's vector export: the same code as SVG. Nothing is replaced, no version.
    let export = run_at(figures, "fig", &[(SVG, svg("s"))], Some(code), now);
    assert!(export.replaced.is_none(), "{:?}", export.replaced);
    assert_eq!(visible_names(figures), ["fig.png", "fig.svg"]);
    assert_eq!(count(figures, "fig"), 0);
    // New code: both formats of the old figure leave the plain name, kept together.
    let changed = run_at(
        figures,
        "fig",
        &[(PNG, FULL_PNG.to_vec())],
        Some("plt.plot([3, 4])\nplt.savefig(OUT)\n"),
        SystemTime::now(),
    );
    assert_eq!(visible_names(figures), ["fig.png"]);
    let kept = changed.replaced.unwrap();
    let files: Vec<&str> = kept
        .files
        .iter()
        .map(|p| p.file_name().unwrap().to_str().unwrap())
        .collect();
    assert_eq!(files, ["fig.png", "fig.svg"]);
    let info = get(figures, "fig", kept.version).unwrap();
    assert_eq!(
        info.code_sha256.as_deref(),
        Some(provenance::sha256_hex(code.as_bytes()).as_str())
    );
}

#[test]
fn two_runs_of_one_name_both_survive_ordered_by_submission() {
    let dir = tempfile::tempdir().unwrap();
    let figures = dir.path();
    let early = SystemTime::now();
    let late = early + Duration::from_millis(5);
    // The later-submitted run finishes first; the earlier one ends after it.
    run_at(figures, "fig", &[(PNG, png("late"))], None, late);
    let kept = run_at(figures, "fig", &[(PNG, png("early"))], None, early);
    assert!(kept.replaced.is_none());
    assert!(
        kept.note.as_deref().unwrap().contains("version 1"),
        "{:?}",
        kept.note
    );
    assert_eq!(read(&figures.join("fig.png")), png("late"));
    let versions = list(figures, "fig").unwrap();
    assert_eq!(versions.len(), 1);
    assert_eq!(read(&versions[0].path), png("early"));
    assert_eq!(kept.figures[0].path, versions[0].path);

    // At once, in threads: whichever saves first, both are kept and the later-submitted
    // one is current.
    let dir = tempfile::tempdir().unwrap();
    let figures = dir.path().to_path_buf();
    let base = SystemTime::now();
    let barrier = std::sync::Barrier::new(2);
    std::thread::scope(|s| {
        for (tag, offset) in [("a", 0u64), ("b", 3)] {
            let (figures, barrier) = (&figures, &barrier);
            s.spawn(move || {
                barrier.wait();
                run_at(
                    figures,
                    "fig",
                    &[(PNG, png(tag)), (PNG, png(&format!("{tag}2")))],
                    None,
                    base + Duration::from_millis(offset),
                );
            });
        }
    });
    assert_eq!(
        read(&figures.join("fig.png")),
        png("b"),
        "{:?}",
        list(&figures, "fig"),
    );
    assert_eq!(read(&figures.join("fig-2.png")), png("b2"));
    let versions = list(&figures, "fig").unwrap();
    assert_eq!(versions.len(), 1, "{versions:?}");
    let kept: Vec<Vec<u8>> = versions[0].files.iter().map(|f| read(&f.path)).collect();
    assert_eq!(kept, [png("a"), png("a2")]);
}

#[test]
fn many_runs_of_one_name_are_listed_in_order_and_pruned_by_policy() {
    let dir = tempfile::tempdir().unwrap();
    let figures = dir.path();
    let runs = 200;
    let t0 = SystemTime::now();
    for i in 0..runs {
        run_at(
            figures,
            "fig",
            &[(PNG, png(&i.to_string()))],
            None,
            t0 + Duration::from_millis(i),
        );
    }
    let started = Instant::now();
    let versions = list(figures, "fig").unwrap();
    eprintln!(
        "listed {} versions in {:?}",
        versions.len(),
        started.elapsed()
    );
    assert_eq!(versions.len(), runs as usize - 1);
    assert_eq!(count(figures, "fig"), runs as usize - 1);
    for (i, v) in versions.iter().enumerate() {
        assert_eq!(read(&v.path), png(&i.to_string()), "version {}", v.version);
    }
    let size = store_size(figures);
    assert_eq!(size.versions, runs as usize - 1);
    assert_eq!(size.names, 1);
    // The figures, and each version's small description.
    let figures_bytes = versions.iter().map(|v| v.bytes).sum::<u64>();
    assert!(
        (figures_bytes..figures_bytes + 1024 * size.versions as u64).contains(&size.bytes),
        "{size:?} for {figures_bytes} bytes of figures"
    );

    let policy = PrunePolicy {
        keep_last: Some(10),
        older_than: None,
        dry_run: true,
    };
    let dry = prune(figures, Some("fig"), policy).unwrap();
    assert_eq!(dry.removed.len(), runs as usize - 11);
    assert_eq!(
        count(figures, "fig"),
        runs as usize - 1,
        "a dry run removes nothing"
    );
    let done = prune(
        figures,
        None,
        PrunePolicy {
            dry_run: false,
            ..policy
        },
    )
    .unwrap();
    assert_eq!(done.removed, dry.removed);
    let left = list(figures, "fig").unwrap();
    assert_eq!(left.len(), 10);
    assert_eq!(read(&left[0].path), png(&(runs - 11).to_string()));
    // The current figure is never pruned.
    assert_eq!(read(&figures.join("fig.png")), png(&(runs - 1).to_string()));
    assert!(
        prune(figures, None, PrunePolicy::default())
            .unwrap()
            .removed
            .is_empty()
    );
}

#[test]
fn the_store_is_hidden_from_the_folder_scan() {
    let dir = tempfile::tempdir().unwrap();
    let figures = dir.path();
    let src = tempfile::tempdir().unwrap();
    run(figures, "fig", &[(PNG, png("1"))]);
    // A name never replaced has no store, and a folder of single figures no index.
    assert!(!figures.join(STORE).exists());
    assert!(!figures.join(super::super::ownership::INDEX).exists());
    run(figures, "fig", &[(PNG, png("2"))]);
    assert!(figures.join(STORE).is_dir());
    let scanned = provenance::folder::scan(figures, src.path()).unwrap();
    let files: Vec<_> = scanned.iter().map(|e| e.file.clone()).collect();
    assert_eq!(files, [figures.join("fig.png")]);
}

#[test]
fn version_numbers_are_read_as_people_write_them() {
    assert_eq!(parse_version("3"), Some(3));
    assert_eq!(parse_version("v12"), Some(12));
    assert_eq!(parse_version("#2"), Some(2));
    assert_eq!(parse_version("0"), None);
    assert_eq!(parse_version("x"), None);
}

/// The steps of keeping a version where the fault test kills the host.
#[cfg(unix)]
const STEPS: [&str; 6] = ["linked", "kept", "marked", "saving", "saved", "settled"];

/// The host the fault test kills: one run of `fig` into `PDFAGENT_VERSIONS_FAULT_DIR`,
/// paused at `PDFAGENT_VERSIONS_PAUSE_AT`. Started only by that test (ignored otherwise).
#[test]
#[ignore = "the host process of kill_at_each_step_loses_no_version"]
fn fault_host() {
    let figures = PathBuf::from(std::env::var("PDFAGENT_VERSIONS_FAULT_DIR").unwrap());
    run(
        &figures,
        "fig",
        &[(PNG, png("new")), (PNG, png("new2")), (PNG, png("new3"))],
    );
}

#[cfg(unix)]
#[test]
fn kill_at_each_step_loses_no_version() {
    let exe = std::env::current_exe().unwrap();
    for step in STEPS {
        let dir = tempfile::tempdir().unwrap();
        let figures = dir.path().join("figures");
        std::fs::create_dir(&figures).unwrap();
        run(&figures, "fig", &[(PNG, png("old")), (SVG, svg("old2"))]);
        std::fs::write(figures.join("fig.pdf"), b"%PDF-1.4 old").unwrap();
        let old = group(&figures);
        let paused = dir.path().join("paused");
        let mut host = std::process::Command::new(&exe)
            .args([
                "--exact",
                "pipeline::figures::versions::tests::fault_host",
                "--ignored",
                "--test-threads=1",
            ])
            .env("PDFAGENT_VERSIONS_FAULT_DIR", &figures)
            .env("PDFAGENT_VERSIONS_PAUSE_AT", step)
            .env("PDFAGENT_VERSIONS_PAUSED", &paused)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let deadline = Instant::now() + Duration::from_secs(60);
        while !paused.exists() {
            assert!(
                host.try_wait().unwrap().is_none(),
                "the host ended before {step}"
            );
            assert!(Instant::now() < deadline, "the host never reached {step}");
            std::thread::sleep(Duration::from_millis(20));
        }
        host.kill().unwrap(); // SIGKILL
        host.wait().unwrap();

        // The next PDFAgent action on the folder takes the lock and repairs.
        drop(lock(&figures).unwrap());
        let current = group(&figures);
        let new: Vec<(String, Vec<u8>)> = vec![
            ("fig-2.png".into(), png("new2")),
            ("fig-3.png".into(), png("new3")),
            ("fig.png".into(), png("new")),
        ];
        assert!(
            current == old || current == new,
            "{step}: the current group is not whole: {:?}",
            current.iter().map(|(n, _)| n).collect::<Vec<_>>()
        );
        let kept_whole = list(&figures, "fig").unwrap().iter().any(|v| {
            let mut files: Vec<(String, Vec<u8>)> = v
                .files
                .iter()
                .map(|f| (f.file.clone(), read(&f.path)))
                .collect();
            files.sort();
            files == old
        });
        assert!(
            current == old || kept_whole,
            "{step}: the old group was lost"
        );
        assert!(
            !std::fs::read_dir(figures.join(STORE).join("fig"))
                .unwrap()
                .any(|e| e
                    .unwrap()
                    .file_name()
                    .to_string_lossy()
                    .starts_with(INCOMING)),
            "{step}: a half-built version was left"
        );
        assert!(!figures.join(STORE).join(REPLACING).exists(), "{step}");
        // And the folder works on: the next run replaces the group and keeps it.
        run(&figures, "fig", &[(PNG, png("after"))]);
        assert_eq!(visible_names(&figures), ["fig.png"], "{step}");
    }
}
