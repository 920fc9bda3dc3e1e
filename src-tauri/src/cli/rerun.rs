//! `pdfagent rerun FIGURE [--version N] --src DIR [--figures DIR] [--json]`: make a figure
//! again from the code embedded in it (or in its earlier version N; a file in the versions
//! store works too, and is saved into the figures folder the store belongs to), on the data in `--src`, through the same pipeline as `make-figure`
//! (the embedded code is untrusted input: Layer 1 checks it again, Layer 2 confines it).
//! The figure is saved under the FILE's name, in its own folder (or `--figures`), never under
//! the name its record carries: a rerun of a copy `c.png` writes `c.png`, and a record that
//! names another figure is reported, not followed. An extra figure of a run (`a-2.png`, as
//! the folder's index records) re-runs that run, all its figures (see
//! `provenance::folder::rerun_of`).
//! `pdfagent rerun --all DIR --src DIR [--figures DIR]` lists, then re-runs, every figure of
//! `DIR` whose data changed, once per run, up to one per core at once, and reports each.
//! Exit status: as `make-figure` for one figure; with `--all`, 0 when every re-run (if any)
//! succeeded, 2 otherwise, 4 bad input.

use python_runtime::CancelFlag;
use python_runtime::contract::InputRule;
use python_runtime::provenance::{self, folder};
use python_runtime::versions;
use python_runtime::{FigureResult, Limits, Outcome, WarmPool};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

#[derive(Debug, clap::Args)]
pub struct RerunArgs {
    /// The figure to make again (PNG, SVG or PDF made by PDFAgent).
    #[arg(
        value_name = "FIGURE",
        required_unless_present = "all",
        conflicts_with = "all"
    )]
    figure: Option<PathBuf>,
    /// Re-run this earlier version of FIGURE (as `pdfagent versions NAME` lists it): its
    /// code makes a new current figure, and the current one is kept as a version.
    #[arg(long, value_name = "N", conflicts_with = "all")]
    version: Option<String>,
    /// Re-run every figure of this folder whose data files changed.
    #[arg(long, value_name = "DIR")]
    all: Option<PathBuf>,
    /// The data folder the code reads (its `SRC`).
    #[arg(long, value_name = "DIR")]
    src: PathBuf,
    /// Where the new figure is saved (created if missing); the figure's own folder (with
    /// --all, DIR) when absent.
    #[arg(long, value_name = "DIR")]
    figures: Option<PathBuf>,
    #[command(flatten)]
    limits: super::LimitArgs,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(args: RerunArgs) -> i32 {
    let limits = args.limits.limits();
    let cancel: CancelFlag = Arc::new(AtomicBool::new(false));
    crate::cli::interrupt::cancel_on_interrupt(&cancel);
    match (&args.figure, &args.all) {
        (Some(figure), _) => one(&args, figure, limits, &cancel),
        (None, Some(dir)) => all(&args, dir, limits, &cancel),
        (None, None) => input_error(args.json, "name a FIGURE, or a folder with --all DIR"),
    }
}

fn one(args: &RerunArgs, figure: &Path, limits: Limits, cancel: &CancelFlag) -> i32 {
    let version_file;
    let figure = match &args.version {
        Some(version) => match version_path(figure, version) {
            Ok(path) => {
                version_file = path;
                version_file.as_path()
            }
            Err(e) => return input_error(args.json, &e.to_string()),
        },
        None => figure,
    };
    let record = match provenance::read(figure) {
        Ok((_, Some(record))) => record,
        Ok((_, None)) => {
            return input_error(
                args.json,
                &format!(
                    "`{}` carries no PDFAgent provenance record, so there is no code to re-run: \
                     make it with `pdfagent make-figure`",
                    figure.display()
                ),
            );
        }
        Err(e) => return input_error(args.json, &e.to_string()),
    };
    let figures = saved_into(args, figure);
    let rerun = match folder::rerun_of(figure, &record, &args.src, &figures, limits) {
        Ok(rerun) => rerun,
        Err(e) => return input_error(args.json, &e.to_string()),
    };
    let result = python_runtime::make_figure(&rerun.request, cancel, &|_| {});
    if args.json {
        let mut value = serde_json::to_value(&result).unwrap_or_default();
        value["rerun_as"] = rerun.request.name.clone().into();
        value["note"] = rerun.note.clone().into();
        outln!("{value}");
    } else {
        if let Some(note) = &rerun.note {
            outln!("note: {note}");
        }
        print_result(&figure.display().to_string(), &result);
    }
    result.stage.exit_code()
}

