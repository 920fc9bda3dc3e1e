//! `pdfagent provenance FIGURE [--version N] [--src DIR] [--json]`: what a figure's (or, with
//! `--version`, one of its earlier versions') embedded record says
//! (its code, data files, versions, limits, time) and, with `--src`, whether each data file
//! is unchanged, changed or missing. Exit status: 0 shown (and fresh), 1 stale, 2 no record
//! or an untrusted one, 4 bad input.

use python_runtime::provenance::{self, InputState, Provenance};
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct ProvenanceArgs {
    /// The figure file (PNG, SVG or PDF made by PDFAgent).
    #[arg(value_name = "FIGURE")]
    figure: PathBuf,
    /// Read this earlier version of FIGURE instead (as `pdfagent versions NAME` lists it).
    #[arg(long, value_name = "N")]
    version: Option<String>,
    /// Compare the recorded data files with this data folder.
    #[arg(long, value_name = "DIR")]
    src: Option<PathBuf>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

pub const EXIT_STALE: i32 = 1;
pub const EXIT_NO_RECORD: i32 = 2;

pub fn run(mut args: ProvenanceArgs) -> i32 {
    if let Some(version) = &args.version {
        match super::rerun::version_path(&args.figure, version) {
            Ok(path) => args.figure = path,
            Err(e) => return fail(args.json, "input", &e.to_string(), super::EXIT_BAD_INPUT),
        }
    }
    if let Some(src) = &args.src
        && !src.is_dir()
    {
        return fail(
            args.json,
            "input",
            &format!(
                "the data folder `{}` does not exist or is not a folder: pass the folder the \
                 figure was made from",
                src.display()
            ),
            super::EXIT_BAD_INPUT,
        );
    }
    let record = match provenance::read(&args.figure) {
        Ok((_, Some(record))) => record,
        Ok((format, None)) => {
            let why = if format == python_runtime::FigureFormat::Jpeg {
                "JPEG figures carry no provenance record".to_owned()
            } else {
                format!(
                    "`{}` carries no PDFAgent provenance record (it was made elsewhere, or before PDFAgent embedded \
                     records)",
                    args.figure.display()
                )
            };
            return fail(args.json, "no-record", &why, EXIT_NO_RECORD);
        }
        Err(e @ (provenance::Error::Read { .. } | provenance::Error::NotAFigure { .. })) => {
            return fail(args.json, "input", &e.to_string(), super::EXIT_BAD_INPUT);
        }
        Err(e) => return fail(args.json, "untrusted", &e.to_string(), EXIT_NO_RECORD),
    };
    let states = args
        .src
        .as_deref()
        .map(|src| provenance::compare_inputs(&record, src));
    let stale = states.as_deref().is_some_and(provenance::is_stale);
    if args.json {
        let inputs: Vec<serde_json::Value> = match &states {
            Some(states) => states
                .iter()
                .map(|(input, state)| {
                    serde_json::json!({
                        "path": input.path, "bytes": input.bytes, "sha256": input.sha256,
                        "state": state,
                    })
                })
                .collect(),
            None => record.inputs.iter().map(|i| serde_json::json!(i)).collect(),
        };
        let value = serde_json::json!({
            "ok": true,
            "figure": args.figure,
            "stale": states.as_ref().map(|_| stale),
            "inputs": inputs,
            "provenance": record,
        });
        outln!("{value}");
    } else {
        print_text(&record, states.as_deref());
    }
    if stale { EXIT_STALE } else { 0 }
}

fn fail(json: bool, stage: &str, message: &str, code: i32) -> i32 {
    if json {
        outln!(
            "{}",
            serde_json::json!({"ok": false, "stage": stage, "hint": message})
        );
    } else {
        eprintln!("error: {message}");
    }
    code
}

fn state_word(state: InputState) -> &'static str {
    match state {
        InputState::Unchanged => "unchanged",
        InputState::Changed => "CHANGED",
        InputState::Missing => "MISSING",
        InputState::Unknown => "size unchanged (not hashed)",
    }
}

fn print_text(p: &Provenance, states: Option<&[(provenance::Input, InputState)]>) {
    outln!("figure:   {} ({}, name `{}`)", p.file, p.format, p.name);
    outln!("made:     {} by PDFAgent {}", p.created, p.pdfagent);
    let runtime: Vec<String> = p.runtime.iter().map(|(k, v)| format!("{k} {v}")).collect();
    outln!("runtime:  {}", runtime.join(", "));
    outln!(
        "limits:   {} s, {} MB",
        p.limits.timeout_s,
        p.limits.memory_mb
    );
    outln!(
        "data:     folder `{}`, {} file(s){}",
        p.data_folder,
        p.inputs.len(),
        if p.inputs_partial {
            " (list partial)"
        } else {
            ""
        }
    );
    match states {
        Some(states) => {
            for (input, state) in states {
                outln!(
                    "  {:<28} {:>10} bytes  {}",
                    input.path,
                    input.bytes,
                    state_word(*state)
                );
            }
            if provenance::is_stale(states) {
                outln!(
                    "STALE: the data changed since the figure was made; redraw it with \
                     `pdfagent rerun FIGURE --src DIR --figures DIR`"
                );
            } else {
                outln!("fresh: the data files are as they were");
            }
        }
        None => {
            for input in &p.inputs {
                outln!(
                    "  {:<28} {:>10} bytes  sha256 {}",
                    input.path,
                    input.bytes,
                    input.sha256.as_deref().unwrap_or("(not hashed)")
                );
            }
        }
    }
    if !p.guard.is_empty() {
        outln!(
            "guard:    the run-time guard refused {} attempt(s) while the code ran:",
            p.guard.len()
        );
        for refusal in &p.guard {
            outln!("  {}", refusal.line());
        }
    }
    outln!("code:     {} bytes, sha256 {}", p.code.len(), p.code_sha256);
    outln!("---");
    out!("{}", p.code);
    if !p.code.ends_with('\n') {
        outln!();
    }
}
