//! A figure's size in pixels, read from its header without decoding it: PNG's `IHDR`,
//! JPEG's start-of-frame, SVG's root `width`/`height` (or `viewBox`), PDF's `MediaBox`es.
//! The code could save a figure a viewer cannot open — 40,000 × 40,000 px compresses to
//! 195 KB and decodes to 1.6 gigapixels (issue #40) — so the host refuses any figure above
//! [`MAX_SIDE`] a side or [`MAX_PIXELS`] in all, before it is kept.
//!
//! Every reader here is total: truncated, malformed or hostile bytes give `None` or a
//! refusal, never a panic or an unbounded scan.

use super::format::FigureFormat;

/// Most pixels a side of a kept figure may have.
pub const MAX_SIDE: f64 = 20_000.0;
/// Most pixels a kept figure may have in all (100 megapixels).
pub const MAX_PIXELS: f64 = 100_000_000.0;

/// CSS pixels per unit: SVG lengths and PDF points are measured as a browser shows them
/// (96 px to the inch).
const PX_PER_PT: f64 = 96.0 / 72.0;

/// Why the figure is too large to keep, or `None` when its size is within the limits (or
/// its header names none: an SVG without a size is drawn at the viewer's default size).
pub fn problem(format: FigureFormat, bytes: &[u8]) -> Option<String> {
    let size = match format {
        FigureFormat::Png => png(bytes),
        FigureFormat::Jpeg => jpeg(bytes),
        FigureFormat::Svg => svg(bytes),
        FigureFormat::Pdf => match pdf(bytes) {
            Ok(size) => size,
            Err(why) => return Some(why.to_string()),
        },
    };
    let (width, height) = size?;
    let too_large = !(width.is_finite() && height.is_finite())
        || width > MAX_SIDE
        || height > MAX_SIDE
        || width * height > MAX_PIXELS;
    too_large.then(|| {
        format!(
            "the saved figure is {} × {} pixels, too large for a viewer to open (at most \
             {} pixels a side and {} megapixels): lower the dpi or the figure size",
            shown(width),
            shown(height),
            shown(MAX_SIDE),
            shown(MAX_PIXELS / 1e6)
        )
    })
}

/// A size for a sentence: whole pixels, or "more than 10^15" for absurd ones.
fn shown(value: f64) -> String {
    if value.is_finite() && value < 1e15 {
        format!("{}", value.round() as u64)
    } else {
        "more than 10^15".to_owned()
    }
}

/// PNG: width and height are the first two big-endian words of `IHDR`, the first chunk.
fn png(bytes: &[u8]) -> Option<(f64, f64)> {
    if !super::format::is_png(bytes) {
        return None;
    }
    let word = |at: usize| -> Option<f64> {
        let b: [u8; 4] = bytes.get(at..at + 4)?.try_into().ok()?;
        Some(f64::from(u32::from_be_bytes(b)))
    };
    Some((word(16)?, word(20)?))
}

/// JPEG: the first start-of-frame segment (`FFC0`–`FFCF` except `C4`, `C8`, `CC`) holds
/// height then width. Segments are walked by their lengths, never searched for.
fn jpeg(bytes: &[u8]) -> Option<(f64, f64)> {
    let mut at = 2; // after SOI
    loop {
        // Fill bytes (0xFF repeated) may precede a marker.
        while bytes.get(at) == Some(&0xFF) && bytes.get(at + 1) == Some(&0xFF) {
            at += 1;
        }
        if *bytes.get(at)? != 0xFF {
            return None;
        }
        let marker = *bytes.get(at + 1)?;
        let length = usize::from(u16::from_be_bytes([
            *bytes.get(at + 2)?,
            *bytes.get(at + 3)?,
        ]));
        let is_frame = (0xC0..=0xCF).contains(&marker) && ![0xC4, 0xC8, 0xCC].contains(&marker);
        if is_frame {
            let height = u16::from_be_bytes([*bytes.get(at + 5)?, *bytes.get(at + 6)?]);
            let width = u16::from_be_bytes([*bytes.get(at + 7)?, *bytes.get(at + 8)?]);
            return Some((f64::from(width), f64::from(height)));
        }
        if marker == 0xDA || length < 2 {
            return None; // scan data before any frame header: no size to read
        }
        at = at.checked_add(2 + length)?;
    }
}

