//! Vector figures through the real pipeline: `--format svg|pdf` saves `figures/NAME.svg` /
//! `NAME.pdf` after checking the file; PNG stays the default; an SVG that would run script
//! or fetch from the network in the app's webview is refused and never saved.

#![cfg(target_os = "linux")]

mod security_support;

use security_support::Sandbox;

const PLOT: &str = "plt.plot([1, 2, 3], [1, 4, 9])\nplt.title('sweep')\nplt.savefig(OUT)\n";

/// Every name in the figures folder but the lock every run takes (temporary files count).
fn figure_names(sb: &Sandbox) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(&sb.figures)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != ".pdfagent-groups.lock")
        .collect();
    names.sort();
    names
}

#[test]
fn png_is_the_default_and_svg_and_pdf_are_saved_as_asked() {
    let sb = Sandbox::new("formats");
    let run = sb.make_figure("default", PLOT, &[]);
    assert_eq!(run.exit_code(), Some(0), "{}", run.json);
    let png_path = sb.figures.join("default.png");
    assert_eq!(run.json["figure"], png_path.to_str().unwrap());
    assert!(
        std::fs::read(&png_path)
            .unwrap()
            .starts_with(b"\x89PNG\r\n\x1a\n")
    );

    let run = sb.make_figure("vector", PLOT, &["--format", "svg"]);
    assert_eq!(run.exit_code(), Some(0), "{}", run.json);
    let svg_path = sb.figures.join("vector.svg");
    assert_eq!(run.json["figure"], svg_path.to_str().unwrap());
    let svg = std::fs::read_to_string(&svg_path).unwrap();
    assert!(svg.contains("<svg") && svg.trim_end().ends_with("</svg>"));
    assert_eq!(run.json["bytes"], svg.len() as u64);

    let run = sb.make_figure("print", PLOT, &["--format", "pdf"]);
    assert_eq!(run.exit_code(), Some(0), "{}", run.json);
    let pdf = std::fs::read(sb.figures.join("print.pdf")).unwrap();
    assert!(pdf.starts_with(b"%PDF-"));
    assert!(pdf[pdf.len() - 32..].windows(5).any(|w| w == b"%%EOF"));

    assert_eq!(
        figure_names(&sb),
        ["default.png", "print.pdf", "vector.svg"]
    );
}

#[test]
fn a_file_of_another_format_is_refused() {
    let sb = Sandbox::new("formats-wrong");
    let run = sb.make_figure(
        "fig",
        "plt.plot([1, 2])\nplt.savefig(OUT, format='png')\n",
        &["--format", "svg"],
    );
    assert_eq!(run.exit_code(), Some(2), "{}", run.json);
    assert_eq!(run.stage(), "no-output");
    let hint = run.json["hint"].as_str().unwrap();
    assert!(
        hint.contains("svg figure") && hint.contains("plt.savefig(OUT)"),
        "{hint}"
    );
    assert!(figure_names(&sb).is_empty());
}

#[test]
fn an_unknown_format_is_a_bad_argument() {
    let sb = Sandbox::new("formats-bad");
    let code = sb.inputs().join("fig.py");
    std::fs::write(&code, PLOT).unwrap();
    let out = blackbox::run(
        blackbox::pdfagent()
            .args(["make-figure", "--name", "fig", "--format", "jpg", "--json"])
            .arg("--src")
            .arg(&sb.src)
            .arg("--figures")
            .arg(&sb.figures)
            .arg("--code")
            .arg(&code),
    );
    assert_eq!(out.status.code(), Some(4), "{out:?}");
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("png, svg or pdf")
            || String::from_utf8_lossy(&out.stderr).contains("png, svg or pdf"),
        "{out:?}"
    );
    assert!(figure_names(&sb).is_empty());
}

#[test]
fn an_svg_with_script_written_by_the_code_is_refused_and_not_saved() {
    let sb = Sandbox::new("formats-svg-script");
    // The code cannot open files, but numpy writes text anywhere it may: OUT included.
    let code = "np.savetxt(OUT, [], comments='', header='<svg xmlns=\"http://www.w3.org/2000/svg\"><script>alert(document.cookie)</script></svg>')\n";
    let run = sb.make_figure("evil", code, &["--format", "svg"]);
    assert_eq!(run.exit_code(), Some(2), "{}", run.json);
    assert_eq!(run.stage(), "no-output");
    let hint = run.json["hint"].as_str().unwrap();
    assert!(hint.contains("<script>"), "{hint}");
    assert!(figure_names(&sb).is_empty(), "the SVG was saved");
}

#[test]
fn a_matplotlib_svg_with_a_javascript_link_is_refused() {
    let sb = Sandbox::new("formats-svg-url");
    // Artist.set_url makes matplotlib wrap the artist in <a xlink:href="...">.
    let code =
        "line, = plt.plot([1, 2, 3])\nline.set_url('javascript:alert(1)')\nplt.savefig(OUT)\n";
    let run = sb.make_figure("evil", code, &["--format", "svg"]);
    assert_eq!(run.exit_code(), Some(2), "{}", run.json);
    let hint = run.json["hint"].as_str().unwrap();
    assert!(
        hint.contains("javascript:alert(1)") && hint.contains("href"),
        "{hint}"
    );
    assert!(figure_names(&sb).is_empty(), "the SVG was saved");
    // The same figure with an in-document link is fine.
    let code = "line, = plt.plot([1, 2, 3])\nline.set_url('#top')\nplt.savefig(OUT)\n";
    let run = sb.make_figure("fine", code, &["--format", "svg"]);
    assert_eq!(run.exit_code(), Some(0), "{}", run.json);
}
