use super::*;

const PNG_BYTES: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0";
const PNG: FigureFormat = FigureFormat::Png;
const CAP: u64 = 1 << 20;

struct Run {
    dir: tempfile::TempDir,
    figures: tempfile::TempDir,
}

impl Run {
    fn new() -> Run {
        Run {
            dir: tempfile::tempdir().unwrap(),
            figures: tempfile::tempdir().unwrap(),
        }
    }

    fn out(&self) -> PathBuf {
        self.dir.path().join("out.png")
    }

    fn write(&self, name: &str, bytes: &[u8]) {
        std::fs::write(self.dir.path().join(name), bytes).unwrap();
    }

    fn manifest(&self, json: serde_json::Value) {
        self.write(MANIFEST, json.to_string().as_bytes());
    }

    fn keep(&self) -> Result<(Vec<SavedFigure>, Option<String>), CaptureFailure> {
        keep_figures(
            self.dir.path(),
            &self.out(),
            PNG,
            self.figures.path(),
            "fig",
            CAP,
            None,
            std::time::SystemTime::now(),
        )
        .map(|kept| (kept.figures, kept.note))
    }

    fn kept_names(&self) -> Vec<String> {
        crate::pipeline::figures::visible_names(self.figures.path())
    }
}

fn saved(index: usize, name: &str) -> serde_json::Value {
    serde_json::json!({"index": index, "format": "png", "captured": "saved", "name": name})
}

#[test]
fn out_wins_over_everything_else_the_code_saved() {
    let run = Run::new();
    run.write("out.png", PNG_BYTES);
    run.write("capture-01.png", PNG_BYTES);
    run.manifest(serde_json::json!({"figures": [
        {"index": 0, "format": "png", "captured": "out", "report_text": "1 axes"},
    ]}));
    let (kept, note) = run.keep().unwrap();
    assert_eq!(kept.len(), 1);
    assert_eq!(kept[0].captured, Captured::Out);
    assert_eq!(kept[0].report_text.as_deref(), Some("1 axes"));
    assert_eq!(note, None, "OUT needs no advice");
    assert_eq!(run.kept_names(), ["fig.png"]);
}

#[test]
fn saved_figures_are_kept_in_order_with_numbered_names_and_a_note() {
    let run = Run::new();
    run.write("capture-01.png", PNG_BYTES);
    let mut svg = b"<svg xmlns='http://www.w3.org/2000/svg'/>".to_vec();
    run.write("capture-02.svg", &svg);
    run.manifest(serde_json::json!({"figures": [
        saved(1, "a.png"),
        {"index": 2, "format": "svg", "captured": "saved", "name": "plots/b.svg"},
    ], "notes": ["'c.eps' was kept as PNG"]}));
    let (kept, note) = run.keep().unwrap();
    assert_eq!(run.kept_names(), ["fig-2.svg", "fig.png"]);
    assert_eq!(kept[1].format, FigureFormat::Svg);
    assert_eq!(kept[1].saved_as.as_deref(), Some("plots/b.svg"));
    let note = note.unwrap();
    assert!(note.contains("\"a.png\", \"plots/b.svg\""), "{note}");
    assert!(note.contains("fig.png, fig-2.svg"), "{note}");
    assert!(note.contains("'c.eps' was kept as PNG."), "{note}");
    svg.clear();
}

#[test]
fn shown_figures_say_how_they_were_kept_without_advice() {
    let run = Run::new();
    run.write("capture-01.png", PNG_BYTES);
    run.manifest(serde_json::json!({"figures": [
        {"index": 1, "format": "png", "captured": "shown"},
    ]}));
    let (kept, note) = run.keep().unwrap();
    assert_eq!(kept[0].captured, Captured::Shown);
    let note = note.unwrap();
    // plt.show() is a capture the code intended: no "save with plt.savefig(OUT)" (#41).
    assert!(
        note.contains("plt.show()") && !note.contains("plt.savefig(OUT)"),
        "{note}"
    );
}