/// SVG: the largest `<svg>` element's `width` and `height` in CSS pixels; a missing or
/// relative one (`%`) falls back on its `viewBox`'s, in user units (= px at scale 1). Every
/// `<svg` start tag counts, the root and any nested or commented-out one, so none can hide
/// a huge size behind a small decoy.
fn svg(bytes: &[u8]) -> Option<(f64, f64)> {
    let text = std::str::from_utf8(bytes).ok()?;
    svg_elements(text)
        .filter_map(svg_element_size)
        .reduce(|(w1, h1), (w2, h2)| (w1.max(w2), h1.max(h2)))
}

/// The attribute text of each `<svg …>` start tag.
fn svg_elements(text: &str) -> impl Iterator<Item = &str> {
    text.match_indices("<svg").filter_map(move |(at, _)| {
        let rest = &text[at + "<svg".len()..];
        let first = rest.chars().next()?;
        if !(first.is_whitespace() || first == '>' || first == '/') {
            return None; // `<svgfoo`: another element
        }
        rest.find('>').map(|end| &rest[..end])
    })
}

fn svg_element_size(attrs: &str) -> Option<(f64, f64)> {
    let view_box = attribute(attrs, "viewBox").and_then(|v| {
        let numbers: Vec<f64> = v
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|s| !s.is_empty())
            .map(|s| s.parse::<f64>().ok())
            .collect::<Option<_>>()?;
        match numbers[..] {
            [_, _, w, h] => Some((w.abs(), h.abs())),
            _ => None,
        }
    });
    let width = attribute(attrs, "width").and_then(css_length);
    let height = attribute(attrs, "height").and_then(css_length);
    match (width, height, view_box) {
        (Some(w), Some(h), _) => Some((w, h)),
        (Some(w), None, Some((vw, vh))) if vw > 0.0 => Some((w, w * vh / vw)),
        (None, Some(h), Some((vw, vh))) if vh > 0.0 => Some((h * vw / vh, h)),
        (_, _, Some(size)) => Some(size),
        _ => None,
    }
}

/// The value of `name="…"` (or `'…'`) among `attrs`, matched as a whole attribute name.
fn attribute<'a>(attrs: &'a str, name: &str) -> Option<&'a str> {
    let mut search = attrs;
    while let Some(at) = search.find(name) {
        let before_ok = search[..at]
            .chars()
            .next_back()
            .is_none_or(char::is_whitespace);
        let after = search[at + name.len()..].trim_start();
        if before_ok && let Some(value) = after.strip_prefix('=') {
            let value = value.trim_start();
            let quote = value.chars().next()?;
            if quote == '"' || quote == '\'' {
                let inner = &value[1..];
                return inner.find(quote).map(|end| &inner[..end]);
            }
        }
        search = &search[at + name.len()..];
    }
    None
}

/// A CSS length in px (`460.8pt`, `12in`, `300`, `1e6px`); `None` for `%`, `auto` or junk.
fn css_length(value: &str) -> Option<f64> {
    let value = value.trim();
    let units: [(&str, f64); 8] = [
        ("px", 1.0),
        ("pt", PX_PER_PT),
        ("pc", 16.0),
        ("in", 96.0),
        ("cm", 96.0 / 2.54),
        ("mm", 96.0 / 25.4),
        ("em", 16.0),
        ("ex", 8.0),
    ];
    for (unit, scale) in units {
        if let Some(number) = value.strip_suffix(unit) {
            return number.trim().parse::<f64>().ok().map(|n| n.abs() * scale);
        }
    }
    value.parse::<f64>().ok().map(f64::abs)
}

/// A PDF whose page size is not written the way this module reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the PDF document's page size could not be read (a `/MediaBox` array on each page)")]
struct PdfSizeUnreadable;

/// PDF: the largest page, from every `/MediaBox [x0 y0 x1 y1]` outside streams, in CSS
/// pixels, scaled by the largest `/UserUnit`. A PDF whose page size cannot be read this way
/// (no `MediaBox`, or one given by reference) is refused: matplotlib always writes it inline.
fn pdf(bytes: &[u8]) -> Result<Option<(f64, f64)>, PdfSizeUnreadable> {
    let unreadable = || PdfSizeUnreadable;
    let outside = super::format::outside_streams(bytes);
    let mut largest: Option<(f64, f64)> = None;
    for at in find_all(&outside, b"/MediaBox") {
        let numbers =
            numbers_in_array(&outside[at + b"/MediaBox".len()..]).ok_or_else(unreadable)?;
        let [x0, y0, x1, y1] = numbers[..] else {
            return Err(unreadable());
        };
        let (w, h) = ((x1 - x0).abs(), (y1 - y0).abs());
        largest = Some(match largest {
            Some((lw, lh)) => (lw.max(w), lh.max(h)),
            None => (w, h),
        });
    }
    let (w, h) = largest.ok_or_else(unreadable)?;
    let mut unit: f64 = 1.0;
    for at in find_all(&outside, b"/UserUnit") {
        let value = number_after(&outside[at + b"/UserUnit".len()..]).ok_or_else(unreadable)?;
        unit = unit.max(value.abs());
    }
    Ok(Some((w * unit * PX_PER_PT, h * unit * PX_PER_PT)))
}

