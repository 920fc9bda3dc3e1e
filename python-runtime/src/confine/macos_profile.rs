//! The macOS Seatbelt profile as text: the fixed part (`macos.sb`) followed by one rule per
//! path of the plan. A pure function of resolved paths, so every case (spaces, quotes,
//! backslashes, non-ASCII names in `SRC`) is unit-tested on any OS; `macos.rs` resolves the
//! paths (Seatbelt matches real paths: `/tmp` is `/private/tmp`) and applies the text.

use super::ConfineReport;

/// The fixed part of the profile: its head goes before the plan's rules, its tail (from
/// [`TAIL_MARKER`] on) after them.
pub const BASE: &str = include_str!("macos.sb");

/// The comment line in `macos.sb` that starts the rules placed after the plan's: Seatbelt
/// lets the last matching rule decide, so a denial that must hold inside the run directory
/// has to follow the run directory's allowance.
pub const TAIL_MARKER: &str = ";; ---- after the plan's paths ----";

/// `macos.sb` split at [`TAIL_MARKER`] (the tail keeps the marker line).
fn base_parts() -> (&'static str, &'static str) {
    match BASE.find(TAIL_MARKER) {
        Some(at) => BASE.split_at(at),
        // The marker is in the data file the build includes; a test pins it.
        None => (BASE, ""),
    }
}

/// The plan's paths, resolved.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ProfilePaths {
    /// Readable: the executable file, the runtime, `SRC`.
    pub read_only: Vec<String>,
    /// Readable and writable: the run directory.
    pub read_write: Vec<String>,
    /// Where code may be mapped from (`dlopen` of extension modules): the executable file
    /// and the runtime, never `SRC` or the run directory, so a library the code
    /// finds in the data or writes itself cannot be loaded.
    pub code: Vec<String>,
}

/// The whole profile for `paths`.
pub fn profile(paths: &ProfilePaths) -> String {
    let (head, tail) = base_parts();
    let mut text = String::from(head);
    text.push_str(";; The plan's paths.\n");
    for path in &paths.read_only {
        text.push_str(&format!("(allow file-read* (subpath {}))\n", literal(path)));
    }
    for path in &paths.read_write {
        text.push_str(&format!(
            "(allow file-read* file-write* (subpath {}))\n",
            literal(path)
        ));
    }
    for path in &paths.code {
        text.push_str(&format!(
            "(allow file-map-executable (subpath {}))\n",
            literal(path)
        ));
    }
    // `stat` of the folders above each allowed path (realpath, getcwd and path checks walk
    // them); it shows that a folder exists, never what is in it.
    let mut above: Vec<String> = Vec::new();
    for path in paths.read_only.iter().chain(&paths.read_write) {
        for a in ancestors(path) {
            if !above.contains(&a) {
                above.push(a);
            }
        }
    }
    if !above.is_empty() {
        text.push_str("(allow file-read-metadata");
        for a in &above {
            text.push_str(&format!("\n    (literal {})", literal(a)));
        }
        text.push_str(")\n");
    }
    text.push('\n');
    text.push_str(tail);
    text
}

/// The report once `sandbox_init` accepted the profile: the profile and the rlimits that
/// were set; `missing` holds the limits that could not be (the memory limit when the task's
/// mapped size could not be read).
pub fn describe(limits: &[String], missing: Vec<String>) -> ConfineReport {
    let enforced = vec![
        "seatbelt (files, network, process exec/fork, mach services, sysctl)".to_owned(),
        format!("rlimits ({})", limits.join(", ")),
    ];
    ConfineReport::new(enforced, missing, None)
}

