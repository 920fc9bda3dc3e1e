//! PNG: the record is one uncompressed `iTXt` chunk with the keyword [`KEYWORD`], inserted
//! just before `IEND`. Chunks with that keyword the worker may have written itself are
//! dropped first, and so is anything after `IEND`: the file then carries exactly one record,
//! ours.

use super::Error;

/// The `iTXt` keyword (PNG keywords are 1-79 printable Latin-1 characters).
pub const KEYWORD: &[u8] = b"pdfagent:provenance";
const SIGNATURE: &[u8; 8] = b"\x89PNG\r\n\x1a\n";

struct Chunk<'a> {
    kind: [u8; 4],
    data: &'a [u8],
    /// The whole chunk: length, type, data and CRC.
    raw: &'a [u8],
}

/// The chunks up to and including `IEND`.
fn chunks(bytes: &[u8]) -> Result<Vec<Chunk<'_>>, Error> {
    let bad = |why: &str| Error::Malformed(format!("the PNG file is damaged ({why})"));
    let mut rest = bytes
        .strip_prefix(SIGNATURE)
        .ok_or_else(|| bad("no PNG signature"))?;
    let mut out = Vec::new();
    loop {
        if rest.len() < 12 {
            return Err(bad("it ends before its IEND chunk"));
        }
        let len = u32::from_be_bytes([rest[0], rest[1], rest[2], rest[3]]) as usize;
        let total = len
            .checked_add(12)
            .ok_or_else(|| bad("a chunk is too long"))?;
        if rest.len() < total {
            return Err(bad("a chunk is cut short"));
        }
        let kind = [rest[4], rest[5], rest[6], rest[7]];
        out.push(Chunk {
            kind,
            data: &rest[8..8 + len],
            raw: &rest[..total],
        });
        rest = &rest[total..];
        if &kind == b"IEND" {
            return Ok(out);
        }
    }
}

fn is_ours(chunk: &Chunk<'_>) -> bool {
    matches!(&chunk.kind, b"iTXt" | b"tEXt" | b"zTXt")
        && chunk.data.starts_with(KEYWORD)
        && chunk.data.get(KEYWORD.len()) == Some(&0)
}

pub fn embed(bytes: &[u8], json: &str) -> Result<Vec<u8>, Error> {
    let chunks = chunks(bytes)?;
    let mut data = Vec::with_capacity(KEYWORD.len() + 5 + json.len());
    data.extend_from_slice(KEYWORD);
    // NUL, compression flag 0 (none), method 0, empty language tag, empty translated keyword.
    data.extend_from_slice(&[0, 0, 0, 0, 0]);
    data.extend_from_slice(json.as_bytes());
    let len = u32::try_from(data.len()).map_err(|_| Error::TooLarge)?;
    let mut out = Vec::with_capacity(bytes.len() + data.len() + 12);
    out.extend_from_slice(SIGNATURE);
    for chunk in &chunks {
        if &chunk.kind == b"IEND" {
            out.extend_from_slice(&len.to_be_bytes());
            let start = out.len();
            out.extend_from_slice(b"iTXt");
            out.extend_from_slice(&data);
            let crc = crc32(&out[start..]);
            out.extend_from_slice(&crc.to_be_bytes());
        } else if is_ours(chunk) {
            continue;
        }
        out.extend_from_slice(chunk.raw);
    }
    Ok(out)
}

pub fn extract(bytes: &[u8]) -> Result<Option<String>, Error> {
    let ours: Vec<Chunk<'_>> = chunks(bytes)?.into_iter().filter(is_ours).collect();
    let chunk = match ours.as_slice() {
        [] => return Ok(None),
        [one] => one,
        _ => {
            return Err(Error::Tampered(
                "the PNG carries more than one record".into(),
            ));
        }
    };
    let crc_at = chunk.raw.len() - 4;
    let stored = u32::from_be_bytes([
        chunk.raw[crc_at],
        chunk.raw[crc_at + 1],
        chunk.raw[crc_at + 2],
        chunk.raw[crc_at + 3],
    ]);
    if crc32(&chunk.raw[4..crc_at]) != stored {
        return Err(Error::Tampered(
            "the record's PNG checksum does not match".into(),
        ));
    }
    if &chunk.kind != b"iTXt" {
        return Err(Error::Tampered("the record is not an iTXt chunk".into()));
    }
    let rest = &chunk.data[KEYWORD.len() + 1..];
    // Compression flag and method, then the language tag and translated keyword.
    let [0, 0, rest @ ..] = rest else {
        return Err(Error::Tampered(
            "the record is compressed or damaged".into(),
        ));
    };
    let mut parts = rest.splitn(3, |b| *b == 0);
    let (_lang, _translated, text) = (parts.next(), parts.next(), parts.next());
    let text = text.ok_or_else(|| Error::Tampered("the record is cut short".into()))?;
    String::from_utf8(text.to_vec())
        .map(Some)
        .map_err(|_| Error::Tampered("the record is not UTF-8 text".into()))
}

/// CRC-32 (ISO 3309, as PNG uses it).
pub(super) fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = 0xffff_ffffu32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xedb8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc_matches_the_png_specification() {
        // The IEND chunk's CRC, as every PNG carries it.
        assert_eq!(crc32(b"IEND"), 0xae42_6082);
    }
}
