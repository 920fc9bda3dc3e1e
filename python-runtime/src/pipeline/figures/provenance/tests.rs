use super::*;

fn chunk(kind: &[u8; 4], data: &[u8]) -> Vec<u8> {
    let mut out = (data.len() as u32).to_be_bytes().to_vec();
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    let crc = png::crc32(&out[4..]);
    out.extend_from_slice(&crc.to_be_bytes());
    out
}

fn tiny_png(extra: &[Vec<u8>]) -> Vec<u8> {
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    out.extend(chunk(b"IHDR", b"\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0"));
    for e in extra {
        out.extend_from_slice(e);
    }
    out.extend(chunk(b"IDAT", b"x\x9cc\xf8\x0f\x00\x01\x01\x01\x00"));
    out.extend(chunk(b"IEND", b""));
    out
}

const SVG: &str = "<?xml version=\"1.0\" encoding=\"utf-8\" standalone=\"no\"?>\n\
    <!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\"\n  \"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd\">\n\
    <svg xmlns:xlink=\"http://www.w3.org/1999/xlink\" width=\"460.8pt\" height=\"345.6pt\" \
    viewBox=\"0 0 460.8 345.6\" xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\">\n \
    <defs><style type=\"text/css\">*{stroke-linejoin: round}</style></defs>\n \
    <g id=\"figure_1\"><path d=\"M 0 0 L 1 1\" style=\"fill: #ffffff\"/></g>\n</svg>\n";

fn tiny_pdf() -> Vec<u8> {
    let mut pdf = b"%PDF-1.4\n%\xac\xdc \xab\xba\n".to_vec();
    let o1 = pdf.len();
    pdf.extend_from_slice(b"1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n");
    let o2 = pdf.len();
    pdf.extend_from_slice(b"2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n");
    let o3 = pdf.len();
    pdf.extend_from_slice(b"3 0 obj\n<< /Creator (Matplotlib) >>\nendobj\n");
    let xref = pdf.len();
    pdf.extend_from_slice(
        format!(
            "xref\n0 4\n0000000000 65535 f \n{o1:010} 00000 n \n{o2:010} 00000 n \n{o3:010} 00000 n \n\
             trailer\n<< /Size 4 /Root 1 0 R /Info 3 0 R >>\nstartxref\n{xref}\n%%EOF\n"
        )
        .as_bytes(),
    );
    pdf
}

fn sample(format: FigureFormat) -> Provenance {
    let code = "import pandas as pd\n# ]]> </metadata> & <svg> (paren) \\ /JS /AA stream\n\
                df = pd.read_csv('bands.csv')\nplt.title('磁场 é')\nplt.savefig(OUT)\n";
    Provenance {
        schema: SCHEMA,
        pdfagent: "0.1.0".into(),
        name: "overview".into(),
        file: format!("overview.{}", format.extension()),
        format,
        created: "2026-12-01T20:00:00Z".into(),
        data_folder: "data".into(),
        inputs: vec![Input {
            path: "runs/bands.csv".into(),
            bytes: 12,
            sha256: Some(sha256_hex(b"hello world\n")),
        }],
        inputs_partial: false,
        limits: RecordedLimits {
            timeout_s: 90,
            memory_mb: 4096,
        },
        runtime: [("numpy".to_owned(), "2.4.6".to_owned())].into(),
        code_sha256: sha256_hex(code.as_bytes()),
        code: code.into(),
        guard: vec![GuardRefusal {
            rule: "guard-open".into(),
            what: "opening '/etc/hostname' <svg> & ]]>".into(),
        }],
    }
}

fn figure(format: FigureFormat) -> Vec<u8> {
    match format {
        FigureFormat::Png => tiny_png(&[]),
        FigureFormat::Svg => SVG.as_bytes().to_vec(),
        FigureFormat::Pdf => tiny_pdf(),
        FigureFormat::Jpeg => b"\xff\xd8\xff\xe0\xff\xd9".to_vec(),
    }
}