impl RerunArgs {
    /// The figures folder the re-run saves into (swept when the command starts).
    pub(super) fn figures_folder(&self) -> Option<PathBuf> {
        match (&self.figure, &self.all) {
            (Some(figure), _) => Some(saved_into(self, figure)),
            (None, Some(dir)) => Some(self.figures.clone().unwrap_or_else(|| dir.clone())),
            (None, None) => self.figures.clone(),
        }
    }
}

/// Where the re-run of `figure` is saved: `--figures`, else the figure's own folder. A
/// version's file is saved into the figures folder its store belongs to, never into the
/// store.
fn saved_into(args: &RerunArgs, figure: &Path) -> PathBuf {
    args.figures
        .clone()
        .or_else(|| versions::locate(figure).map(|(figures, _, _)| figures))
        .or_else(|| figure.parent().map(Path::to_path_buf))
        .unwrap_or_default()
}

fn all(args: &RerunArgs, dir: &Path, limits: Limits, cancel: &CancelFlag) -> i32 {
    let figures = args.figures_folder().unwrap_or_else(|| dir.to_path_buf());
    let entries = match folder::scan(dir, &args.src) {
        Ok(entries) => entries,
        Err(e) => {
            return input_error(
                args.json,
                &format!(
                    "could not read the figures folder `{}`: {e}; pass a folder of figures",
                    dir.display()
                ),
            );
        }
    };
    // One plan for the stale figures (`folder::plan_reruns`: one run per name), read in
    // the folder's order below.
    let mut plan = folder::plan_reruns(
        entries
            .iter()
            .filter_map(|entry| match (&entry.provenance, entry.freshness) {
                (Some(record), folder::Freshness::Stale) => {
                    Some((entry.file.as_path(), record, figures.as_path()))
                }
                _ => None,
            }),
        &args.src,
        limits,
    )
    .into_iter();
    let mut reports = Vec::new();
    // The stale figures, re-run together below: (report index, shown name, request).
    let mut stale = Vec::new();
    for entry in &entries {
        let mut report = serde_json::json!({
            "file": entry.file, "freshness": entry.freshness, "changed": entry.changed,
        });
        if let Some(problem) = &entry.problem {
            report["problem"] = problem.clone().into();
        }
        let planned = match (&entry.provenance, entry.freshness) {
            (Some(_), folder::Freshness::Stale) => plan.next(),
            _ => None,
        };
        let Some(planned) = planned else {
            if !args.json {
                let word = match entry.freshness {
                    folder::Freshness::Fresh => "fresh, not re-run".to_owned(),
                    folder::Freshness::NoRecord => "no provenance record, skipped".to_owned(),
                    _ => format!(
                        "untrusted record, skipped: {}",
                        entry.problem.as_deref().unwrap_or("")
                    ),
                };
                outln!("{}: {word}", entry.file.display());
            }
            reports.push(report);
            continue;
        };
        let (rerun, first) = match planned {
            folder::Planned::Run(rerun) => (rerun, true),
            folder::Planned::WithItsRun(rerun) => (rerun, false),
            folder::Planned::Refused(why) => {
                if !args.json {
                    outln!("{}: skipped: {why}", entry.file.display());
                }
                report["problem"] = why.to_string().into();
                reports.push(report);
                continue;
            }
        };
        report["rerun_as"] = rerun.request.name.clone().into();
        if let Some(note) = &rerun.note {
            report["note"] = note.clone().into();
        }
        if !first {
            report["rerun"] = "with the other figures of its run".into();
            reports.push(report);
            continue;
        }
        stale.push((reports.len(), entry.file.display().to_string(), rerun));
        reports.push(report);
    }
    // What will run, before anything does (each under its file's name, in `figures`).
    if !args.json {
        for (_, shown, rerun) in &stale {
            let note = rerun
                .note
                .as_deref()
                .map_or_else(String::new, |n| format!(" ({n})"));
            outln!(
                "{shown}: stale, will re-run as `{}` in {}{note}",
                rerun.request.name,
                figures.display()
            );
        }
    }
    // Up to one figure per core at once, each in its own freshly confined process (on Linux
    // children of one fork server, warmed up once for all of them).
    let pool = WarmPool::new();
    if !stale.is_empty() {
        // Warming up starts now; a figure that cannot use it runs cold, as make-figure does.
        let _ = pool.prepare(&args.src, &figures, &limits);
    }
    let requests: Vec<_> = stale.iter().map(|(_, _, r)| r.request.clone()).collect();
    let results = pool.submit_all(&requests, cancel, &|index, result| {
        if !args.json {
            print_result(&stale[index].1, result);
        }
    });
    pool.shutdown(std::time::Duration::from_secs(10));
    let mut failed = false;
    for ((at, _, _), result) in stale.iter().zip(results) {
        failed |= !result.as_ref().is_some_and(|r| r.ok);
        reports[*at]["result"] = match result {
            Some(result) => serde_json::to_value(&result).unwrap_or_default(),
            None => "not re-run: cancelled".into(),
        };
    }
    if args.json {
        outln!("{}", serde_json::json!({"ok": !failed, "figures": reports}));
    }
    if failed { Outcome::Run.exit_code() } else { 0 }
}

