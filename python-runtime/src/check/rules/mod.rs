//! One module per rule, ruff-style: the module's doc comment says what the rule stops,
//! why, and what to write instead; `RULE.instead` carries that last part into every
//! message, so the documentation and the instructional rejection say the same thing.

pub mod blocked_attribute;
pub mod blocked_name;
pub mod blocked_submodule;
pub mod dangerous_api;
pub mod dangerous_keyword;
pub mod dangerous_rcparam;
pub mod dunder_name;
pub mod encoding;
pub mod forbidden_builtin;
pub mod format_string;
pub mod import_not_allowed;
pub mod input_too_large;
pub mod nesting_too_deep;
pub mod private_attribute;
pub mod relative_import;
pub mod star_import;
pub mod syntax_error;
pub mod url_reader;

/// A rule's identity and its "write this instead" advice.
#[derive(Debug)]
pub struct Rule {
    pub id: &'static str,
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
];

/// Test helper shared by the rule modules: `(line, col, rule)` of every violation.
#[cfg(test)]
pub(crate) fn diagnostics(code: &str) -> Vec<(usize, usize, String)> {
    match super::check(code.as_bytes()) {
        Ok(_) => Vec::new(),
        Err(r) => r
            .errors
            .into_iter()
            .map(|v| (v.line, v.col, v.rule))
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

#[cfg(test)]
mod tests {
    #[test]
    fn rule_ids_are_unique_and_kebab_case() {
        let mut ids: Vec<_> = super::ALL.iter().map(|r| r.id).collect();
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
