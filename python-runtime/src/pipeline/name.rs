//! The one rule for figure names, used by every front end (command line, MCP, `rerun`, the
//! window's history and its name field): a name is a file stem that is valid and means the
//! same file on Linux, macOS and Windows, written in any script.
//!
//! A name is NFC-normalised first (macOS's HFS+ hands names back decomposed; a name typed
//! on one system and read back on another must be the same name), then it must have 1 to
//! [`MAX_NAME_CHARS`] characters and at most [`MAX_NAME_BYTES`] UTF-8 bytes (file systems
//! count bytes: 255 less room for `-NN.png` and the temporary file's affixes) made of
//! letters, digits and marks of any script, `_`, `-`, `.` and inner spaces. ZWNJ and ZWJ
//! are letters' business in Persian and Indic scripts, so they may stand between letters.
//! Each refusal has its own sentence, saying what to type instead.

use unicode_general_category::{GeneralCategory as G, get_general_category};
use unicode_normalization::UnicodeNormalization as _;

/// Longest accepted figure name, in characters (after NFC).
pub const MAX_NAME_CHARS: usize = 64;
/// Longest accepted figure name, in UTF-8 bytes (after NFC).
pub const MAX_NAME_BYTES: usize = 200;

const ZWNJ: char = '\u{200C}';
const ZWJ: char = '\u{200D}';

/// Why a name is not a figure name; each says what to do instead.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NameProblem {
    #[error("is empty: type a name such as `field_sweep` or `图1`")]
    Empty,
    #[error("has {0} characters: use at most {MAX_NAME_CHARS}")]
    TooLong(usize),
    #[error(
        "takes {0} bytes in UTF-8, more than the {MAX_NAME_BYTES} a file name can safely take \
         on every system: shorten it"
    )]
    TooManyBytes(usize),
    #[error(
        "contains the path separator `{0}`: a figure name is a file name, not a path; use \
         `-` or `_` instead"
    )]
    Separator(char),
    #[error(
        "contains a control character ({}): type the name on one line, without tabs or line \
         breaks", code(*.0)
    )]
    Control(char),
    #[error(
        "contains an invisible direction control ({}), which makes a file name show \
         differently from what it is: remove it", code(*.0)
    )]
    Bidi(char),
    #[error(
        "starts with a combining mark ({}): a mark belongs after the letter it marks",
        code(*.0)
    )]
    LeadingMark(char),
    #[error(
        "has a zero-width joiner or non-joiner ({}) that is not between two letters: \
         remove it", code(*.0)
    )]
    StrayJoiner(char),
    #[error(
        "starts with `.`: such files are hidden (and `..` is the parent folder); start it \
         with a letter or digit"
    )]
    LeadingDot,
    #[error("starts with a space: remove it")]
    LeadingSpace,
    #[error("ends with `.`, which Windows drops from file names: remove it")]
    TrailingDot,
    #[error("ends with a space, which Windows drops from file names: remove it")]
    TrailingSpace,
    #[error(
        "is the Windows device name `{0}`, which no Windows folder can hold as a file (with \
         any extension): choose another name"
    )]
    Device(String),
    #[error(
        "contains `{}` ({}), which is not a letter, digit or mark: use letters, digits and \
         marks of any script, `_`, `-`, `.` or spaces between words", .0, code(*.0)
    )]
    Character(char),
    /// Only for names read back from a record, which were normalised when made.
    #[error("is not in composed (NFC) form, as every figure name is saved: the record was altered")]
    NotNfc,
}

fn code(c: char) -> String {
    format!("U+{:04X}", u32::from(c))
}

/// `name` as a figure name: NFC-normalised and checked. The normalised name is the one to
/// use from here on (in the file name, the record, the result).
pub fn figure_name(name: &str) -> Result<String, NameProblem> {
    let name: String = name.nfc().collect();
    check_normalised(&name)?;
    Ok(name)
}

fn check_normalised(name: &str) -> Result<(), NameProblem> {
    let chars: Vec<char> = name.chars().collect();
    let (Some(&first), Some(&last)) = (chars.first(), chars.last()) else {
        return Err(NameProblem::Empty);
    };
    // The characters first: a bidi control or a line break is the thing to point at even
    // in a name that is also too long.
    for (i, &c) in chars.iter().enumerate() {
        let problem = match c {
            '/' | '\\' => Some(NameProblem::Separator(c)),
            '_' | '-' | '.' | ' ' => None,
            '\u{202A}'..='\u{202E}'
            | '\u{2066}'..='\u{2069}'
            | '\u{200E}'
            | '\u{200F}'
            | '\u{061C}' => Some(NameProblem::Bidi(c)),
            ZWNJ | ZWJ => {
                let between = i > 0
                    && is_letter_or_mark(chars[i - 1])
                    && chars.get(i + 1).is_some_and(|&n| is_letter_or_mark(n));
                (!between).then_some(NameProblem::StrayJoiner(c))
            }
            c if c.is_control() => Some(NameProblem::Control(c)),
            c if is_letter_or_mark(c) || is_number(c) => None,
            c => Some(NameProblem::Character(c)),
        };
        if let Some(problem) = problem {
            return Err(problem);
        }
    }
    if is_mark(first) {
        return Err(NameProblem::LeadingMark(first));
    }
    if first == '.' {
        return Err(NameProblem::LeadingDot);
    }
    if first == ' ' {
        return Err(NameProblem::LeadingSpace);
    }
    if last == '.' {
        return Err(NameProblem::TrailingDot);
    }
    if last == ' ' {
        return Err(NameProblem::TrailingSpace);
    }
    if chars.len() > MAX_NAME_CHARS {
        return Err(NameProblem::TooLong(chars.len()));
    }
    if name.len() > MAX_NAME_BYTES {
        return Err(NameProblem::TooManyBytes(name.len()));
    }
    if let Some(device) = windows_device(name) {
        return Err(NameProblem::Device(device));
    }
    Ok(())
}