/// Where `needle` starts in `haystack`, each time.
fn find_all<'a>(haystack: &'a [u8], needle: &'a [u8]) -> impl Iterator<Item = usize> + 'a {
    haystack
        .windows(needle.len())
        .enumerate()
        .filter(move |(_, w)| *w == needle)
        .map(|(i, _)| i)
}

/// The numbers of the array `[ … ]` that `rest` starts with (after white space), at most 8.
fn numbers_in_array(rest: &[u8]) -> Option<Vec<f64>> {
    let rest = trim_start(rest);
    let rest = rest.strip_prefix(b"[")?;
    let end = rest.iter().take(256).position(|b| *b == b']')?;
    let inner = std::str::from_utf8(&rest[..end]).ok()?;
    let numbers: Vec<f64> = inner
        .split_ascii_whitespace()
        .map(|n| n.parse::<f64>().ok())
        .collect::<Option<_>>()?;
    (numbers.len() <= 8).then_some(numbers)
}

/// The number `rest` starts with (after white space).
fn number_after(rest: &[u8]) -> Option<f64> {
    let rest = trim_start(rest);
    let end = rest
        .iter()
        .take(64)
        .position(|b| !(b.is_ascii_digit() || matches!(b, b'.' | b'-' | b'+')))
        .unwrap_or(rest.len().min(64));
    std::str::from_utf8(&rest[..end]).ok()?.parse().ok()
}

