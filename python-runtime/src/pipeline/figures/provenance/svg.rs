//! SVG: the record is a `<metadata id="pdfagent-provenance">` element placed right after the
//! root `<svg ...>` start tag, its JSON as escaped text (`&amp;`, `&lt;`, `&gt;`: no CDATA
//! section that a `]]>` in the code could end). Only the element in that exact place is
//! read back, so a look-alike the code drew elsewhere in the document is never taken for it.

use super::Error;

const OPEN: &str = "<metadata id=\"pdfagent-provenance\">";
const CLOSE: &str = "</metadata>";

/// Where the root start tag ends (the index just past its `>`), and whether it is
/// self-closing (`<svg .../>`).
fn root_start_end(text: &str) -> Result<(usize, bool), Error> {
    let bad = |why: &str| Error::Malformed(format!("the SVG file is not as expected ({why})"));
    let mut pos = 0;
    loop {
        let rest = &text[pos..];
        let trimmed = rest.trim_start_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
        pos += rest.len() - trimmed.len();
        let rest = &text[pos..];
        let skip_to = |end: &str| rest.find(end).map(|i| i + end.len());
        let skip = if rest.starts_with("<?") {
            skip_to("?>")
        } else if rest.starts_with("<!--") {
            skip_to("-->")
        } else if rest.starts_with("<!") {
            skip_to(">")
        } else if rest.starts_with("<svg") {
            break;
        } else {
            return Err(bad("no <svg> root element"));
        };
        pos += skip.ok_or_else(|| bad("an unterminated declaration"))?;
    }
    let mut quote = None;
    for (i, c) in text[pos..].char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '>') => {
                let end = pos + i + 1;
                return Ok((end, text[..end - 1].ends_with('/')));
            }
            _ => {}
        }
    }
    Err(bad("the <svg> start tag does not end"))
}

fn escape(json: &str) -> String {
    json.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

fn unescape(text: &str) -> Result<String, Error> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        rest = &rest[amp..];
        let (c, len) = [("&amp;", '&'), ("&lt;", '<'), ("&gt;", '>')]
            .into_iter()
            .find(|(entity, _)| rest.starts_with(entity))
            .map(|(entity, c)| (c, entity.len()))
            .ok_or_else(|| Error::Tampered("the record holds an unknown entity".into()))?;
        out.push(c);
        rest = &rest[len..];
    }
    out.push_str(rest);
    Ok(out)
}

pub fn embed(bytes: &[u8], json: &str) -> Result<Vec<u8>, Error> {
    let text = std::str::from_utf8(bytes)
        .map_err(|_| Error::Malformed("the SVG file is not UTF-8 text".into()))?;
    let (end, self_closing) = root_start_end(text)?;
    let element = format!("{OPEN}{}{CLOSE}", escape(json));
    let mut out = String::with_capacity(text.len() + element.len() + 8);
    if self_closing {
        out.push_str(&text[..end - 2]);
        out.push('>');
        out.push_str(&element);
        out.push_str("</svg>");
    } else {
        out.push_str(&text[..end]);
        out.push_str(&element);
    }
    out.push_str(&text[end..]);
    Ok(out.into_bytes())
}

pub fn extract(bytes: &[u8]) -> Result<Option<String>, Error> {
    let text = std::str::from_utf8(bytes)
        .map_err(|_| Error::Malformed("the SVG file is not UTF-8 text".into()))?;
    let (end, self_closing) = root_start_end(text)?;
    if self_closing {
        return Ok(None);
    }
    let Some(body) = text[end..].strip_prefix(OPEN) else {
        return Ok(None);
    };
    let close = body
        .find(CLOSE)
        .ok_or_else(|| Error::Tampered("the record's element does not end".into()))?;
    unescape(&body[..close]).map(Some)
}
