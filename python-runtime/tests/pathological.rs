//! Pathological inputs: each ends in a clear rejection (or acceptance), never a panic or a
//! stack overflow. Deep nesting is refused before parsing; long operator chains, which have
//! no brackets, are refused by the tree-depth limit while the parse runs on a big stack.

use python_runtime::{Rejection, check};

fn rejected(code: &[u8]) -> Rejection {
    match check(code) {
        Ok(_) => panic!("expected a rejection for {} bytes", code.len()),
        Err(r) => r,
    }
}

fn rules(r: &Rejection) -> Vec<&str> {
    r.errors.iter().map(|v| v.rule.as_str()).collect()
}

#[test]
fn ten_thousand_nested_brackets_are_refused_before_parsing() {
    for (open, close) in [("(", ")"), ("[", "]"), ("{", "}")] {
        let code = format!("x = {}1{}\n", open.repeat(10_000), close.repeat(10_000));
        let r = rejected(code.as_bytes());
        assert_eq!(rules(&r), ["nesting-too-deep"]);
    }
    let fstring = format!("x = f'{}1{}'\n", "{".repeat(10_000), "}".repeat(10_000));
    assert_eq!(rules(&rejected(fstring.as_bytes())), ["nesting-too-deep"]);
}

#[test]
fn one_mebibyte_single_line_is_too_large() {
    let code = format!("x = '{}'", "a".repeat(1 << 20));
    let r = rejected(code.as_bytes());
    assert_eq!(rules(&r), ["input-too-large"]);
    assert_eq!((r.errors[0].line, r.errors[0].col), (1, 1));
}

#[test]
fn long_chains_without_brackets_hit_the_tree_depth_limit() {
    let budget = 250 * 1024;
    let chains = [
        format!("x = {}1\n", "-".repeat(budget)),
        format!("x = {}1\n", "not ".repeat(budget / 4)),
        format!("x = 1{}\n", "+1".repeat(budget / 2)),
        format!("x = a{}\n", ".b".repeat(budget / 2)),
        format!("x = f{}\n", "()".repeat(budget / 2)),
        format!("x = a{}\n", "[0]".repeat(budget / 3)),
        format!("x = {}0\n", "lambda: ".repeat(budget / 8)),
        format!("x = 1{}\n", " if 1 else 1".repeat(budget / 12)),
    ];
    for code in &chains {
        let r = rejected(code.as_bytes());
        assert_eq!(rules(&r), ["nesting-too-deep"], "{}", &code[..40]);
    }
}

#[test]
fn deeply_indented_blocks_are_refused() {
    let mut code = String::new();
    for depth in 0..300 {
        code.push_str(&" ".repeat(depth));
        code.push_str("if x:\n");
    }
    code.push_str(&" ".repeat(300));
    code.push_str("pass\n");
    let r = rejected(code.as_bytes());
    assert_eq!(rules(&r), ["nesting-too-deep"]);
}

#[test]
fn invalid_utf8_and_nul_bytes_are_encoding_errors() {
    for code in [
        &b"x = 1\ny = '\xc3\x28'\n"[..],
        b"\xff\xfe\x00x",
        b"x = 1\x00\n",
        b"x = '\xed\xa0\x80'\n", // an encoded surrogate
    ] {
        let r = rejected(code);
        assert_eq!(rules(&r), ["encoding"], "{code:?}");
    }
}

/// One character from every Unicode general category, plus a sweep of the code space.
#[test]
fn identifiers_from_every_unicode_category_never_panic() {
    let representatives = [
        'A',
        'a',
        'ǅ',
        'ʰ',
        'ª',
        '\u{0301}',
        '\u{0903}',
        '\u{20DD}',
        '5',
        'Ⅻ',
        '½',
        '_',
        '-',
        '(',
        ')',
        '«',
        '»',
        '!',
        '+',
        '$',
        '^',
        '©',
        ' ',
        '\u{2028}',
        '\u{2029}',
        '\u{0001}',
        '\u{200D}',
        '\u{E000}',
        '\u{0378}',
        'ｅ',
        '𝐨',
        '℘',
        '℮',
        '·',
        '\u{FEFF}',
        '\u{10FFFF}',
    ];
    let sweep = (0u32..=0x10FFFF).step_by(211).filter_map(char::from_u32);
    let mut checked = 0;
    for c in representatives.into_iter().chain(sweep) {
        for code in [
            format!("a{c} = 1\n"),
            format!("{c}a = 1\n"),
            format!("x.a{c}\n"),
        ] {
            match check(code.as_bytes()) {
                Ok(accepted) => assert_eq!(accepted.source, code.trim_start_matches('\u{FEFF}')),
                Err(r) => {
                    assert!(!r.errors.is_empty());
                    assert!(
                        r.errors
                            .iter()
                            .all(|v| !v.message.contains("checker failed")),
                        "{code:?}: {:?}",
                        r.errors
                    );
                }
            }
            checked += 1;
        }
    }
    assert!(checked > 15_000);
}

#[test]
fn nfkc_spellings_are_the_names_they_normalise_to() {
    let r = rejected("ｅｖａｌ('1')\n".as_bytes());
    assert_eq!(rules(&r), ["forbidden-builtin"]);
    let r = rejected("ｘ = ｎｐ.ｃｔｙｐｅｓｌｉｂ\n".as_bytes());
    assert_eq!(rules(&r), ["blocked-attribute"]);
    let r = rejected("x = ().__ｃｌａｓｓ__\n".as_bytes());
    assert_eq!(rules(&r), ["private-attribute"]);
}
