//! `pdfagent versions NAME --figures DIR [--json] [--prune --keep N | --older-than DAYS
//! [--dry-run]]`: the earlier versions of a figure, kept in `FIGURES/.pdfagent-versions/`
//! every time a run replaced it (`python_runtime::versions`), and the
//! store's size; `--prune` removes the versions the policy selects and says which. Exit
//! status: 0 shown (or pruned), 4 bad input.

use python_runtime::validate;
use python_runtime::versions::{self, PrunePolicy, VersionInfo};
use std::path::PathBuf;
use std::time::Duration;

#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  pdfagent versions bands --figures figures\n  \
    pdfagent restore bands 2 --figures figures\n  \
    pdfagent provenance figures/bands.png --version 2\n  \
    pdfagent versions bands --figures figures --prune --keep 5 --dry-run"
)]
pub struct VersionsArgs {
    /// The figure's name (its file stem: `bands` for `bands.png`).
    #[arg(value_name = "NAME")]
    name: String,
    /// The figures folder the figure is in.
    #[arg(long, value_name = "DIR")]
    figures: PathBuf,
    /// Remove versions: those beyond the newest --keep N, and those kept more than
    /// --older-than DAYS ago. Every removed version is listed.
    #[arg(long)]
    prune: bool,
    /// With --prune: keep this many of the newest versions.
    #[arg(long, value_name = "N", requires = "prune")]
    keep: Option<usize>,
    /// With --prune: remove versions kept more than this many days ago.
    #[arg(long, value_name = "DAYS", requires = "prune")]
    older_than: Option<u64>,
    /// With --prune: say what would be removed, remove nothing.
    #[arg(long, requires = "prune")]
    dry_run: bool,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(args: VersionsArgs) -> i32 {
    let name = match validate::figure_name(&args.name) {
        Ok(name) => name,
        Err(e) => return super::restore::fail(args.json, &e.to_string()),
    };
    if !args.figures.is_dir() {
        return super::restore::fail(
            args.json,
            &format!(
                "the figures folder `{}` does not exist: pass the folder the figure is in",
                args.figures.display()
            ),
        );
    }
    if args.prune {
        return prune(&args, &name);
    }
    let list = match versions::list(&args.figures, &name) {
        Ok(list) => list,
        Err(e) => return super::restore::fail(args.json, &e.to_string()),
    };
    let size = versions::store_size(&args.figures);
    let current: Vec<PathBuf> = ["png", "svg", "pdf", "jpg"]
        .iter()
        .map(|ext| args.figures.join(format!("{name}.{ext}")))
        .filter(|p| p.is_file())
        .collect();
    if args.json {
        let value = serde_json::json!({
            "ok": true,
            "name": name,
            "current": current,
            "versions": list,
            "store": size,
        });
        outln!("{value}");
        return 0;
    }
    if list.is_empty() {
        outln!(
            "`{name}` has no earlier versions in `{}`.",
            args.figures.display()
        );
    } else {
        outln!(
            "{} earlier version(s) of `{name}`, oldest first:",
            list.len()
        );
        for v in &list {
            print_version(v);
        }
        outln!(
            "Restore one with `pdfagent restore {name} VERSION --figures {}`.",
            args.figures.display()
        );
    }
    match current.first() {
        Some(path) => outln!("Current: {}", path.display()),
        None => outln!("`{name}` has no current figure."),
    }
    outln!(
        "The store holds {} version(s) of {} name(s), {} bytes.",
        size.versions,
        size.names,
        size.bytes
    );
    0
}

fn prune(args: &VersionsArgs, name: &str) -> i32 {
    if args.keep.is_none() && args.older_than.is_none() {
        return super::restore::fail(
            args.json,
            "--prune needs --keep N or --older-than DAYS: say which versions to remove",
        );
    }
    let policy = PrunePolicy {
        keep_last: args.keep,
        older_than: args
            .older_than
            .map(|days| Duration::from_secs(days.saturating_mul(86_400))),
        dry_run: args.dry_run,
    };
    let pruned = match versions::prune(&args.figures, Some(name), policy) {
        Ok(pruned) => pruned,
        Err(e) => return super::restore::fail(args.json, &e.to_string()),
    };
    if args.json {
        outln!(
            "{}",
            serde_json::json!({"ok": true, "name": name, "pruned": pruned})
        );
        return 0;
    }
    let verb = if pruned.dry_run {
        "Would remove"
    } else {
        "Removed"
    };
    if pruned.removed.is_empty() {
        outln!("No version of `{name}` matches: nothing removed.");
    } else {
        outln!(
            "{verb} {} version(s) of `{name}` ({} bytes):",
            pruned.removed.len(),
            pruned.bytes
        );
        for v in &pruned.removed {
            print_version(v);
        }
    }
    0
}

fn print_version(v: &VersionInfo) {
    let code = v
        .code_sha256
        .as_deref()
        .map(|c| format!(", code {}…", &c[..c.len().min(12)]))
        .unwrap_or_default();
    outln!(
        "  {:>4}  submitted {}  kept {}  {} file(s), {} bytes{code}",
        v.version,
        v.submitted,
        v.kept,
        v.files.len(),
        v.bytes
    );
    outln!("        {}", v.path.display());
}
