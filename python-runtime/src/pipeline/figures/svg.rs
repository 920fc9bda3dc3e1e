//! Is this SVG safe to show? The app's webview and the user's browser render the figures,
//! and an SVG can carry scripts, event handlers, embedded HTML and references that fetch
//! from the network. The code that saved it is untrusted, so the file is scanned before it
//! is kept: a minimal XML tokenizer (not a validating parser) that refuses anything it does
//! not understand, and:
//!  * the root element must be `<svg`; only the leading `<?xml ...?>` declaration is
//!    allowed as a processing instruction, and a DOCTYPE only without an internal subset
//!    (entities);
//!  * no element that runs or embeds (`script`, `foreignObject`, `iframe`, animation
//!    elements that can rewrite an `href`, ...);
//!  * no `on*` attribute;
//!  * every `href`/`src`-like attribute and every CSS `url(...)` points inside the document
//!    (`#id`) or is a `data:image/...` URL; no CSS `@import`.

/// Elements refused wherever they appear (compared case-insensitively, prefix dropped).
const DENIED_ELEMENTS: &[&str] = &[
    "script",
    "foreignobject",
    "iframe",
    "embed",
    "object",
    "handler",
    "listener",
    "set",
    "animate",
    "animatemotion",
    "animatetransform",
    "animatecolor",
    "link",
    "meta",
    "base",
];

/// Attributes whose value is a URL (local name, case-insensitive).
const URL_ATTRIBUTES: &[&str] = &["href", "src", "action", "formaction", "base"];

/// Why an SVG is not one we keep.
#[derive(Debug, thiserror::Error)]
enum SvgProblem {
    #[error("the SVG is not UTF-8 text")]
    NotUtf8,
    #[error("the file is not an SVG image (text before the `<svg` element)")]
    TextBeforeRoot,
    #[error("the file is not an SVG image (no `<svg` element)")]
    NoRoot,
    #[error("the file is not an SVG image: its root element is `<{0}>`, not `<svg>`")]
    OtherRoot(String),
    /// What is not closed: a comment, a CDATA section, a tag, ...
    #[error("the SVG has an unterminated {0}")]
    Unterminated(&'static str),
    #[error("the SVG contains a processing instruction (such as an external stylesheet)")]
    ProcessingInstruction,
    #[error("the SVG contains a markup declaration other than its DOCTYPE")]
    MarkupDeclaration,
    #[error("the SVG's DOCTYPE defines entities (an internal subset)")]
    Entities,
    #[error("the SVG has a `<` inside a tag")]
    LessThanInTag,
    #[error("the SVG has a tag without a name")]
    NamelessTag,
    #[error("the SVG contains a `<{0}>` element, which can run code or load content")]
    DeniedElement(String),
    /// An attribute that is not `name="value"`: the element, and what is wrong with it.
    #[error("the SVG's `<{element}>` has {what}")]
    Attribute { element: String, what: &'static str },
    #[error("the SVG's `<{element}>` has an event handler `{name}`, which runs code")]
    EventHandler { element: String, name: String },
    #[error(
        "the SVG's `<{element}>` links to `{target}` ({name}); only `#id` and data:image URLs \
         are allowed"
    )]
    Link {
        element: String,
        target: String,
        name: String,
    },
    #[error("the SVG's CSS imports a stylesheet or evaluates an expression")]
    CssImport,
    #[error("the SVG's CSS loads `{0}`; only `url(#id)` and data:image URLs are allowed")]
    CssUrl(String),
}

/// Why `bytes` are not an SVG we keep, or `None`.
pub fn problem(bytes: &[u8]) -> Option<String> {
    let checked = match std::str::from_utf8(bytes) {
        Ok(text) => scan(text.strip_prefix('\u{feff}').unwrap_or(text)),
        Err(_) => Err(SvgProblem::NotUtf8),
    };
    checked.err().map(|problem| problem.to_string())
}

fn local_name(name: &str) -> String {
    name.rsplit(':').next().unwrap_or(name).to_ascii_lowercase()
}

