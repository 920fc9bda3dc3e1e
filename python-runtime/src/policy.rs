//! The policy file (`allowlist.toml`), compiled into the binary and parsed in this one place.

use serde::Deserialize;

/// The raw text of the policy, as shipped.
pub const POLICY_TOML: &str = include_str!("../allowlist.toml");

#[derive(Debug, Clone, Deserialize)]
pub struct AllowedModule {
    pub name: String,
    /// The pip distribution that provides the module, or `"stdlib"`.
    pub distribution: String,
    pub reason: String,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Policy {
    #[serde(rename = "module")]
    pub modules: Vec<AllowedModule>,
}

impl Policy {
    /// The policy compiled into this binary. The file is ours and tested, so a parse
    /// failure is a build defect, caught by the tests below.
    pub fn builtin() -> &'static Policy {
        use std::sync::OnceLock;
        static POLICY: OnceLock<Policy> = OnceLock::new();
        POLICY.get_or_init(|| {
            toml::from_str(POLICY_TOML).expect("allowlist.toml shipped in the binary must parse")
        })
    }

    pub fn module_names(&self) -> impl Iterator<Item = &str> {
        self.modules.iter().map(|m| m.name.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_policy_parses_and_every_module_has_a_reason() {
        let policy = Policy::builtin();
        assert!(!policy.modules.is_empty());
        for m in &policy.modules {
            assert!(!m.reason.trim().is_empty(), "{} has no reason", m.name);
        }
    }
}
