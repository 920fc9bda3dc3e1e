//! Figures a viewer can open (issue #40, item 4): the code — Layer 1 bypassed — saves a
//! figure whose header claims far too many pixels (a 40,000 × 40,000 px PNG that compresses
//! to a few hundred KB, an SVG 10^9 px wide, a PDF page 30,000 points square); the host
//! (`internal-collect-run`, exactly what a run does after its worker exits) refuses it with a
//! sentence and keeps nothing. A figure of ordinary size beside them is kept (the check can
//! pass).

mod security_support;

use security_support::Sandbox;

/// Keep what the worker left in `sb.run` as a `format` figure called `name`.
fn collect(sb: &Sandbox, name: &str, format: &str) -> serde_json::Value {
    let out = blackbox::run(
        blackbox::pdfagent()
            .arg("internal-collect-run")
            .arg("--run-dir")
            .arg(&sb.run)
            .arg("--figures")
            .arg(&sb.figures)
            .arg("--name")
            .arg(name)
            .arg("--format")
            .arg(format),
    );
    assert!(
        out.status.success(),
        "internal-collect-run failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("internal-collect-run prints JSON")
}

/// The worker writes `body` (Python producing `data: bytes`) to `out.EXT` in its run
/// directory; the host collects it.
fn saved(tag: &str, ext: &str, body: &str) -> (Sandbox, serde_json::Value, String) {
    let sb = Sandbox::new(tag);
    let code = format!(
        "import os, struct, zlib\n\
         {body}\n\
         with open(os.path.join(os.path.dirname(OUT), 'out.{ext}'), 'wb') as f:\n\
         \x20   f.write(data)\n\
         print('SAVED', len(data), flush=True)\n"
    );
    let run = sb.worker(&code);
    assert!(run.stdout().contains("SAVED"), "{}", run.output());
    let kept = collect(&sb, "big", ext);
    (sb, kept, run.output())
}

/// A valid, grey, 1-bit PNG of `side` × `side` pixels, compressed row by row.
fn png_code(side: u32) -> String {
    format!(
        "side = {side}\n\
         def chunk(kind, payload):\n\
         \x20   return struct.pack('>I', len(payload)) + kind + payload + struct.pack('>I', zlib.crc32(kind + payload))\n\
         z = zlib.compressobj(9)\n\
         row = b'\\x00' * (1 + (side + 7) // 8)\n\
         idat = b''.join(z.compress(row) for _ in range(side)) + z.flush()\n\
         data = (b'\\x89PNG\\r\\n\\x1a\\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', side, side, 1, 0, 0, 0, 0))\n\
         \x20   + chunk(b'IDAT', idat) + chunk(b'IEND', b''))\n"
    )
}

const SENTENCE: &str = "too large for a viewer to open";

fn assert_refused(sb: &Sandbox, kept: &serde_json::Value, output: &str, what: &str) {
    assert_eq!(kept["ok"], false, "{what}: {kept}\n{output}");
    assert!(
        kept.to_string().contains(SENTENCE),
        "{what}: no sentence saying why: {kept}"
    );
    assert!(
        sb.figure_files().is_empty(),
        "{what}: kept {:?}",
        sb.figure_files()
    );
}

#[test]
fn a_40000_px_square_png_is_refused_and_not_kept() {
    let (sb, kept, output) = saved("size-png", "png", &png_code(40_000));
    // Small on disk: the danger is what a viewer decodes, not the bytes.
    let size = output
        .split_whitespace()
        .skip_while(|w| *w != "SAVED")
        .nth(1)
        .and_then(|n| n.parse::<u64>().ok())
        .expect("the PNG's size");
    assert!(size < 2 << 20, "the PNG is {size} bytes");
    assert_refused(&sb, &kept, &output, "40,000 px PNG");
    assert!(kept.to_string().contains("40000 × 40000 pixels"), "{kept}");
}

#[test]
fn an_ordinary_png_written_the_same_way_is_kept() {
    let (sb, kept, output) = saved("size-png-ok", "png", &png_code(800));
    assert_eq!(kept["ok"], true, "{kept}\n{output}");
    assert_eq!(sb.figure_files(), ["big.png"]);
}

#[test]
fn an_svg_with_a_huge_width_and_height_is_refused_and_not_kept() {
    let body = "data = (b'<?xml version=\"1.0\" encoding=\"utf-8\"?>\\n'\n\
                \x20   b'<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1000000000pt\" height=\"1000000000pt\" viewBox=\"0 0 10 10\">'\n\
                \x20   b'<rect width=\"10\" height=\"10\" fill=\"#ccc\"/></svg>\\n')";
    let (sb, kept, output) = saved("size-svg", "svg", body);
    assert_refused(&sb, &kept, &output, "huge SVG");
}

#[test]
fn a_pdf_with_a_huge_media_box_is_refused_and_not_kept() {
    let body = "data = (b'%PDF-1.4\\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\\n'\n\
                \x20   b'2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj\\n'\n\
                \x20   b'3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [ 0 0 30000 30000 ] >> endobj\\n'\n\
                \x20   b'trailer << /Root 1 0 R >>\\n%%EOF\\n')";
    let (sb, kept, output) = saved("size-pdf", "pdf", body);
    assert_refused(&sb, &kept, &output, "huge PDF");
}