fn scan(text: &str) -> Result<(), SvgProblem> {
    let mut rest = text;
    let mut seen_root = false;
    let mut first_token = true;
    let mut in_style = false;
    while let Some(lt) = rest.find('<') {
        let between = &rest[..lt];
        if !seen_root && !between.trim().is_empty() {
            return Err(SvgProblem::TextBeforeRoot);
        }
        if in_style {
            check_css(between)?;
        }
        rest = &rest[lt..];
        if let Some(after) = rest.strip_prefix("<!--") {
            let end = after
                .find("-->")
                .ok_or(SvgProblem::Unterminated("comment"))?;
            rest = &after[end + 3..];
        } else if let Some(after) = rest.strip_prefix("<![CDATA[") {
            let end = after
                .find("]]>")
                .ok_or(SvgProblem::Unterminated("CDATA section"))?;
            if in_style {
                check_css(&after[..end])?;
            }
            rest = &after[end + 3..];
        } else if let Some(after) = rest.strip_prefix("<?") {
            let end = after
                .find("?>")
                .ok_or(SvgProblem::Unterminated("processing instruction"))?;
            let is_decl = first_token
                && after.starts_with("xml")
                && after[3..].starts_with([' ', '\t', '\r', '\n']);
            if !is_decl {
                return Err(SvgProblem::ProcessingInstruction);
            }
            rest = &after[end + 2..];
        } else if let Some(after) = rest.strip_prefix("<!") {
            if seen_root || !after.to_ascii_uppercase().starts_with("DOCTYPE") {
                return Err(SvgProblem::MarkupDeclaration);
            }
            let end = after.find('>').ok_or(SvgProblem::Unterminated("DOCTYPE"))?;
            if after[..end].contains('[') {
                return Err(SvgProblem::Entities);
            }
            rest = &after[end + 1..];
        } else {
            let (tag, after) = split_tag(rest)?;
            rest = after;
            let closing = tag.starts_with("</");
            let body = tag
                .trim_start_matches('<')
                .trim_start_matches('/')
                .trim_end_matches('>')
                .trim_end_matches('/');
            let name_end = body.find(|c: char| c.is_whitespace()).unwrap_or(body.len());
            let name = local_name(&body[..name_end]);
            if name.is_empty() {
                return Err(SvgProblem::NamelessTag);
            }
            if !seen_root {
                if closing || name != "svg" {
                    return Err(SvgProblem::OtherRoot(name));
                }
                seen_root = true;
            }
            if DENIED_ELEMENTS.contains(&name.as_str()) {
                return Err(SvgProblem::DeniedElement(name));
            }
            if !closing {
                check_attributes(&name, &body[name_end..])?;
            }
            in_style = name == "style" && !closing && !tag.ends_with("/>");
        }
        first_token = false;
    }
    if !seen_root {
        return Err(SvgProblem::NoRoot);
    }
    Ok(())
}

/// The tag at the start of `rest` (from `<` to its `>`, quotes respected) and what follows.
fn split_tag(rest: &str) -> Result<(&str, &str), SvgProblem> {
    let mut quote = None;
    for (i, c) in rest.char_indices().skip(1) {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '<') => return Err(SvgProblem::LessThanInTag),
            (None, '>') => return Ok((&rest[..=i], &rest[i + 1..])),
            (None, _) => {}
        }
    }
    Err(SvgProblem::Unterminated("tag"))
}

/// `name="value"` pairs; anything else (an unquoted value, a stray character) is refused.
fn check_attributes(element: &str, mut attrs: &str) -> Result<(), SvgProblem> {
    let malformed = |what| SvgProblem::Attribute {
        element: element.to_owned(),
        what,
    };
    loop {
        attrs = attrs.trim_start();
        if attrs.is_empty() {
            return Ok(());
        }
        let eq = attrs
            .find('=')
            .ok_or_else(|| malformed("an attribute without a value"))?;
        let name = attrs[..eq].trim();
        if name.is_empty() || name.contains(|c: char| c.is_whitespace() || c == '"' || c == '\'') {
            return Err(malformed("a malformed attribute"));
        }
        let after = attrs[eq + 1..].trim_start();
        let quote = after
            .chars()
            .next()
            .filter(|c| matches!(c, '"' | '\''))
            .ok_or_else(|| malformed("an unquoted attribute value"))?;
        let end = after[1..]
            .find(quote)
            .ok_or_else(|| malformed("an unterminated attribute"))?;
        let value = &after[1..=end];
        attrs = &after[end + 2..];
        let local = local_name(name);
        if local.starts_with("on") {
            return Err(SvgProblem::EventHandler {
                element: element.to_owned(),
                name: name.to_owned(),
            });
        }
        if URL_ATTRIBUTES.contains(&local.as_str()) && !is_inert_url(value) {
            return Err(SvgProblem::Link {
                element: element.to_owned(),
                target: shorten(value),
                name: name.to_owned(),
            });
        }
        if local == "style" || value.contains("url(") {
            check_css(value)?;
        }
    }
}