fn is_mark(c: char) -> bool {
    matches!(
        get_general_category(c),
        G::NonspacingMark | G::SpacingMark | G::EnclosingMark
    )
}

fn is_letter_or_mark(c: char) -> bool {
    is_mark(c)
        || matches!(
            get_general_category(c),
            G::UppercaseLetter
                | G::LowercaseLetter
                | G::TitlecaseLetter
                | G::ModifierLetter
                | G::OtherLetter
        )
}

fn is_number(c: char) -> bool {
    matches!(
        get_general_category(c),
        G::DecimalNumber | G::LetterNumber | G::OtherNumber
    )
}

/// The Windows device `name` stands for, if any: Windows reserves `CON`, `PRN`, `AUX`,
/// `NUL`, `COM0`–`COM9` and `LPT0`–`LPT9` (with the superscripts ¹²³ too) in any case, with
/// any extension, and with spaces before the extension.
fn windows_device(name: &str) -> Option<String> {
    let base = name.split('.').next().unwrap_or(name).trim_end_matches(' ');
    let upper: String = base.chars().map(|c| c.to_ascii_uppercase()).collect();
    let reserved = match upper.as_str() {
        "CON" | "PRN" | "AUX" | "NUL" => true,
        _ => {
            let mut chars = upper.chars();
            let prefix: String = chars.by_ref().take(3).collect();
            let digit = chars.next();
            (prefix == "COM" || prefix == "LPT")
                && chars.next().is_none()
                && digit.is_some_and(|d| d.is_ascii_digit() || matches!(d, '¹' | '²' | '³'))
        }
    };
    reserved.then(|| base.to_owned())
}

/// A name refused, as every front end and the records read back say it: the name as
/// typed (escaped, so a control character shows) and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the figure name `{name}` {problem}")]
pub struct BadName {
    pub name: String,
    pub problem: NameProblem,
}

/// [`figure_name`], refused with the name said.
pub fn checked_name(raw: &str) -> Result<String, BadName> {
    figure_name(raw).map_err(|problem| BadName {
        name: raw.escape_debug().to_string(),
        problem,
    })
}

/// `name` is a figure name exactly as written (already NFC): for names read back from a
/// record, which were normalised when the figure was made.
pub fn check_kept_name(name: &str) -> Result<(), BadName> {
    match checked_name(name) {
        Ok(kept) if kept == name => Ok(()),
        Ok(_) => Err(BadName {
            name: name.escape_debug().to_string(),
            problem: NameProblem::NotNfc,
        }),
        Err(e) => Err(e),
    }
}

/// Why a valid name cannot be used in a figures folder: a figure there is the same file on
/// macOS and Windows, or the name is another run's extra figure. Found by the output stage
/// (`figures/names.rs`, which knows what a figures folder holds), said by input validation.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NameTaken {
    #[error(
        "the figure name `{name}` is the same as the figure `{file}` but for case, and macOS \
         and Windows take the two for one file: use `{taken}` to replace that figure, or \
         choose another name"
    )]
    CaseClash {
        name: String,
        file: String,
        taken: String,
    },
    #[error(
        "the figure name `{name}` is taken: `{file}` is figure {number} of the run `{owner}`; \
         run `{owner}` again to replace it, or choose another name"
    )]
    OtherRunsFigure {
        name: String,
        file: String,
        owner: String,
        number: usize,
    },
}