#[test]
fn every_format_round_trips_the_exact_code_and_still_passes_its_checks() {
    for format in FigureFormat::ALL {
        let original = figure(format);
        assert_eq!(format.problem(&original), None, "{format} sample");
        assert_eq!(extract(&original, format).unwrap(), None, "{format}");
        let p = sample(format);
        let embedded = embed(&original, format, &p).unwrap();
        assert_eq!(format.problem(&embedded), None, "{format} after embedding");
        let back = extract(&embedded, format).unwrap().expect("a record");
        assert_eq!(back, p, "{format}");
        assert_eq!(back.code.as_bytes(), p.code.as_bytes());
        // Embedding again replaces the record; it never stacks up.
        let mut q = sample(format);
        q.created = "2027-01-01T00:00:00Z".into();
        let twice = embed(&embedded, format, &q).unwrap();
        assert_eq!(extract(&twice, format).unwrap().unwrap(), q, "{format}");
        assert_eq!(format.problem(&twice), None, "{format} twice");
        let added = embedded.len() - original.len();
        assert!(
            added < to_json(&p).len() * 2 + 400,
            "{format}: {added} bytes"
        );
    }
    assert!(matches!(
        embed(
            &figure(FigureFormat::Jpeg),
            FigureFormat::Jpeg,
            &sample(FigureFormat::Png)
        ),
        Err(Error::Unsupported)
    ));
}

#[test]
fn a_self_closing_svg_root_gets_a_body() {
    let svg = b"<svg xmlns='http://www.w3.org/2000/svg' a='x>y'/>";
    let p = sample(FigureFormat::Svg);
    let embedded = embed(svg, FigureFormat::Svg, &p).unwrap();
    assert_eq!(super::super::svg::problem(&embedded), None);
    let text = String::from_utf8(embedded.clone()).unwrap();
    assert!(text.starts_with("<svg xmlns='http://www.w3.org/2000/svg' a='x>y'><metadata"));
    assert!(text.ends_with("</metadata></svg>"), "{text}");
    assert_eq!(extract(&embedded, FigureFormat::Svg).unwrap(), Some(p));
}

#[test]
fn a_record_the_worker_forged_is_replaced_or_ignored() {
    let forged = sample(FigureFormat::Png);
    let mut evil = forged.clone();
    evil.code = "import os\nos.system('x')\n".into();
    evil.code_sha256 = sha256_hex(evil.code.as_bytes());
    // PNG: a chunk with our keyword written by the code is dropped, and so is what follows IEND.
    let mut fake = png::KEYWORD.to_vec();
    fake.extend_from_slice(&[0, 0, 0, 0, 0]);
    fake.extend_from_slice(to_json(&evil).as_bytes());
    let mut with_fake = tiny_png(&[chunk(b"iTXt", &fake)]);
    with_fake.extend_from_slice(b"trailing junk");
    let embedded = embed(&with_fake, FigureFormat::Png, &forged).unwrap();
    assert_eq!(extract(&embedded, FigureFormat::Png).unwrap(), Some(forged));
    assert!(!embedded.ends_with(b"trailing junk"));
    // Two records in one PNG (not what embed writes): refused, not guessed.
    let two = tiny_png(&[chunk(b"iTXt", &fake), chunk(b"iTXt", &fake)]);
    assert!(matches!(
        extract(&two, FigureFormat::Png),
        Err(Error::Tampered(_))
    ));
    // SVG: a look-alike inside the drawing is not the record.
    let svg = SVG.replace(
        "<g id=\"figure_1\">",
        &format!(
            "<g id=\"figure_1\"><metadata id=\"pdfagent-provenance\">{}</metadata>",
            to_json(&evil)
        ),
    );
    assert_eq!(extract(svg.as_bytes(), FigureFormat::Svg).unwrap(), None);
    let p = sample(FigureFormat::Svg);
    let embedded = embed(svg.as_bytes(), FigureFormat::Svg, &p).unwrap();
    assert_eq!(extract(&embedded, FigureFormat::Svg).unwrap(), Some(p));
}