/// CSS (a `<style>` element's text or an attribute value): every `url(...)` must be inert;
/// no `@import`, no `expression(`.
fn check_css(css: &str) -> Result<(), SvgProblem> {
    let lower = css.to_ascii_lowercase();
    if lower.contains("@import") || lower.contains("expression(") {
        return Err(SvgProblem::CssImport);
    }
    let mut rest = lower.as_str();
    while let Some(at) = rest.find("url(") {
        rest = &rest[at + 4..];
        let target = rest.split(')').next().unwrap_or(rest);
        let target = target.trim().trim_matches(['"', '\'']);
        if !is_inert_url(target) {
            return Err(SvgProblem::CssUrl(shorten(target)));
        }
    }
    Ok(())
}

/// A reference inside the document or an embedded image. Entity or character references
/// in the value are refused outright (they could spell anything).
fn is_inert_url(value: &str) -> bool {
    let v = value.trim();
    if v.contains('&') || v.contains('\\') {
        return false;
    }
    v.starts_with('#') || v.to_ascii_lowercase().starts_with("data:image/")
}

fn shorten(text: &str) -> String {
    let short: String = text.chars().take(60).collect();
    short.escape_debug().to_string()
}

#[cfg(test)]
mod tests {
    use super::problem;

    const MATPLOTLIB_LIKE: &str = r##"<?xml version="1.0" encoding="utf-8" standalone="no"?>
<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN"
  "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">
<svg xmlns:xlink="http://www.w3.org/1999/xlink" width="460.8pt" height="345.6pt" viewBox="0 0 460.8 345.6" xmlns="http://www.w3.org/2000/svg" version="1.1">
 <metadata>
  <rdf:RDF xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:cc="http://creativecommons.org/ns#" xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
   <cc:Work><dc:type rdf:resource="http://purl.org/dc/dcmitype/StillImage"/></cc:Work>
  </rdf:RDF>
 </metadata>
 <defs>
  <style type="text/css">*{stroke-linejoin: round; stroke-linecap: butt}</style>
 </defs>
 <g id="figure_1">
  <!-- 磁场扫描 <script> in a comment is text -->
  <path d="M 0 345.6 L 460.8 345.6 z" style="fill: #ffffff" clip-path="url(#p1)"/>
  <use xlink:href="#m1" x="57.6" y="307.584" style="stroke: #000000"/>
  <image xlink:href="data:image/png;base64,iVBORw0KGgo=" width="10" height="10"/>
 </g>
 <defs><clipPath id="p1"><rect x="57.6" y="41.472" width="357.12" height="266.112"/></clipPath></defs>
</svg>
"##;

    #[test]
    fn a_matplotlib_svg_passes() {
        assert_eq!(problem(MATPLOTLIB_LIKE.as_bytes()), None);
        assert_eq!(problem(b"<svg xmlns='http://www.w3.org/2000/svg'/>"), None);
    }