#[test]
fn no_figure_at_all_says_what_to_write() {
    let run = Run::new();
    let err = run.keep().unwrap_err();
    assert!(err.no_output);
    assert!(err.message.contains("plt.savefig(OUT)"), "{}", err.message);
    run.manifest(serde_json::json!({"figures": []}));
    assert!(run.keep().unwrap_err().no_output);
}

#[test]
fn more_than_the_limit_is_refused_and_nothing_is_kept() {
    let run = Run::new();
    let figures: Vec<_> = (1..=MAX_FIGURES + 1)
        .map(|i| {
            run.write(&capture_file_name(i, PNG), PNG_BYTES);
            saved(i, &format!("f{i}.png"))
        })
        .collect();
    run.manifest(serde_json::json!({ "figures": figures }));
    let err = run.keep().unwrap_err();
    assert!(
        err.message.contains("more than 16 figures"),
        "{}",
        err.message
    );
    assert!(run.kept_names().is_empty());
}

#[test]
fn the_manifest_cannot_point_anywhere_but_capture_files() {
    let run = Run::new();
    run.write("capture-01.png", PNG_BYTES);
    for bad in [
        serde_json::json!({"figures": [saved(0, "x")]}),
        serde_json::json!({"figures": [saved(17, "x")]}),
        serde_json::json!({"figures": [saved(1, "x"), saved(1, "y")]}),
        serde_json::json!({"figures": [{"index": 1, "format": "exe", "captured": "saved"}]}),
        serde_json::json!({"figures": [{"index": "../../etc/passwd", "format": "png", "captured": "saved"}]}),
        serde_json::json!({"figures": [{"index": 1, "format": "png", "captured": "out"}]}),
    ] {
        run.manifest(bad.clone());
        let err = run.keep().unwrap_err();
        assert!(!err.message.is_empty(), "{bad}");
        assert!(run.kept_names().is_empty(), "{bad} kept something");
    }
    run.write(MANIFEST, b"{ not json");
    assert!(run.keep().is_err());
}

#[test]
fn a_capture_file_that_is_not_the_figure_it_claims_is_refused() {
    let run = Run::new();
    run.write("capture-01.png", b"GIF89a not a png");
    run.manifest(serde_json::json!({"figures": [saved(1, "a.png")]}));
    let err = run.keep().unwrap_err();
    assert!(err.no_output);
    assert!(err.message.contains("\"a.png\""), "{}", err.message);
    assert!(run.kept_names().is_empty());
}

#[cfg(unix)]
#[test]
fn links_and_fifos_under_capture_names_are_refused_not_followed() {
    let outside = tempfile::tempdir().unwrap();
    let secret = outside.path().join("secret.png");
    std::fs::write(&secret, PNG_BYTES).unwrap();
    let plant = |run: &Run, how: &str| {
        let at = run.dir.path().join("capture-01.png");
        match how {
            "symlink" => std::os::unix::fs::symlink(&secret, &at).unwrap(),
            "hardlink" => std::fs::hard_link(&secret, &at).unwrap(),
            _ => {
                let c = std::ffi::CString::new(at.to_str().unwrap()).unwrap();
                // SAFETY: a valid NUL-terminated path.
                assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
            }
        }
    };
    for how in ["symlink", "hardlink", "fifo"] {
        let run = Run::new();
        plant(&run, how);
        run.manifest(serde_json::json!({"figures": [saved(1, "a.png")]}));
        assert!(run.keep().is_err(), "{how} was accepted");
        assert!(run.kept_names().is_empty(), "{how}: something was kept");
    }
    // The manifest itself, as a link to a file the worker could not read, is not followed.
    let run = Run::new();
    let list = outside.path().join("list.json");
    std::fs::write(
        &list,
        serde_json::json!({"figures": [saved(1, "a")]}).to_string(),
    )
    .unwrap();
    std::os::unix::fs::symlink(&list, run.dir.path().join(MANIFEST)).unwrap();
    run.write("capture-01.png", PNG_BYTES);
    assert!(run.keep().is_err());
}