/// A path as an SBPL string literal: `\` and `"` escaped, everything else (spaces,
/// parentheses, non-ASCII) kept as it is — inside a string literal they are plain text.
pub fn literal(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len() + 2);
    out.push('"');
    for c in raw.chars() {
        if c == '\\' || c == '"' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

/// The folders above an absolute path, from `/` down, not the path itself.
pub fn ancestors(path: &str) -> Vec<String> {
    let mut out = vec!["/".to_owned()];
    let parts: Vec<&str> = path.split('/').filter(|p| !p.is_empty()).collect();
    let mut current = String::new();
    for part in parts.iter().take(parts.len().saturating_sub(1)) {
        current.push('/');
        current.push_str(part);
        out.push(current.clone());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The S-expressions of an SBPL text, as far as this profile uses them: lists, atoms,
    /// string literals with `\` escapes, `;` comments. Returns the string literals in order
    /// and fails on anything unbalanced — what `sandbox_init` would reject or misread.
    fn string_literals(text: &str) -> Result<Vec<String>, String> {
        let mut depth = 0i32;
        let mut strings = Vec::new();
        let mut chars = text.chars();
        while let Some(c) = chars.next() {
            match c {
                ';' => {
                    for c in chars.by_ref() {
                        if c == '\n' {
                            break;
                        }
                    }
                }
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth < 0 {
                        return Err("unbalanced `)`".into());
                    }
                }
                '"' => {
                    let mut s = String::new();
                    loop {
                        match chars.next() {
                            None => return Err("unterminated string".into()),
                            Some('\\') => match chars.next() {
                                Some(e) => s.push(e),
                                None => return Err("dangling escape".into()),
                            },
                            Some('"') => break,
                            Some(other) => s.push(other),
                        }
                    }
                    strings.push(s);
                }
                _ => {}
            }
        }
        if depth != 0 {
            return Err(format!("{depth} unclosed `(`"));
        }
        Ok(strings)
    }

    const NASTY_SRC: &str = "/Users/ana/Daten \"roh\") (allow default) (\\ — Messung ü/日本語 data";

    fn paths() -> ProfilePaths {
        ProfilePaths {
            read_only: vec![
                "/Applications/PDFAgent.app/Contents/MacOS/pdfagent".into(),
                "/Applications/PDFAgent.app/Contents/Resources/runtime".into(),
                NASTY_SRC.into(),
            ],
            read_write: vec!["/private/var/folders/x1/abc/T/pdfagent-run-1".into()],
            code: vec![
                "/Applications/PDFAgent.app/Contents/MacOS/pdfagent".into(),
                "/Applications/PDFAgent.app/Contents/Resources/runtime".into(),
            ],
        }
    }

    #[test]
    fn quotes_and_backslashes_cannot_end_the_literal() {
        assert_eq!(literal(r#"/a"b\c"#), r#""/a\"b\\c""#);
        assert_eq!(
            literal(r#"/x") (allow default) ("#),
            r#""/x\") (allow default) (""#
        );
        assert_eq!(literal("/Users/ü 日本"), "\"/Users/ü 日本\"");
    }

    #[test]
    fn every_path_survives_as_one_string_literal() {
        let text = profile(&paths());
        let strings = string_literals(&text).expect("the profile must be balanced");
        assert!(strings.iter().any(|s| s == NASTY_SRC), "{strings:?}");
        // The hostile name adds no rule: the only `allow default`-like text is inside it.
        assert!(
            !text
                .lines()
                .any(|l| l.trim_start().starts_with("(allow default"))
        );
        assert_eq!(
            text.matches(&format!(
                "(allow file-read* (subpath {}))",
                literal(NASTY_SRC)
            ))
            .count(),
            1
        );
    }

    #[test]
    fn src_is_read_only_and_never_code() {
        let text = profile(&paths());
        let src = literal(NASTY_SRC);
        for line in text.lines().filter(|l| l.contains(&src)) {
            assert!(
                line.starts_with("(allow file-read* (subpath")
                    || line.trim_start().starts_with("(literal"),
                "SRC may only be read: {line}"
            );
            assert!(!line.contains("file-write"), "{line}");
            assert!(!line.contains("file-map-executable"), "{line}");
        }
        let run = literal("/private/var/folders/x1/abc/T/pdfagent-run-1");
        assert!(text.contains(&format!("(allow file-read* file-write* (subpath {run}))")));
        assert!(!text.contains(&format!("(allow file-map-executable (subpath {run}))")));
    }

    #[test]
    fn denies_come_first_and_nothing_reopens_network_or_processes() {
        // Benign paths: the hostile name's own text is checked in the test above.
        let mut benign = paths();
        benign.read_only[2] = "/Users/ana/data".into();
        let text = profile(&benign);
        let first_allow = text.find("(allow").unwrap();
        for deny in [
            "(deny default)",
            "(deny network*)",
            "(deny process-exec*)",
            "(deny process-fork)",
            "(deny mach-lookup)",
            "(deny file-map-executable)",
            "(deny process-info*)",
        ] {
            let at = text.find(deny).unwrap_or_else(|| panic!("{deny} missing"));
            assert!(at < first_allow, "{deny} must precede every allow");
        }
        for reopened in [
            "(allow network",
            "(allow process-exec",
            "(allow process-fork",
            "(allow mach-lookup",
            "(allow file-write* (subpath \"/",
            "(allow default",
            "(allow sysctl-read)",
            "(allow file-read-metadata)",
        ] {
            assert!(
                !text.contains(reopened),
                "`{reopened}` must not be in the profile"
            );
        }
        // Other processes stay out of reach: info, signals and their sysctl records.
        assert!(text.contains("(allow process-info* (target self))"));
        assert!(text.contains("(allow signal (target self))"));
        let rules: Vec<&str> = text
            .lines()
            .filter(|l| !l.trim_start().starts_with(';'))
            .collect();
        assert!(
            !rules.iter().any(|l| l.contains("kern.proc")),
            "kern.proc.* describes other processes"
        );
        assert!(string_literals(BASE).is_ok());
    }

    #[test]
    fn report_says_what_holds_and_what_does_not() {
        let limits = ["memory 4096 MiB beyond the 900 MiB mapped at start".to_owned()];
        let r = describe(&limits, Vec::new());
        assert!(r.fully_enforced, "{r:?}");
        assert!(
            r.summary.starts_with("confinement: seatbelt"),
            "{}",
            r.summary
        );
        assert!(r.summary.contains("memory 4096 MiB"), "{}", r.summary);
        let r = describe(&[], vec!["memory limit (unreadable)".into()]);
        assert!(!r.fully_enforced);
        assert!(
            r.summary.contains("NOT enforced: memory limit"),
            "{}",
            r.summary
        );
    }

    #[test]
    fn metadata_only_on_the_folders_above() {
        assert_eq!(
            ancestors("/Users/ana/data"),
            vec!["/".to_owned(), "/Users".into(), "/Users/ana".into()]
        );
        assert_eq!(ancestors("/"), vec!["/".to_owned()]);
        let text = profile(&paths());
        let start = text.find("(allow file-read-metadata").unwrap();
        let rule = &text[start..];
        let rule = &rule[..rule.find("))\n").map(|i| i + 2).unwrap_or(rule.len())];
        let listed = string_literals(rule).unwrap();
        assert!(listed.contains(&"/Users/ana".to_owned()), "{listed:?}");
        assert!(listed.contains(&"/private/var/folders/x1/abc/T".to_owned()));
        // Each once, and never a folder's content (literal, not subpath).
        let mut sorted = listed.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), listed.len());
        assert!(!rule.contains("subpath"));
    }

    /// Issue 27: what outlives a run (SysV and POSIX IPC objects) and what changes the
    /// machine (sysctl writes, the clock) is denied by name before any allow, and no allow
    /// reopens it — `(deny default)` would cover them, the profile says so out loud.
    #[test]
    fn ipc_sysctl_writes_and_the_clock_are_denied() {
        let text = profile(&paths());
        let first_allow = text.find("(allow").unwrap();
        for deny in [
            "(deny ipc-sysv*)",
            "(deny ipc-posix*)",
            "(deny sysctl-write)",
            "(deny system-set-time)",
        ] {
            let at = text.find(deny).unwrap_or_else(|| panic!("{deny} missing"));
            assert!(at < first_allow, "{deny} must precede every allow");
        }
        let rules: Vec<&str> = text
            .lines()
            .map(str::trim_start)
            .filter(|l| !l.starts_with(';'))
            .collect();
        for reopened in [
            "(allow ipc",
            "(allow sysctl-write",
            "(allow sysctl*",
            "(allow sysctl)",
            "(allow system",
        ] {
            assert!(
                !rules.iter().any(|l| l.starts_with(reopened)),
                "`{reopened}` must not be in the profile"
            );
        }
        // Reading kernel facts stays, by name only.
        assert!(rules.iter().any(|l| l.starts_with("(allow sysctl-read")));
        assert!(!rules.contains(&"(allow sysctl-read)"));
    }

    /// Issue 27, "keep administrator rights": a worker started as root may write its run
    /// directory but never give a file away (`chown`) or mark one set-user-ID. The denial
    /// must come after the run directory's `file-write*` (the last matching rule decides)
    /// and nothing after it may allow either again.
    #[test]
    fn ownership_and_set_id_bits_are_denied_after_every_allow() {
        const DENY: &str = "(deny file-write-owner file-write-setugid (subpath \"/\"))";
        assert!(BASE.contains(TAIL_MARKER), "macos.sb lost its tail marker");
        let (head, tail) = base_parts();
        assert!(
            !head.contains(DENY),
            "the denial must not precede the plan's rules"
        );
        assert!(tail.contains(DENY), "{tail}");
        let text = profile(&paths());
        let run = literal("/private/var/folders/x1/abc/T/pdfagent-run-1");
        let allow_run = text
            .find(&format!("(allow file-read* file-write* (subpath {run}))"))
            .expect("the run directory is writable");
        let deny = text.find(DENY).expect("the denial is in the profile");
        assert!(
            deny > allow_run,
            "the denial must follow the run directory's allowance"
        );
        let after: Vec<&str> = text[deny..]
            .lines()
            .map(str::trim_start)
            .filter(|l| !l.starts_with(';') && !l.is_empty())
            .collect();
        assert_eq!(after, [DENY], "nothing may follow the denial");
        assert_eq!(text.matches(DENY).count(), 1);
        assert!(string_literals(&text).is_ok());
    }

    /// The executable is named as a file: its folder (where a user's file may lie in a
    /// portable install) is neither readable nor mappable.
    #[test]
    fn the_executable_is_a_file_rule_not_its_folder() {
        let text = profile(&paths());
        assert!(text.contains(
            "(allow file-read* (subpath \"/Applications/PDFAgent.app/Contents/MacOS/pdfagent\"))"
        ));
        assert!(!text.contains("(subpath \"/Applications/PDFAgent.app/Contents/MacOS\")"));
    }
}
