//! One module per rule, ruff-style: the module's doc comment says what the rule stops,
//! why, and what to write instead; `RULE.instead` carries that last part into every
//! message, so the documentation and the instructional rejection say the same thing.

pub mod blocked_attribute;
pub mod blocked_name;
pub mod blocked_submodule;
pub mod class_construction;
pub mod dangerous_api;
pub mod dangerous_keyword;
pub mod dangerous_rcparam;
pub mod dataset_name;
pub mod dunder_name;
pub mod encoding;
pub mod forbidden_builtin;
pub mod format_string;
pub mod import_not_allowed;
pub mod input_too_large;
pub mod module_assignment;
pub mod module_value;
pub mod nesting_too_deep;
pub mod private_attribute;
pub mod relative_import;
pub mod star_import;
pub mod syntax_error;
pub mod url_reader;

/// Every rule of the checker. Its kebab-case name (`import-not-allowed`) is what the JSON
/// contract, the hint and the window's editor show (serde's name is [`RuleId::as_str`],
/// which a test keeps so).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, ts_rs::TS)]
#[serde(rename_all = "kebab-case")]
pub enum RuleId {
    Encoding,
    InputTooLarge,
    NestingTooDeep,
    SyntaxError,
    ImportNotAllowed,
    RelativeImport,
    StarImport,
    BlockedSubmodule,
    BlockedName,
    ForbiddenBuiltin,
    DunderName,
    PrivateAttribute,
    BlockedAttribute,
    DangerousApi,
    DangerousKeyword,
    DangerousRcparam,
    UrlReader,
    FormatString,
    ClassConstruction,
    ModuleAssignment,
    ModuleValue,
    DatasetName,
}

impl RuleId {
    pub const fn as_str(self) -> &'static str {
        match self {
            RuleId::Encoding => "encoding",
            RuleId::InputTooLarge => "input-too-large",
            RuleId::NestingTooDeep => "nesting-too-deep",
            RuleId::SyntaxError => "syntax-error",
            RuleId::ImportNotAllowed => "import-not-allowed",
            RuleId::RelativeImport => "relative-import",
            RuleId::StarImport => "star-import",
            RuleId::BlockedSubmodule => "blocked-submodule",
            RuleId::BlockedName => "blocked-name",
            RuleId::ForbiddenBuiltin => "forbidden-builtin",
            RuleId::DunderName => "dunder-name",
            RuleId::PrivateAttribute => "private-attribute",
            RuleId::BlockedAttribute => "blocked-attribute",
            RuleId::DangerousApi => "dangerous-api",
            RuleId::DangerousKeyword => "dangerous-keyword",
            RuleId::DangerousRcparam => "dangerous-rcparam",
            RuleId::UrlReader => "url-reader",
            RuleId::FormatString => "format-string",
            RuleId::ClassConstruction => "class-construction",
            RuleId::ModuleAssignment => "module-assignment",
            RuleId::ModuleValue => "module-value",
            RuleId::DatasetName => "dataset-name",
        }
    }

    /// The rule itself: its advice.
    pub fn rule(self) -> &'static Rule {
        ALL.iter()
            .copied()
            .find(|r| r.id == self)
            .unwrap_or(&syntax_error::RULE)
    }
}

impl std::fmt::Display for RuleId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A rule's identity and its "write this instead" advice.
#[derive(Debug)]
pub struct Rule {
    pub id: RuleId,
    pub instead: &'static str,
}

/// Every rule, for documentation and for the tests that keep ids unique.
pub const ALL: &[&Rule] = &[
    &encoding::RULE,
    &input_too_large::RULE,
    &nesting_too_deep::RULE,
    &syntax_error::RULE,
    &import_not_allowed::RULE,
    &relative_import::RULE,
    &star_import::RULE,
    &blocked_submodule::RULE,
    &blocked_name::RULE,
    &forbidden_builtin::RULE,
    &dunder_name::RULE,
    &private_attribute::RULE,
    &blocked_attribute::RULE,
    &dangerous_api::RULE,
    &dangerous_keyword::RULE,
    &dangerous_rcparam::RULE,
    &url_reader::RULE,
    &format_string::RULE,
    &class_construction::RULE,
    &module_assignment::RULE,
    &module_value::RULE,
    &dataset_name::RULE,
];

/// Test helper shared by the rule modules: `(line, col, rule)` of every violation.
#[cfg(test)]
pub(crate) fn diagnostics(code: &str) -> Vec<(usize, usize, String)> {
    match super::check(code.as_bytes()) {
        Ok(_) => Vec::new(),
        Err(r) => r
            .diagnostics
            .into_iter()
            .map(|d| (d.line, d.col, d.rule.as_str().to_owned()))
            .collect(),
    }
}

