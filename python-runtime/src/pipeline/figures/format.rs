//! The figure's file format, chosen by the caller (`FigureRequest::format`): what `OUT` is
//! called, what the saved file is called, and how its bytes are checked before we keep them.
//!
//! PNG and PDF are checked by signature. SVG is text that the app's webview and the user's
//! browser will render, so it is also scanned for anything that runs or fetches (see
//! [`super::svg`]); PDF likewise for actions and JavaScript outside its streams.

use serde::{Deserialize, Serialize};

/// The 8-byte PNG signature, followed in every PNG by the `IHDR` chunk.
const PNG_SIGNATURE: &[u8; 8] = b"\x89PNG\r\n\x1a\n";

/// How a figure is saved. PNG is the default. A caller asks for PNG, SVG or PDF
/// ([`FigureFormat::ALL`]); JPEG is only kept when the code itself saved one
/// (`plt.savefig('photo.jpg')`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "lowercase")]
pub enum FigureFormat {
    #[default]
    Png,
    Svg,
    Pdf,
    #[serde(rename = "jpg")]
    Jpeg,
}

impl FigureFormat {
    /// The formats a caller can ask for.
    pub const ALL: [FigureFormat; 3] = [FigureFormat::Png, FigureFormat::Svg, FigureFormat::Pdf];

    /// The file extension without the dot (`png`), also the command-line and JSON spelling.
    pub fn extension(self) -> &'static str {
        match self {
            FigureFormat::Png => "png",
            FigureFormat::Svg => "svg",
            FigureFormat::Pdf => "pdf",
            FigureFormat::Jpeg => "jpg",
        }
    }

    /// The format of a figure file by its extension (`png`, `svg`, `pdf`, `jpg`/`jpeg`):
    /// the one place that tells a figure file from any other file.
    pub fn of_path(path: &std::path::Path) -> Option<FigureFormat> {
        match path.extension()?.to_str()?.to_ascii_lowercase().as_str() {
            "png" => Some(FigureFormat::Png),
            "svg" => Some(FigureFormat::Svg),
            "pdf" => Some(FigureFormat::Pdf),
            "jpg" | "jpeg" => Some(FigureFormat::Jpeg),
            _ => None,
        }
    }

    /// Whether clients can show it as an image (PNG, JPEG), not a document (SVG, PDF).
    pub fn is_raster(self) -> bool {
        matches!(self, FigureFormat::Png | FigureFormat::Jpeg)
    }

    /// The MIME type of the file.
    pub fn mime(self) -> &'static str {
        match self {
            FigureFormat::Png => "image/png",
            FigureFormat::Svg => "image/svg+xml",
            FigureFormat::Pdf => "application/pdf",
            FigureFormat::Jpeg => "image/jpeg",
        }
    }

    /// The name of `OUT` inside the run directory: matplotlib picks the format from it.
    pub fn out_name(self) -> &'static str {
        match self {
            FigureFormat::Png => "out.png",
            FigureFormat::Svg => "out.svg",
            FigureFormat::Pdf => "out.pdf",
            FigureFormat::Jpeg => "out.jpg",
        }
    }

    /// Why `bytes` are not a figure of this format we keep, or `None` when they are.
    pub fn problem(self, bytes: &[u8]) -> Option<String> {
        match self {
            FigureFormat::Png => (!is_png(bytes)).then(|| "it is not a PNG image".to_owned()),
            FigureFormat::Pdf => pdf_problem(bytes),
            FigureFormat::Svg => super::svg::problem(bytes),
            FigureFormat::Jpeg => (!is_jpeg(bytes)).then(|| "it is not a JPEG image".to_owned()),
        }
    }
}

impl std::fmt::Display for FigureFormat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.extension())
    }
}

/// An unknown format name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown figure format `{0}`: use png, svg or pdf")]
pub struct UnknownFormat(pub String);