fn trim_start(bytes: &[u8]) -> &[u8] {
    let skip = bytes
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(bytes.len());
    &bytes[skip..]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn png_of(width: u32, height: u32) -> Vec<u8> {
        let mut bytes = b"\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR".to_vec();
        bytes.extend_from_slice(&width.to_be_bytes());
        bytes.extend_from_slice(&height.to_be_bytes());
        bytes.extend_from_slice(&[8, 6, 0, 0, 0, 0, 0, 0, 0]);
        bytes
    }

    #[test]
    fn a_png_is_measured_from_its_header() {
        assert_eq!(png(&png_of(640, 480)), Some((640.0, 480.0)));
        assert_eq!(problem(FigureFormat::Png, &png_of(640, 480)), None);
        assert_eq!(problem(FigureFormat::Png, &png_of(20_000, 5_000)), None);
        let refused = problem(FigureFormat::Png, &png_of(40_000, 40_000)).unwrap();
        assert!(refused.contains("40000 × 40000 pixels"), "{refused}");
        assert!(refused.contains("lower the dpi"), "{refused}");
        // Each side within the limit, the total not.
        assert!(problem(FigureFormat::Png, &png_of(15_000, 15_000)).is_some());
        assert!(problem(FigureFormat::Png, &png_of(20_001, 10)).is_some());
        assert!(problem(FigureFormat::Png, &png_of(u32::MAX, u32::MAX)).is_some());
    }

    #[test]
    fn an_svg_is_measured_from_its_root_element() {
        let svg_of = |attrs: &str| format!("<?xml version=\"1.0\"?>\n<svg {attrs}>\n</svg>");
        let size = |attrs: &str| svg(svg_of(attrs).as_bytes());
        assert_eq!(
            size(
                r#"width="460.8pt" height="345.6pt" viewBox="0 0 460.8 345.6" xmlns="http://www.w3.org/2000/svg""#
            ),
            Some((614.4, 460.8))
        );
        assert_eq!(
            size(r#"viewBox="0 0 100000 100000""#),
            Some((100_000.0, 100_000.0))
        );
        assert_eq!(
            size(r#"width="100%" height="100%" viewBox="0,0,300,200""#),
            Some((300.0, 200.0))
        );
        assert_eq!(
            size(r#"width="10in" viewBox="0 0 2 1""#),
            Some((960.0, 480.0))
        );
        assert_eq!(size(r#"stroke-width="5" data-height="9""#), None);
        assert_eq!(size(""), None);
        // A small decoy first does not hide a huge element after it.
        let decoy = format!(
            "<!-- <svg width=\"10\" height=\"10\"> -->{}",
            svg_of(r#"width="1e6" height="10""#)
        );
        assert_eq!(svg(decoy.as_bytes()), Some((1e6, 10.0)));
        assert_eq!(svg(b"<svgfoo width=\"1e9\" height=\"1e9\">"), None);
        let huge = svg_of(r#"width="1e9" height="1e9""#);
        assert!(problem(FigureFormat::Svg, huge.as_bytes()).is_some());
        let fine = svg_of(r#"width="460.8pt" height="345.6pt""#);
        assert_eq!(problem(FigureFormat::Svg, fine.as_bytes()), None);
    }

    #[test]
    fn a_pdf_is_measured_from_its_largest_media_box() {
        let pdf_of = |boxes: &str| {
            format!(
                "%PDF-1.4\n1 0 obj << /Type /Page {boxes} >> endobj\nstream\n/MediaBox [0 0 1e9 1e9]\nendstream\n%%EOF\n"
            )
        };
        let size = |boxes: &str| pdf(pdf_of(boxes).as_bytes());
        // Stream data is not read: only the page dictionaries count.
        assert_eq!(size("/MediaBox [ 0 0 72 36 ]"), Ok(Some((96.0, 48.0))));
        assert_eq!(
            size("/MediaBox [0 0 72 36] /MediaBox [0 0 144 18]"),
            Ok(Some((192.0, 48.0)))
        );
        assert_eq!(
            size("/MediaBox [0 0 72 72] /UserUnit 10"),
            Ok(Some((960.0, 960.0)))
        );
        assert!(size("/MediaBox 5 0 R").is_err());
        assert!(size("").is_err());
        assert!(size("/MediaBox [0 0 72]").is_err());
        let huge = pdf_of("/MediaBox [0 0 30000 30000]");
        assert!(problem(FigureFormat::Pdf, huge.as_bytes()).is_some());
        let fine = pdf_of("/MediaBox [ 0 0 460.8 345.6 ]");
        assert_eq!(problem(FigureFormat::Pdf, fine.as_bytes()), None);
    }

    #[test]
    fn a_jpeg_is_measured_from_its_frame_header() {
        let mut jpeg_bytes = vec![0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x04, 0x00, 0x00];
        jpeg_bytes.extend_from_slice(&[0xFF, 0xC0, 0x00, 0x11, 8, 0x9C, 0x40, 0x9C, 0x40]);
        jpeg_bytes.extend_from_slice(&[0xFF, 0xD9]);
        assert_eq!(jpeg(&jpeg_bytes), Some((40_000.0, 40_000.0)));
        assert!(problem(FigureFormat::Jpeg, &jpeg_bytes).is_some());
    }

    /// Truncated and hostile headers never panic: every prefix of each valid header, and
    /// bytes of every value at every position of a short one.
    #[test]
    fn malformed_headers_never_panic() {
        let samples: Vec<(FigureFormat, Vec<u8>)> = vec![
            (FigureFormat::Png, png_of(640, 480)),
            (
                FigureFormat::Jpeg,
                vec![
                    0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x11, 8, 0x01, 0x00, 0x02, 0x00, 0xFF, 0xD9,
                ],
            ),
            (
                FigureFormat::Svg,
                br#"<svg width="4e2pt" height='3e2' viewBox="0 0 4 3">"#.to_vec(),
            ),
            (
                FigureFormat::Pdf,
                b"%PDF-1.4 /MediaBox [0 0 1 1] /UserUnit 2 stream x endstream %%EOF".to_vec(),
            ),
        ];
        for (format, bytes) in &samples {
            for end in 0..=bytes.len() {
                let _ = problem(*format, &bytes[..end]);
            }
            for at in 0..bytes.len().min(40) {
                for value in [0u8, 0x20, 0x22, 0x27, 0x3E, 0x5B, 0x5D, 0xFF] {
                    let mut bent = bytes.clone();
                    bent[at] = value;
                    let _ = problem(*format, &bent);
                }
            }
        }
        for junk in [
            &b""[..],
            b"<svg",
            b"<svg width=",
            b"<svg width=\"",
            b"/MediaBox [",
            b"\xff\xd8\xff\xff\xff",
        ] {
            for format in [
                FigureFormat::Png,
                FigureFormat::Svg,
                FigureFormat::Pdf,
                FigureFormat::Jpeg,
            ] {
                let _ = problem(format, junk);
            }
        }
    }
}