/// Test helper: the code passes.
#[cfg(test)]
pub(crate) fn assert_accepts(code: &str) {
    if let Err(r) = super::check(code.as_bytes()) {
        panic!("expected `{code}` to pass, got {:#?}", r.errors);
    }
}

/// Test helper: the code is rejected with exactly these `(line, col, rule)` diagnostics.
#[cfg(test)]
pub(crate) fn assert_rejects(code: &str, expected: &[(usize, usize, &str)]) {
    let got = diagnostics(code);
    let want: Vec<(usize, usize, String)> = expected
        .iter()
        .map(|(l, c, r)| (*l, *c, (*r).to_owned()))
        .collect();
    assert_eq!(got, want, "diagnostics of `{code}`");
}

/// Each rule with its module's source, for the test that its documentation's "## Instead"
/// says exactly the rule's `instead` (the text every message ends with).
#[cfg(test)]
const SOURCES: &[(&Rule, &str)] = &[
    (&encoding::RULE, include_str!("encoding.rs")),
    (&input_too_large::RULE, include_str!("input_too_large.rs")),
    (&nesting_too_deep::RULE, include_str!("nesting_too_deep.rs")),
    (&syntax_error::RULE, include_str!("syntax_error.rs")),
    (
        &import_not_allowed::RULE,
        include_str!("import_not_allowed.rs"),
    ),
    (&relative_import::RULE, include_str!("relative_import.rs")),
    (&star_import::RULE, include_str!("star_import.rs")),
    (
        &blocked_submodule::RULE,
        include_str!("blocked_submodule.rs"),
    ),
    (&blocked_name::RULE, include_str!("blocked_name.rs")),
    (
        &forbidden_builtin::RULE,
        include_str!("forbidden_builtin.rs"),
    ),
    (&dunder_name::RULE, include_str!("dunder_name.rs")),
    (
        &private_attribute::RULE,
        include_str!("private_attribute.rs"),
    ),
    (
        &blocked_attribute::RULE,
        include_str!("blocked_attribute.rs"),
    ),
    (&dangerous_api::RULE, include_str!("dangerous_api.rs")),
    (
        &dangerous_keyword::RULE,
        include_str!("dangerous_keyword.rs"),
    ),
    (
        &dangerous_rcparam::RULE,
        include_str!("dangerous_rcparam.rs"),
    ),
    (&url_reader::RULE, include_str!("url_reader.rs")),
    (&format_string::RULE, include_str!("format_string.rs")),
    (
        &class_construction::RULE,
        include_str!("class_construction.rs"),
    ),
    (
        &module_assignment::RULE,
        include_str!("module_assignment.rs"),
    ),
    (&module_value::RULE, include_str!("module_value.rs")),
    (&dataset_name::RULE, include_str!("dataset_name.rs")),
];

/// The first paragraph after `//! ## Instead`, its lines joined by spaces.
#[cfg(test)]
fn documented_instead(source: &str) -> Option<String> {
    let mut lines = source
        .lines()
        .skip_while(|l| l.trim() != "//! ## Instead")
        .skip(1);
    let words: Vec<&str> = lines
        .by_ref()
        .map_while(|l| l.strip_prefix("//!"))
        .take_while(|l| !l.trim().is_empty())
        .map(str::trim)
        .collect();
    (!words.is_empty()).then(|| words.join(" "))
}

#[cfg(test)]
mod tests {
    #[test]
    fn each_rules_documentation_says_its_instead() {
        assert_eq!(super::SOURCES.len(), super::ALL.len());
        for (rule, source) in super::SOURCES {
            assert_eq!(
                super::documented_instead(source).as_deref(),
                Some(rule.instead),
                "the doc comment of `{}` says another \"## Instead\"",
                rule.id
            );
        }
    }

    #[test]
    fn every_rule_id_has_its_rule_and_serialises_as_its_name() {
        for rule in super::ALL {
            let found = rule.id.rule();
            assert!(
                found.id == rule.id && found.instead == rule.instead,
                "{}",
                rule.id
            );
            assert_eq!(
                serde_json::to_string(&rule.id).ok(),
                Some(format!("\"{}\"", rule.id))
            );
        }
    }

    #[test]
    fn rule_ids_are_unique_and_kebab_case() {
        let mut ids: Vec<_> = super::ALL.iter().map(|r| r.id.as_str()).collect();
        for id in &ids {
            assert!(
                id.chars().all(|c| c.is_ascii_lowercase() || c == '-'),
                "{id}"
            );
        }
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), super::ALL.len());
    }
}