fn input_error(json: bool, message: &str) -> i32 {
    super::make_figure::report_input_error(InputRule::NoProvenance, message, json)
}

fn print_result(what: &str, result: &FigureResult) {
    match result.stage {
        Outcome::Done => {
            for figure in &result.figures {
                outln!(
                    "{what}: re-run, saved {} ({} bytes, {} ms)",
                    figure.path.display(),
                    figure.bytes,
                    result.ms
                );
            }
        }
        Outcome::Check => {
            outln!("{what}: the embedded code was rejected by the check, nothing ran:");
            for e in &result.errors {
                outln!("  line {}:{} [{}] {}", e.line, e.col, e.rule, e.message);
            }
        }
        Outcome::Updated => outln!("{what}: not re-run"),
        _ => {
            outln!("{what}: the re-run failed ({:?})", result.stage);
            if !result.stderr_tail.is_empty() {
                outln!("--- stderr (tail) ---\n{}", result.stderr_tail.trim_end());
            }
        }
    }
    if let Some(hint) = result.hint.as_deref().filter(|h| !h.is_empty()) {
        outln!("hint: {hint}");
    }
}

/// The file of version `version` of the figure `figure` (`figures/bands.png`): the same
/// file of that version, else its main file. For `provenance --version` and `rerun
/// --version`; the message says what to pass instead.
pub(super) fn version_path(figure: &Path, version: &str) -> Result<PathBuf, VersionArgError> {
    let number = versions::parse_version(version)
        .ok_or_else(|| VersionArgError::NotANumber(version.to_owned()))?;
    let file = figure
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    let name = Path::new(file)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or_default();
    let figures = figure.parent().unwrap_or(Path::new("."));
    versions::version_file(figures, name, number, Some(file))
        .or_else(|e| {
            // An extra figure (`bands-2.png`) is kept in its run's versions (`bands`).
            match name.rsplit_once('-') {
                Some((run, n)) if n.parse::<u32>().is_ok() => {
                    versions::version_file(figures, run, number, Some(file)).map_err(|_| e)
                }
                _ => Err(e),
            }
        })
        .map_err(VersionArgError::from)
}

/// Why `--version N` names no file.
#[derive(Debug, thiserror::Error)]
pub(super) enum VersionArgError {
    #[error("`{0}` is not a version number: pass one `pdfagent versions NAME` lists")]
    NotANumber(String),
    #[error(transparent)]
    Versions(#[from] versions::VersionsError),
}
