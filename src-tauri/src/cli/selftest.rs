//! `pdfagent selftest [--json]`: exit 0 only when every check passed.

use python_runtime::Outcome;
use python_runtime::selftest::{self, SelftestReport};

#[derive(Debug, clap::Args)]
pub struct SelftestArgs {
    /// Print one JSON object (`{"ok": true|false, ...}`) instead of text.
    #[arg(long)]
    json: bool,
}

/// Exit status when a check failed.
pub const EXIT_FAILED: i32 = 1;

pub fn run(args: SelftestArgs) -> i32 {
    let report = selftest::run();
    if args.json {
        match serde_json::to_string_pretty(&report) {
            Ok(text) => outln!("{text}"),
            Err(err) => {
                outln!(r#"{{"ok": false, "error": "could not encode the report: {err}"}}"#);
                return EXIT_FAILED;
            }
        }
    } else {
        out!("{}", human(&report));
    }
    if report.ok {
        0
    } else if report.updated.is_some() {
        Outcome::Updated.exit_code()
    } else {
        EXIT_FAILED
    }
}

/// `imports 17/17 · savefig 18,250 bytes · 1.4 s`, then the facts and any failed checks; or
/// only the sentence to restart, when nothing was tried.
fn human(report: &SelftestReport) -> String {
    if let Some(updated) = &report.updated {
        return format!("{updated}\n");
    }
    let mut out = String::new();
    let savefig = report
        .savefig
        .as_ref()
        .map(|s| format!("savefig {} bytes", thousands(s.bytes)))
        .unwrap_or_else(|| "savefig —".into());
    out.push_str(&format!(
        "{} imports {}/{} · {savefig} · {:.1} s\n",
        if report.ok { "ok" } else { "FAILED" },
        report.imports.ok,
        report.imports.total,
        report.total_ms / 1000.0
    ));
    if let Some(runtime) = &report.runtime {
        out.push_str(&format!("  runtime     {}\n", runtime.display()));
    }
    if let Some(lib) = &report.libpython {
        out.push_str(&format!("  libpython   {}\n", lib.display()));
    }
    if let Some(py) = &report.interpreter {
        let inside = py.path.iter().filter(|p| p.inside_runtime).count();
        out.push_str(&format!(
            "  python      {} · isolated {} · prefix {}{}\n",
            py.version,
            py.isolated,
            py.prefix,
            if py.prefix_inside_runtime {
                " (inside the runtime)"
            } else {
                " (OUTSIDE the runtime)"
            }
        ));
        out.push_str(&format!(
            "  sys.path    {inside}/{} entries inside the runtime\n",
            py.path.len()
        ));
        for entry in &py.path {
            out.push_str(&format!(
                "              {} {}\n",
                if entry.inside_runtime { "·" } else { "✗" },
                entry.path
            ));
        }
    }
    if let Some(confinement) = &report.confinement {
        // The summary is a line of its own elsewhere ("confinement: …"); here the column
        // names it already.
        let summary = &confinement.summary;
        let summary = summary.strip_prefix("confinement: ").unwrap_or(summary);
        out.push_str(&format!("  confinement {summary}\n"));
    }
    let steps: Vec<String> = report
        .steps
        .iter()
        .map(|s| format!("{} {:.0} ms", s.name, s.ms))
        .collect();
    out.push_str(&format!("  steps       {}\n", steps.join(" · ")));
    for check in report
        .checks
        .iter()
        .filter(|c| c.ok && c.name.starts_with("canary: "))
    {
        out.push_str(&format!("  ✓ {}: {}\n", check.name, check.detail));
    }
    for check in report.checks.iter().filter(|c| !c.ok) {
        out.push_str(&format!("  ✗ {}: {}\n", check.name, check.detail));
    }
    if !report.ok && !report.stderr_tail.trim().is_empty() {
        out.push_str("  worker stderr (tail):\n");
        for line in report
            .stderr_tail
            .lines()
            .rev()
            .take(15)
            .collect::<Vec<_>>()
            .iter()
            .rev()
        {
            out.push_str(&format!("    {line}\n"));
        }
    }
    out
}

/// 18250 → "18,250".
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::thousands;

    #[test]
    fn thousands_groups_digits() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(18250), "18,250");
        assert_eq!(thousands(1234567), "1,234,567");
    }
}