impl std::str::FromStr for FigureFormat {
    type Err = UnknownFormat;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        FigureFormat::ALL
            .into_iter()
            .find(|f| {
                f.extension()
                    .eq_ignore_ascii_case(s.trim_start_matches('.'))
            })
            .ok_or_else(|| UnknownFormat(s.escape_debug().to_string()))
    }
}

/// A PNG starts with the signature and then the `IHDR` chunk.
pub fn is_png(bytes: &[u8]) -> bool {
    bytes.len() >= 16 && bytes.starts_with(PNG_SIGNATURE) && &bytes[12..16] == b"IHDR"
}

/// A JPEG starts with the start-of-image marker and a further marker, and ends with the
/// end-of-image marker.
pub fn is_jpeg(bytes: &[u8]) -> bool {
    bytes.len() >= 4 && bytes.starts_with(b"\xff\xd8\xff") && bytes.ends_with(b"\xff\xd9")
}

/// How far from the end `%%EOF` may be (trailing whitespace and junk some writers add).
const PDF_EOF_WINDOW: usize = 1024;

/// PDF name objects that make a viewer run, open or fetch something. matplotlib writes
/// none of them; they are looked for outside streams (stream data is compressed bytes).
const PDF_ACTIVE_NAMES: &[&[u8]] = &[
    b"JavaScript",
    b"JS",
    b"Launch",
    b"OpenAction",
    b"AA",
    b"URI",
    b"SubmitForm",
    b"ImportData",
    b"GoToR",
    b"GoToE",
    b"EmbeddedFile",
    b"EmbeddedFiles",
    b"RichMedia",
    b"XFA",
    b"ObjStm",
];

/// `%PDF-` at the start, `%%EOF` near the end, no active content outside streams.
/// Object streams (`/ObjStm`) are refused too: they would hide dictionaries from this scan.
fn pdf_problem(bytes: &[u8]) -> Option<String> {
    if !bytes.starts_with(b"%PDF-") {
        return Some("it is not a PDF document (no `%PDF-` header)".into());
    }
    let tail = &bytes[bytes.len().saturating_sub(PDF_EOF_WINDOW)..];
    if !contains(tail, b"%%EOF") {
        return Some("the PDF document is incomplete (no `%%EOF` at its end)".into());
    }
    let outside = strip_streams(bytes);
    pdf_names(&outside)
        .into_iter()
        .find(|name| PDF_ACTIVE_NAMES.contains(&name.as_slice()))
        .map(|name| {
            format!(
                "the PDF document contains `/{}`, which makes a viewer run or fetch something",
                String::from_utf8_lossy(&name)
            )
        })
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

fn find_from(haystack: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    haystack
        .get(from..)?
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|i| i + from)
}

/// The PDF without the data between `stream` and `endstream` (its dictionaries, for the
/// page-size reader in `dimensions.rs`).
pub(super) fn outside_streams(bytes: &[u8]) -> Vec<u8> {
    strip_streams(bytes)
}

/// The PDF without the data between `stream` and `endstream`.
fn strip_streams(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len().min(1 << 20));
    let mut pos = 0;
    while let Some(start) = find_from(bytes, b"stream", pos) {
        let is_end = start >= 3 && &bytes[start - 3..start] == b"end";
        let data = start + b"stream".len();
        out.extend_from_slice(&bytes[pos..data]);
        if is_end {
            pos = data;
            continue;
        }
        match find_from(bytes, b"endstream", data) {
            Some(end) => pos = end,
            None => return out,
        }
    }
    out.extend_from_slice(&bytes[pos..]);
    out
}

