//! One module per rule, ruff-style: the module's doc comment says what the rule stops,
//! why, and what to write instead; `RULE.instead` carries that last part into every
//! message, so the documentation and the instructional rejection say the same thing.

// The modules are declared here, not by `rules!`: rustfmt (and so `cargo fmt --check`)
// does not follow a module declared inside a macro. The compiler keeps the two lists
// together: a module without its registry line has no `RuleId` variant to name.
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
pub mod foreign_module;
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

/// The registry: one line per rule, `module => Variant, "kebab-name"`, in the rules' order
/// (the enum's, which orders diagnostics at one spot). From it [`rules!`] builds [`RuleId`],
/// [`RuleId::as_str`], [`ALL`] and the sources the documentation test reads. A new rule is a
/// module with its `RULE`, its `pub mod` line above, and a line in the table.
macro_rules! rules {
    ($($module:ident => $variant:ident, $name:literal;)*) => {
        /// Every rule of the checker. Its kebab-case name (`import-not-allowed`) is what the
        /// JSON contract, the hint and the window's editor show (serde's name is
        /// [`RuleId::as_str`], which a test keeps so).
        #[derive(
            Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, ts_rs::TS,
        )]
        #[serde(rename_all = "kebab-case")]
        pub enum RuleId {
            $($variant,)*
        }

        impl RuleId {
            pub const fn as_str(self) -> &'static str {
                match self {
                    $(RuleId::$variant => $name,)*
                }
            }
        }

        /// Every rule, for documentation and for the tests that keep ids unique.
        pub const ALL: &[&Rule] = &[$(&$module::RULE,)*];

        /// Each rule with its module's source, for the test that its documentation's
        /// "## Instead" says exactly the rule's `instead` (the text every message ends with).
        #[cfg(test)]
        const SOURCES: &[(&Rule, &str)] =
            &[$((&$module::RULE, include_str!(concat!(stringify!($module), ".rs"))),)*];

        /// Each rule's module name, for the test that its name is the module's, kebab-cased.
        #[cfg(test)]
        const MODULES: &[(RuleId, &str)] = &[$((RuleId::$variant, stringify!($module)),)*];
    };
}

rules! {
    encoding => Encoding, "encoding";
    input_too_large => InputTooLarge, "input-too-large";
    nesting_too_deep => NestingTooDeep, "nesting-too-deep";
    syntax_error => SyntaxError, "syntax-error";
    import_not_allowed => ImportNotAllowed, "import-not-allowed";
    relative_import => RelativeImport, "relative-import";
    star_import => StarImport, "star-import";
    blocked_submodule => BlockedSubmodule, "blocked-submodule";
    blocked_name => BlockedName, "blocked-name";
    forbidden_builtin => ForbiddenBuiltin, "forbidden-builtin";
    dunder_name => DunderName, "dunder-name";
    private_attribute => PrivateAttribute, "private-attribute";
    blocked_attribute => BlockedAttribute, "blocked-attribute";
    foreign_module => ForeignModule, "foreign-module";
    dangerous_api => DangerousApi, "dangerous-api";
    dangerous_keyword => DangerousKeyword, "dangerous-keyword";
    dangerous_rcparam => DangerousRcparam, "dangerous-rcparam";
    url_reader => UrlReader, "url-reader";
    format_string => FormatString, "format-string";
    class_construction => ClassConstruction, "class-construction";
    module_assignment => ModuleAssignment, "module-assignment";
    module_value => ModuleValue, "module-value";
    dataset_name => DatasetName, "dataset-name";
}

impl RuleId {
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

/// What a rule's check did with a name, path or node: let it pass, so the walk goes on
/// judging and binding it, or report it (now, or earlier in the file for a depth already
/// reported), so nothing more is said of it and it binds nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Reported,
}

impl Flow {
    /// The next rule's check, run only when this one let the name pass: the first rule
    /// that reports a name is the only one that does.
    pub fn then(self, next: impl FnOnce() -> Flow) -> Flow {
        match self {
            Flow::Continue => next(),
            Flow::Reported => Flow::Reported,
        }
    }

    pub fn passed(self) -> bool {
        self == Flow::Continue
    }

    pub fn reported(self) -> bool {
        self == Flow::Reported
    }
}

/// A rule's identity and its "write this instead" advice.
#[derive(Debug)]
pub struct Rule {
    pub id: RuleId,
    pub instead: &'static str,
}

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
    fn each_rules_name_is_its_module_kebab_cased() {
        assert_eq!(super::MODULES.len(), super::ALL.len());
        for (id, module) in super::MODULES {
            assert_eq!(id.as_str(), module.replace('_', "-"));
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
