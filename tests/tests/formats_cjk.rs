//! Chinese labels render with real glyphs: the runtime bundles Droid Sans Fallback
//! (Apache-2.0) in matplotlib's mpl-data and its matplotlibrc puts it after the generic
//! family, so Latin text keeps DejaVu Sans and CJK falls back — from the prebuilt font
//! cache, with no rebuild at run time.

#![cfg(target_os = "linux")]

mod security_support;

use security_support::Sandbox;

const TITLE: &str = "plt.plot([0, 1, 2], [0, 1, 4])\nplt.title('磁场扫描 B (T)')\nplt.xlabel('时间 / s')\nplt.savefig(OUT)\n";

#[test]
fn a_chinese_title_embeds_the_cjk_font_and_warns_of_no_missing_glyph() {
    let sb = Sandbox::new("cjk-pdf");
    let run = sb.make_figure("cjk", TITLE, &["--format", "pdf"]);
    assert_eq!(run.exit_code(), Some(0), "{}", run.json);
    let tail = run.json["stderr_tail"].as_str().unwrap_or_default();
    assert!(
        !tail.contains("missing from font"),
        "matplotlib drew tofu: {tail}"
    );
    let pdf = std::fs::read(sb.figures.join("cjk.pdf")).unwrap();
    let has = |needle: &[u8]| pdf.windows(needle.len()).any(|w| w == needle);
    assert!(
        has(b"DroidSansFallback"),
        "the CJK font is not embedded in the PDF"
    );
    assert!(has(b"DejaVuSans"), "Latin text no longer uses DejaVu Sans");

    let run = sb.make_figure("cjk", TITLE, &[]);
    assert_eq!(run.exit_code(), Some(0), "{}", run.json);
    let tail = run.json["stderr_tail"].as_str().unwrap_or_default();
    assert!(!tail.contains("missing from font"), "{tail}");
}

#[test]
fn cjk_text_uses_the_prebuilt_font_cache_unchanged() {
    let sb = Sandbox::new("cjk-cache");
    // Run in the real worker (Layer 1 bypassed, to look at the runtime and the run
    // directory): draw CJK text, then compare the run's font cache with the runtime's.
    let code = r#"
import os, sys, json
import matplotlib.font_manager as fm
fig, ax = plt.subplots()
ax.set_title('磁场扫描')
fig.savefig('cjk.png')
name = f"fontlist-v{fm.FontManager.__version__}.json"
prebuilt = open(os.path.join(sys.prefix, 'mplconfig', name), 'rb').read()
used = open(os.path.join(os.environ['MPLCONFIGDIR'], name), 'rb').read()
droid = [e['fname'] for e in json.loads(prebuilt)['ttflist'] if 'DroidSansFallback' in e['fname']]
print('droid', droid)
print('cache unchanged', used == prebuilt)
print('found', fm.findfont('Droid Sans Fallback', fallback_to_default=False))
"#;
    let run = sb.worker(code);
    assert!(run.status.success(), "{}", run.output());
    let out = run.stdout();
    assert!(
        out.contains("droid ['fonts/ttf/DroidSansFallbackFull.ttf']"),
        "the prebuilt cache does not list the CJK font by a relative path: {out}"
    );
    assert!(out.contains("cache unchanged True"), "{}", run.output());
    assert!(out.contains("DroidSansFallbackFull.ttf"), "{out}");
    assert!(
        !run.stderr().contains("missing from font"),
        "{}",
        run.stderr()
    );
}