/// Every name object (`/Name`) in `bytes`, with `#xx` escapes decoded.
fn pdf_names(bytes: &[u8]) -> Vec<Vec<u8>> {
    let is_delim = |b: u8| b.is_ascii_whitespace() || b"()<>[]{}/%".contains(&b) || b == 0;
    let mut names = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'/' {
            i += 1;
            continue;
        }
        i += 1;
        let mut name = Vec::new();
        while i < bytes.len() && !is_delim(bytes[i]) {
            if bytes[i] == b'#' && i + 2 < bytes.len() {
                let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).ok();
                if let Some(v) = hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                    name.push(v);
                    i += 3;
                    continue;
                }
            }
            name.push(bytes[i]);
            i += 1;
        }
        names.push(name);
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    const TINY_PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0";

    #[test]
    fn names_parse_and_png_is_the_default() {
        assert_eq!(FigureFormat::default(), FigureFormat::Png);
        assert_eq!("svg".parse(), Ok(FigureFormat::Svg));
        assert_eq!("PDF".parse(), Ok(FigureFormat::Pdf));
        assert_eq!(".png".parse(), Ok(FigureFormat::Png));
        assert!("jpg".parse::<FigureFormat>().is_err());
        assert_eq!(
            serde_json::to_string(&FigureFormat::Svg).unwrap(),
            "\"svg\""
        );
        assert_eq!(
            serde_json::from_str::<FigureFormat>("\"pdf\"").unwrap(),
            FigureFormat::Pdf
        );
    }

    #[test]
    fn png_signature_and_ihdr_are_required() {
        assert!(is_png(TINY_PNG));
        assert!(!is_png(b"\x89PNG\r\n\x1a\n"));
        assert!(!is_png(b"GIF89a............"));
        let mut jpeg_like = TINY_PNG.to_vec();
        jpeg_like[12] = b'X';
        assert!(!is_png(&jpeg_like));
        assert!(FigureFormat::Png.problem(TINY_PNG).is_none());
        assert!(FigureFormat::Pdf.problem(TINY_PNG).is_some());
    }

    #[test]
    fn jpeg_is_kept_only_when_it_is_one_and_cannot_be_asked_for() {
        assert!(
            FigureFormat::Jpeg
                .problem(b"\xff\xd8\xff\xe0rest\xff\xd9")
                .is_none()
        );
        assert!(FigureFormat::Jpeg.problem(TINY_PNG).is_some());
        assert!(
            FigureFormat::Jpeg
                .problem(b"\xff\xd8\xff\xe0truncated")
                .is_some()
        );
        assert!(!FigureFormat::ALL.contains(&FigureFormat::Jpeg));
        assert_eq!(
            serde_json::from_str::<FigureFormat>("\"jpg\"").unwrap(),
            FigureFormat::Jpeg
        );
        assert_eq!(FigureFormat::Jpeg.extension(), "jpg");
    }

    const PLAIN_PDF: &[u8] = b"%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n\
        3 0 obj << /Length 9 /Filter /FlateDecode >>\nstream\n/JS/AA/JS\nendstream\nendobj\n\
        trailer << /Root 1 0 R >>\n%%EOF\n";

    #[test]
    fn pdf_needs_header_and_eof_and_no_actions() {
        assert_eq!(FigureFormat::Pdf.problem(PLAIN_PDF), None);
        assert!(
            FigureFormat::Pdf
                .problem(b"%PDF-1.4\n1 0 obj\n")
                .unwrap()
                .contains("%%EOF")
        );
        assert!(
            FigureFormat::Pdf
                .problem(b"<svg/>%%EOF")
                .unwrap()
                .contains("%PDF-")
        );
        for evil in [
            "/OpenAction << /S /JavaScript /JS (app.alert(1)) >>",
            "/Names << /J#61vaScript 4 0 R >>",
            "/A << /S /Launch /F (calc.exe) >>",
            "/A << /S /URI /URI (http://example.com) >>",
            "/Type /ObjStm",
        ] {
            let pdf = format!("%PDF-1.4\n1 0 obj << {evil} >> endobj\n%%EOF\n");
            let problem = FigureFormat::Pdf.problem(pdf.as_bytes());
            assert!(problem.is_some(), "{evil} was accepted");
        }
    }
}