/// The key two names share when macOS or Windows would take them for the same file: full
/// case folding (`ß` = `ss`) of the canonical decomposition.
pub fn fold_key(name: &str) -> String {
    let folded = caseless::default_case_fold_str(&name.nfd().collect::<String>());
    folded.nfd().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (name as typed, the name kept) for names that are accepted.
    const ACCEPTED: &[(&str, &str)] = &[
        ("fig", "fig"),
        ("field_sweep", "field_sweep"),
        ("a-b.c", "a-b.c"),
        ("x..y", "x..y"),
        ("图1", "图1"),
        ("用图 第二版", "用图 第二版"),
        ("شكل-٣", "شكل-٣"),
        ("نمودار\u{200C}ها", "نمودار\u{200C}ها"),
        // Devanagari: KA, VIRAMA, ZWJ, SSA (the half form of KA).
        ("क\u{94D}\u{200D}ष", "क\u{94D}\u{200D}ष"),
        ("図表①", "図表①"),
        ("x²", "x²"),
        ("Straße", "Straße"),
        // NFD input is kept as NFC.
        ("Cafe\u{301}", "Café"),
        ("e\u{301}te\u{301}", "été"),
        ("COM10", "COM10"),
        ("console", "console"),
        ("nullable", "nullable"),
        ("com1x", "com1x"),
    ];

    #[test]
    fn names_in_any_script_are_accepted_as_nfc() {
        for (typed, kept) in ACCEPTED {
            assert_eq!(figure_name(typed).as_deref(), Ok(*kept), "{typed:?}");
        }
        let wide = "图".repeat(MAX_NAME_CHARS);
        assert_eq!(figure_name(&wide), Ok(wide.clone()));
        // 50 characters outside the BMP: 200 bytes, the most.
        let astral = "𠀀".repeat(50);
        assert_eq!(figure_name(&astral), Ok(astral.clone()));
    }

    #[test]
    fn each_refusal_has_its_own_reason() {
        use NameProblem as P;
        let refused: &[(&str, NameProblem)] = &[
            ("", P::Empty),
            ("a/b", P::Separator('/')),
            ("../x", P::Separator('/')),
            ("a\\b", P::Separator('\\')),
            ("x\ny", P::Control('\n')),
            ("x\0y", P::Control('\0')),
            ("fig\t", P::Control('\t')),
            ("x\u{7f}", P::Control('\u{7f}')),
            ("fig\u{202E}gnp", P::Bidi('\u{202E}')),
            ("a\u{2066}b", P::Bidi('\u{2066}')),
            ("a\u{2069}", P::Bidi('\u{2069}')),
            ("\u{301}a", P::LeadingMark('\u{301}')),
            ("\u{94D}क", P::LeadingMark('\u{94D}')),
            ("\u{200D}क", P::StrayJoiner('\u{200D}')),
            ("a\u{200C}", P::StrayJoiner('\u{200C}')),
            ("1\u{200D}2", P::StrayJoiner('\u{200D}')),
            (".", P::LeadingDot),
            ("..", P::LeadingDot),
            (".hidden", P::LeadingDot),
            (" fig", P::LeadingSpace),
            ("fig.", P::TrailingDot),
            ("fig ", P::TrailingSpace),
            ("CON", P::Device("CON".into())),
            ("con", P::Device("con".into())),
            ("nul.txt", P::Device("nul".into())),
            ("Aux.tar.gz", P::Device("Aux".into())),
            ("PRN", P::Device("PRN".into())),
            ("com1", P::Device("com1".into())),
            ("LPT9", P::Device("LPT9".into())),
            ("COM0", P::Device("COM0".into())),
            ("COM¹", P::Device("COM¹".into())),
            ("lpt³.png", P::Device("lpt³".into())),
            ("NUL .x", P::Device("NUL".into())),
            ("C:x", P::Character(':')),
            ("a*b", P::Character('*')),
            ("a?", P::Character('?')),
            ("a<b>", P::Character('<')),
            ("a\"b", P::Character('"')),
            ("a|b", P::Character('|')),
            ("a\u{3000}b", P::Character('\u{3000}')),
            ("a\u{200B}b", P::Character('\u{200B}')),
            ("😀", P::Character('😀')),
        ];
        for (name, problem) in refused {
            assert_eq!(figure_name(name).as_ref(), Err(problem), "{name:?}");
        }
        let long = "图".repeat(MAX_NAME_CHARS + 1);
        assert_eq!(figure_name(&long), Err(P::TooLong(MAX_NAME_CHARS + 1)));
        let astral = "𠀀".repeat(51);
        assert_eq!(figure_name(&astral), Err(P::TooManyBytes(204)));
        // NFD input is measured after NFC: 64 `é` typed decomposed are 64 characters.
        assert!(figure_name(&"e\u{301}".repeat(64)).is_ok());
    }

    #[test]
    fn every_refusal_says_something_different() {
        let sentences: std::collections::BTreeSet<String> = [
            "",
            "a/b",
            "x\ny",
            "a\u{202E}",
            "\u{301}a",
            "a\u{200D}",
            ".a",
            " a",
            "a.",
            "a ",
            "CON",
            "a:b",
        ]
        .iter()
        .map(|n| figure_name(n).unwrap_err().to_string())
        .collect();
        assert_eq!(sentences.len(), 12, "{sentences:#?}");
    }

    #[test]
    fn full_case_folding_joins_what_macos_and_windows_join() {
        for (a, b) in [
            ("Straße", "STRASSE"),
            ("straße", "strasse"),
            ("Fig", "fIG"),
            ("Café", "CAFE\u{301}"),
            ("ΣΑΣ", "σας"),
        ] {
            assert_eq!(fold_key(a), fold_key(b), "{a} / {b}");
        }
        assert_ne!(fold_key("fig"), fold_key("fig-2"));
        assert_ne!(fold_key("图1"), fold_key("图2"));
    }
}