#[test]
fn reports_and_names_are_capped() {
    let run = Run::new();
    run.write("capture-01.png", PNG_BYTES);
    let long = "x".repeat(50_000);
    run.manifest(serde_json::json!({"figures": [
        {"index": 1, "format": "png", "captured": "saved", "name": long, "report_text": long},
    ]}));
    let (kept, _) = run.keep().unwrap();
    assert!(kept[0].saved_as.as_ref().unwrap().chars().count() <= NAME_MAX_CHARS + 1);
    assert!(kept[0].report_text.as_ref().unwrap().chars().count() <= TEXT_MAX_CHARS + 1);
}

#[test]
fn previews_are_read_only_under_our_names_and_checked() {
    let run = Run::new();
    run.write("capture-01.png", PNG_BYTES);
    run.write("capture-02.png", PNG_BYTES);
    run.write("preview-01.jpg", b"\xff\xd8\xff\xe0 small \xff\xd9");
    run.write("preview-02.png", b"not an image");
    run.manifest(serde_json::json!({"figures": [
        {"index": 1, "format": "png", "captured": "saved", "name": "a", "preview": "jpg"},
        {"index": 2, "format": "png", "captured": "saved", "name": "b", "preview": "png"},
    ]}));
    let (kept, _) = run.keep().unwrap();
    assert_eq!(kept[0].preview.as_ref().unwrap().format, FigureFormat::Jpeg);
    assert_eq!(
        kept[1].preview, None,
        "a broken preview is dropped, the figure kept"
    );
}

/// A complete 1×1 PNG (signature, IHDR, IDAT, IEND), so a record can be embedded.
const FULL_PNG: &[u8] = b"\x89\x50\x4e\x47\x0d\x0a\x1a\x0a\x00\x00\x00\x0d\x49\x48\x44\x52\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\x0d\x49\x44\x41\x54\x78\x9c\x63\xf8\xcf\xc0\xf0\x1f\x00\x05\x00\x01\xff\x89\x99\x3d\x1d\x00\x00\x00\x00\x49\x45\x4e\x44\xae\x42\x60\x82";

#[test]
fn the_parent_embeds_provenance_and_hashes_only_files_inside_src() {
    let run = Run::new();
    let root = tempfile::tempdir().unwrap();
    let src = root.path().join("data");
    std::fs::create_dir(&src).unwrap();
    std::fs::write(src.join("a.csv"), b"x\n1\n").unwrap();
    std::fs::write(root.path().join("secret.txt"), b"secret").unwrap();
    run.write("out.png", FULL_PNG);
    // The worker's list is a claim: paths outside SRC and made-up hashes are not taken.
    run.manifest(serde_json::json!({
        "figures": [{"index": 0, "format": "png", "captured": "out"}],
        "inputs": ["a.csv", "../secret.txt", "/etc/passwd", "missing.csv"],
        "sha256": {"a.csv": "00"},
    }));
    let origin = Origin {
        name: "fig".into(),
        code: "plt.savefig(OUT)\n".into(),
        src: src.clone(),
        limits: crate::pipeline::Limits::default(),
        guard: Vec::new(),
    };
    let kept = keep_figures(
        run.dir.path(),
        &run.out(),
        PNG,
        run.figures.path(),
        "fig",
        CAP,
        Some(&origin),
        std::time::SystemTime::now(),
    )
    .unwrap()
    .figures;
    let bytes = std::fs::read(&kept[0].path).unwrap();
    assert_eq!(kept[0].bytes, bytes.len() as u64);
    assert!(bytes.len() > FULL_PNG.len());
    let record = provenance::extract(&bytes, PNG).unwrap().expect("a record");
    assert_eq!(record.code, "plt.savefig(OUT)\n");
    assert_eq!(record.file, "fig.png");
    assert_eq!(record.inputs.len(), 1);
    assert_eq!(record.inputs[0].path, "a.csv");
    assert_eq!(
        record.inputs[0].sha256.as_deref(),
        Some(provenance::sha256_hex(b"x\n1\n").as_str())
    );
    let summary = kept[0].provenance.as_ref().expect("a summary");
    assert_eq!(summary.inputs, ["a.csv"]);
    assert_eq!(
        summary.embedded_bytes,
        (bytes.len() - FULL_PNG.len()) as u64
    );
}