#[test]
fn tampered_or_damaged_records_are_clean_errors() {
    // The code changed without its hash: refused.
    for format in FigureFormat::ALL {
        let p = sample(format);
        let embedded = embed(&figure(format), format, &p).unwrap();
        let mut q = p.clone();
        q.code.push_str("import os\n");
        let altered = embed(&figure(format), format, &q).unwrap();
        let err = extract(&altered, format).unwrap_err();
        assert!(matches!(err, Error::Tampered(_)), "{format}: {err}");
        assert!(err.to_string().contains("altered"), "{err}");
        // Cut short anywhere: an error or no record, never a panic.
        for cut in (0..embedded.len()).step_by(97) {
            let _ = extract(&embedded[..cut], format);
        }
        // Every byte flipped in turn (a sample of positions): never a panic.
        for at in (0..embedded.len()).step_by(53) {
            let mut bad = embedded.clone();
            bad[at] ^= 0x5a;
            let _ = extract(&bad, format);
        }
    }
    // A PNG whose record's checksum does not match.
    let p = sample(FigureFormat::Png);
    let mut png = embed(&tiny_png(&[]), FigureFormat::Png, &p).unwrap();
    let at = png.len() - 12 - 20;
    png[at] ^= 1;
    assert!(matches!(
        extract(&png, FigureFormat::Png),
        Err(Error::Tampered(_))
    ));
    // Fields of the wrong shape.
    for mutate in [
        (|p: &mut Provenance| p.name = "../x".into()) as fn(&mut Provenance),
        |p| p.inputs[0].path = "/etc/passwd".into(),
        |p| p.inputs[0].path = "a/../../b".into(),
        |p| p.inputs[0].sha256 = Some("zz".into()),
        |p| p.schema = 99,
        |p| p.format = FigureFormat::Pdf,
    ] {
        let mut q = sample(FigureFormat::Png);
        mutate(&mut q);
        let bytes = embed(&tiny_png(&[]), FigureFormat::Png, &q).unwrap();
        assert!(matches!(
            extract(&bytes, FigureFormat::Png),
            Err(Error::Tampered(_))
        ));
    }
    // Not JSON at all; and an oversized record.
    let junk = png::embed(&tiny_png(&[]), "{not json").unwrap();
    assert!(matches!(
        extract(&junk, FigureFormat::Png),
        Err(Error::Tampered(_))
    ));
    let huge = "x".repeat(MAX_RECORD_BYTES + 1);
    let big = png::embed(&tiny_png(&[]), &huge).unwrap();
    assert!(matches!(
        extract(&big, FigureFormat::Png),
        Err(Error::TooLarge)
    ));
    let mut q = sample(FigureFormat::Png);
    q.code = huge;
    assert!(matches!(
        embed(&tiny_png(&[]), FigureFormat::Png, &q),
        Err(Error::TooLarge)
    ));
}

#[test]
fn inputs_are_hashed_here_and_only_inside_the_data_folder() {
    let root = tempfile::tempdir().unwrap();
    let src = root.path().join("data");
    std::fs::create_dir_all(src.join("runs")).unwrap();
    std::fs::write(src.join("runs/a.csv"), b"hello world\n").unwrap();
    std::fs::write(root.path().join("secret.txt"), b"secret").unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(root.path().join("secret.txt"), src.join("link.txt")).unwrap();
    let named: Vec<String> = [
        "runs/a.csv",
        "runs/a.csv",
        "../secret.txt",
        "/etc/passwd",
        "link.txt",
        "runs",
        "nope.csv",
    ]
    .map(String::from)
    .to_vec();
    let recorded = hash_inputs(&src, &named);
    assert_eq!(
        recorded.inputs,
        vec![Input {
            path: "runs/a.csv".into(),
            bytes: 12,
            sha256: Some(sha256_hex(b"hello world\n")),
        }]
    );
    let origin = Origin {
        name: "fig".into(),
        code: "plt.savefig(OUT)\n".into(),
        src: src.clone(),
        limits: Limits::default(),
        guard: Vec::new(),
    };
    let p = origin.record(&recorded, "fig.png", FigureFormat::Png);
    assert_eq!(p.data_folder, "data");
    assert!(!to_json(&p).contains(root.path().to_str().unwrap()));
    let states = compare_inputs(&p, &src);
    assert_eq!(states[0].1, InputState::Unchanged);
    assert!(!is_stale(&states));
    std::fs::write(src.join("runs/a.csv"), b"hello World\n").unwrap();
    assert_eq!(compare_inputs(&p, &src)[0].1, InputState::Changed);
    std::fs::remove_file(src.join("runs/a.csv")).unwrap();
    let states = compare_inputs(&p, &src);
    assert_eq!(states[0].1, InputState::Missing);
    assert!(is_stale(&states));
    let many: Vec<String> = (0..100).map(|i| format!("f{i}")).collect();
    for name in &many {
        std::fs::write(src.join(name), b"x").unwrap();
    }
    let recorded = hash_inputs(&src, &many);
    assert_eq!(recorded.inputs.len(), MAX_INPUTS);
    assert!(recorded.partial);
}

#[test]
fn time_is_rfc3339_utc() {
    let t = std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_796_169_600 + 3661);
    assert_eq!(rfc3339(t), "2026-12-02T01:01:01Z");
    assert_eq!(rfc3339(std::time::UNIX_EPOCH), "1970-01-01T00:00:00Z");
    assert_eq!(
        rfc3339(std::time::UNIX_EPOCH + std::time::Duration::from_secs(951_782_400)),
        "2000-02-29T00:00:00Z"
    );
}

#[test]
fn versions_come_from_the_runtime_manifest() {
    let manifest =
        br#"{"python":"3.11.7","policy_distributions":["numpy"],"runtime_extra":["h5py"],
        "distributions":{"numpy":"2.4.6","h5py":"3.16.0","packaging":"26.4"}}"#;
    let v = versions_from_manifest(manifest);
    assert_eq!(v.len(), 3);
    assert_eq!(v["python"], "3.11.7");
    assert!(!v.contains_key("packaging"));
    assert!(versions_from_manifest(b"junk").is_empty());
}