    #[test]
    fn active_or_fetching_content_is_refused() {
        let cases = [
            "<svg><script>alert(1)</script></svg>",
            "<svg><SCRIPT>alert(1)</SCRIPT></svg>",
            "<svg><svg:script>alert(1)</svg:script></svg>",
            "<svg onload=\"alert(1)\"></svg>",
            "<svg><g ONCLICK='x()'/></svg>",
            "<svg><foreignObject><div/></foreignObject></svg>",
            "<svg><a href=\"javascript:alert(1)\"><text>x</text></a></svg>",
            "<svg><a xlink:href=\"https://evil.example/\"/></svg>",
            "<svg><image href=\"http://evil.example/t.png\"/></svg>",
            "<svg><image href=\"&#106;avascript:x\"/></svg>",
            "<svg><image href=\"data:text/html,<script>x</script>\"/></svg>",
            "<svg><g style=\"fill: url(http://evil.example/x)\"/></svg>",
            "<svg><style>@import 'http://evil.example/a.css';</style></svg>",
            "<svg><style><![CDATA[ g { fill: url(https://evil.example/) } ]]></style></svg>",
            "<svg><set attributeName=\"href\" to=\"javascript:x\"/></svg>",
            "<svg><iframe src=\"x\"/></svg>",
            "<?xml-stylesheet href=\"http://evil.example/s.css\"?><svg/>",
            "<!DOCTYPE svg [<!ENTITY x \"y\">]><svg>&x;</svg>",
            "<svg><g a=unquoted/></svg>",
            "<html><svg/></html>",
            "not xml at all",
            "",
            "<svg><g",
        ];
        for case in cases {
            assert!(problem(case.as_bytes()).is_some(), "accepted: {case}");
        }
        let why = problem(b"<svg><script>x</script></svg>").unwrap();
        assert!(why.contains("<script>"), "{why}");
        assert!(problem(b"<svg>\xff</svg>").is_some());
    }

    /// Each refusal's whole sentence, as the worker's caller reads it.
    #[test]
    fn each_refusal_says_what_is_wrong() {
        let cases: &[(&[u8], &str)] = &[
            (b"<svg>\xff</svg>", "the SVG is not UTF-8 text"),
            (
                b"x<svg/>",
                "the file is not an SVG image (text before the `<svg` element)",
            ),
            (b"", "the file is not an SVG image (no `<svg` element)"),
            (
                b"<html><svg/></html>",
                "the file is not an SVG image: its root element is `<html>`, not `<svg>`",
            ),
            (b"<svg><!-- x", "the SVG has an unterminated comment"),
            (
                b"<svg><![CDATA[ x",
                "the SVG has an unterminated CDATA section",
            ),
            (
                b"<?xml x",
                "the SVG has an unterminated processing instruction",
            ),
            (b"<!DOCTYPE svg", "the SVG has an unterminated DOCTYPE"),
            (b"<svg><g", "the SVG has an unterminated tag"),
            (
                b"<svg/><?pi x?>",
                "the SVG contains a processing instruction (such as an external stylesheet)",
            ),
            (
                b"<svg><!ELEMENT x></svg>",
                "the SVG contains a markup declaration other than its DOCTYPE",
            ),
            (
                b"<!DOCTYPE svg [<!ENTITY x \"y\">]><svg/>",
                "the SVG's DOCTYPE defines entities (an internal subset)",
            ),
            (b"<svg><g <a></svg>", "the SVG has a `<` inside a tag"),
            (b"<svg>< ></svg>", "the SVG has a tag without a name"),
            (
                b"<svg><script/></svg>",
                "the SVG contains a `<script>` element, which can run code or load content",
            ),
            (
                b"<svg><g a></svg>",
                "the SVG's `<g>` has an attribute without a value",
            ),
            (
                b"<svg><g ='1'/></svg>",
                "the SVG's `<g>` has a malformed attribute",
            ),
            (
                b"<svg><g a=1/></svg>",
                "the SVG's `<g>` has an unquoted attribute value",
            ),
            (
                b"<svg onload='x()'/>",
                "the SVG's `<svg>` has an event handler `onload`, which runs code",
            ),
            (
                b"<svg><a href='http://e.example/'/></svg>",
                "the SVG's `<a>` links to `http://e.example/` (href); only `#id` and \
                 data:image URLs are allowed",
            ),
            (
                b"<svg><style>@import 'a.css';</style></svg>",
                "the SVG's CSS imports a stylesheet or evaluates an expression",
            ),
            (
                b"<svg><g style='fill: url(http://e.example/x)'/></svg>",
                "the SVG's CSS loads `http://e.example/x`; only `url(#id)` and data:image \
                 URLs are allowed",
            ),
        ];
        for (svg, why) in cases {
            assert_eq!(
                problem(svg).as_deref(),
                Some(*why),
                "{}",
                String::from_utf8_lossy(svg)
            );
        }
        // The tag splitter pairs quotes first, so only the attribute reader itself meets an
        // unterminated value.
        let why = super::check_attributes("g", " a='1").map_err(|e| e.to_string());
        assert_eq!(
            why,
            Err("the SVG's `<g>` has an unterminated attribute".to_owned())
        );
    }
}
