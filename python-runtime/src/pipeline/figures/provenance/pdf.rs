//! PDF: the record is an incremental update appended after the document's last `%%EOF`: a
//! new document information dictionary holding the JSON as a hex string under
//! [`KEY`] (hex: no byte of it can read as a PDF name, keyword or delimiter, so the file's
//! own checks in `format.rs` see nothing new), a cross-reference section for that one
//! object, and a trailer with `/Size`, `/Root`, `/Info` and `/Prev`. Viewers read the
//! original document unchanged; the latest `/Info` is ours.

use super::Error;

/// The information dictionary's key for the record.
pub const KEY: &str = "/PDFAgentProvenance";

fn find_last(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).rposition(|w| w == needle)
}

/// The first unsigned integer after `at` (skipping whitespace).
fn number_after(bytes: &[u8], at: usize) -> Option<u64> {
    let rest = bytes.get(at..)?;
    let start = rest.iter().position(|b| !b.is_ascii_whitespace())?;
    let digits: Vec<u8> = rest[start..]
        .iter()
        .take_while(|b| b.is_ascii_digit())
        .copied()
        .collect();
    std::str::from_utf8(&digits).ok()?.parse().ok()
}

/// `/Key N G R` in the trailer dictionary text: `(N, G)`.
fn reference(dict: &[u8], key: &[u8]) -> Option<(u64, u64)> {
    let at = find_last(dict, key)? + key.len();
    let n = number_after(dict, at)?;
    let after_n = at + dict[at..].iter().position(|b| b.is_ascii_digit())?;
    let after_n = after_n
        + dict[after_n..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
    let g = number_after(dict, after_n)?;
    Some((n, g))
}

pub fn embed(bytes: &[u8], json: &str) -> Result<Vec<u8>, Error> {
    let bad = |why: &str| Error::Malformed(format!("the PDF file is not as expected ({why})"));
    let eof = find_last(bytes, b"%%EOF").ok_or_else(|| bad("no %%EOF"))?;
    let body = &bytes[..eof + 5];
    let startxref = find_last(body, b"startxref").ok_or_else(|| bad("no startxref"))?;
    let prev = number_after(body, startxref + 9).ok_or_else(|| bad("no xref offset"))?;
    let trailer = find_last(body, b"trailer").ok_or_else(|| {
        bad("no trailer dictionary (a cross-reference stream, which is not supported)")
    })?;
    let dict = &body[trailer..startxref];
    let size = find_last(dict, b"/Size")
        .and_then(|at| number_after(dict, at + 5))
        .ok_or_else(|| bad("no /Size in the trailer"))?;
    let (root, root_gen) = reference(dict, b"/Root").ok_or_else(|| bad("no /Root"))?;
    let mut out = body.to_vec();
    out.push(b'\n');
    let object = size;
    let offset = out.len();
    let mut hex = String::with_capacity(json.len() * 2);
    for b in json.bytes() {
        hex.push_str(&format!("{b:02x}"));
    }
    out.extend_from_slice(
        format!(
            "{object} 0 obj\n<< /Producer (PDFAgent {version}) {KEY} <{hex}> >>\nendobj\n",
            version = env!("CARGO_PKG_VERSION")
        )
        .as_bytes(),
    );
    let xref = out.len();
    out.extend_from_slice(
        format!(
            "xref\n{object} 1\n{offset:010} 00000 n \ntrailer\n<< /Size {size} /Root {root} \
             {root_gen} R /Info {object} 0 R /Prev {prev} >>\nstartxref\n{xref}\n%%EOF\n",
            size = object + 1
        )
        .as_bytes(),
    );
    Ok(out)
}

pub fn extract(bytes: &[u8]) -> Result<Option<String>, Error> {
    let needle = format!("{KEY} <");
    let Some(at) = find_last(bytes, needle.as_bytes()) else {
        return Ok(None);
    };
    let start = at + needle.len();
    let len = bytes[start..]
        .iter()
        .position(|b| *b == b'>')
        .ok_or_else(|| Error::Tampered("the record's hex string does not end".into()))?;
    let hex: Vec<u8> = bytes[start..start + len]
        .iter()
        .copied()
        .filter(|b| !b.is_ascii_whitespace())
        .collect();
    if !hex.len().is_multiple_of(2) {
        return Err(Error::Tampered(
            "the record's hex string is cut short".into(),
        ));
    }
    let mut raw = Vec::with_capacity(hex.len() / 2);
    for pair in hex.chunks(2) {
        let digit = std::str::from_utf8(pair)
            .ok()
            .and_then(|p| u8::from_str_radix(p, 16).ok())
            .ok_or_else(|| Error::Tampered("the record's hex string is not hex".into()))?;
        raw.push(digit);
    }
    String::from_utf8(raw)
        .map(Some)
        .map_err(|_| Error::Tampered("the record is not UTF-8 text".into()))
}