#[test]
fn the_guards_refusals_are_recorded_and_checked_when_read_back() {
    let format = FigureFormat::Svg;
    let original = figure(format);
    // A record without refusals does not carry the key at all (older records read the same).
    let mut quiet = sample(format);
    quiet.guard.clear();
    assert!(
        !to_json(&quiet).contains("\"guard\""),
        "{}",
        to_json(&quiet)
    );
    let back = extract(&embed(&original, format, &quiet).unwrap(), format).unwrap();
    assert_eq!(back.map(|p| p.guard), Some(Vec::new()));
    // A list the guard never writes is a record altered after the fact.
    for bad in [
        GuardRefusal {
            rule: "exec".into(),
            what: "x".into(),
        },
        GuardRefusal {
            rule: "guard-open".into(),
            what: "a\u{1b}[2Jb".into(),
        },
    ] {
        let mut p = sample(format);
        p.guard.push(bad);
        let embedded = embed(&original, format, &p).unwrap();
        assert!(
            matches!(extract(&embedded, format), Err(Error::Tampered(_))),
            "{:?}",
            p.guard
        );
    }
    let mut many = sample(format);
    many.guard = vec![many.guard[0].clone(); GuardRefusal::MAX + 1];
    let embedded = embed(&original, format, &many).unwrap();
    assert!(matches!(
        extract(&embedded, format),
        Err(Error::Tampered(_))
    ));
    // The summary counts them.
    let summary = Summary::of(&sample(format), 10);
    assert_eq!(summary.guard_refusals, 1);
    assert!(
        summary
            .line()
            .ends_with(", 1 attempt the run-time guard refused.")
    );
}

#[test]
fn a_rerun_plan_runs_each_name_once_per_figures_folder() {
    use folder::{Planned, plan_reruns};
    let src = tempfile::tempdir().unwrap();
    let (one, two) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    // `overview.png` made `overview-2.png` too (the folder's index says so); a copy of its
    // record sits in a second figures folder; `notes.png` carries overview's record.
    let main = sample(FigureFormat::Png);
    let mut extra = main.clone();
    extra.file = "overview-2.png".into();
    for file in ["overview.png", "overview-2.png", "notes.png"] {
        std::fs::write(one.path().join(file), b"x").unwrap();
    }
    crate::pipeline::figures::ownership::Ownership::lock(one.path())
        .unwrap()
        .set_extras("overview", vec!["overview-2.png".into()])
        .unwrap();
    let files = [
        one.path().join("overview.png"),
        one.path().join("overview-2.png"),
        two.path().join("overview.png"),
        one.path().join("notes.png"),
        one.path().join("not a name?.png"),
        // The same file twice (a history may list it twice): one run.
        one.path().join("notes.png"),
    ];
    let records = [&main, &extra, &main, &main, &main, &main];
    let folders = [
        one.path(),
        one.path(),
        two.path(),
        one.path(),
        one.path(),
        one.path(),
    ];
    let plan = plan_reruns(
        files
            .iter()
            .zip(records)
            .zip(folders)
            .map(|((f, p), d)| (f.as_path(), p, d)),
        src.path(),
        Limits::default(),
    );
    let shown: Vec<String> = plan
        .iter()
        .map(|planned| match planned {
            Planned::Run(r) => format!("run {} in {}", r.request.name, r.request.figures.display()),
            Planned::WithItsRun(r) => format!("with {}", r.request.name),
            Planned::Refused(_) => "refused".into(),
        })
        .collect();
    let (a, b) = (one.path().display(), two.path().display());
    assert_eq!(
        shown,
        [
            format!("run overview in {a}"),
            "with overview".into(),
            format!("run overview in {b}"),
            format!("run notes in {a}"),
            "refused".into(),
            "with notes".into(),
        ]
    );
    // What the plan says of each is what `rerun_of` says of the file alone.
    assert!(
        plan[1]
            .rerun()
            .unwrap()
            .note
            .as_deref()
            .unwrap()
            .contains("extra figure")
    );
    assert!(
        plan[3]
            .rerun()
            .unwrap()
            .note
            .as_deref()
            .unwrap()
            .contains("re-run as `notes`")
    );
    let Planned::Refused(why) = &plan[4] else {
        unreachable!()
    };
    assert!(why.to_string().contains("rename the file first"), "{why}");
    assert!(plan[4].rerun().is_none());
}
