//! The TypeScript types of everything the window receives — command results and event
//! payloads — derived (ts-rs) from the serde types that produce them, written to
//! `ui/src/bindings.ts` and checked in, so the front end never keeps a copy by hand.
//!
//! The test [`tests::ui_bindings_match_the_rust_types`] fails when the file differs from
//! what the types give; `PDFAGENT_BLESS=1 cargo test -p pdfagent bindings` rewrites it.
//! Integers are `number`: every count, size and duration here is far below 2^53.

use super::{commands, history, watch};
use python_runtime::ConfineReport;
use python_runtime::RuleId;
use python_runtime::contract::{
    FrameKind, GuardRefusal, InputRule, RunFailure, TraceFrame, Violation, ViolationRule,
};
use python_runtime::inspect::{Inspection, OutlineNode, Preview, Variable};
use python_runtime::listing::{Entry, Listing};
use python_runtime::provenance::Summary;
use python_runtime::report::{
    ArtistCounts, AxesReport, DataItem, DataKind, FigureReport, Limit, ReportWarning, WarningCode,
};
use python_runtime::selftest::{
    ImportResult, Imports, InterpreterFacts, PathEntry, Savefig, SelftestItem, SelftestReport, Step,
};
use python_runtime::versions::{
    KeptVersion, Pruned, Restored, StoreSize, VersionFile, VersionInfo,
};
use python_runtime::{Captured, FigureFormat, FigureResult, Outcome, SavedFigure, Stage};
use ts_rs::{Config, TS};

/// The checked-in file, relative to the workspace root.
const FILE: &str = "ui/src/bindings.ts";

/// Each type's TypeScript declaration, in order.
macro_rules! declarations {
    ($cfg:expr; $($ty:ty),* $(,)?) => {
        [$(<$ty as TS>::decl($cfg)),*]
    };
}

/// The file's text: a header, then one exported declaration per type, in this order.
pub fn render() -> String {
    let cfg = Config::new().with_large_int("number");
    let decls = declarations!(&cfg;
        // A run and its figures (`run_figure`, the CLI's --json and MCP share it).
        FigureResult,
        Outcome,
        SavedFigure,
        FigureFormat,
        Captured,
        Summary,
        // Versions (`FigureResult.replaced`, and what the window lists and restores).
        KeptVersion,
        VersionInfo,
        VersionFile,
        Restored,
        StoreSize,
        Pruned,
        Violation,
        ViolationRule,
        RuleId,
        InputRule,
        // What the run-time guard refused (`FigureResult.guard`).
        GuardRefusal,
        // A run that failed in the code (`FigureResult.failure`).
        RunFailure,
        TraceFrame,
        FrameKind,
        Stage,
        commands::StageEvent,
        // The figure report (`SavedFigure.report`).
        FigureReport,
        AxesReport,
        Limit,
        ArtistCounts,
        DataItem,
        DataKind,
        ReportWarning,
        WarningCode,
        // The window's own commands.
        commands::StateView,
        commands::CheckView,
        // The data folder (`list_folder`) and a file's preview (`preview_file`): the engine's
        // listing and inspection, which MCP's list_data and describe_data give too.
        Listing,
        Entry,
        Inspection,
        Preview,
        Variable,
        OutlineNode,
        history::EntryView,
        history::VersionView,
        history::Freshness,
        history::Progress,
        history::RerunSummary,
        history::RedrawnRun,
        watch::DataChanged,
        // The selftest (`run_selftest`).
        SelftestReport,
        SelftestItem,
        Imports,
        ImportResult,
        Savefig,
        InterpreterFacts,
        PathEntry,
        ConfineReport,
        Step,
    );
    let mut text = String::from(
        "// Generated from the Rust types by src-tauri/src/app/bindings.rs (ts-rs): do not edit.\n\
         // After changing a type: PDFAGENT_BLESS=1 cargo test -p pdfagent bindings\n",
    );
    for decl in decls {
        text.push('\n');
        text.push_str("export ");
        text.push_str(&decl);
        text.push('\n');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    #[test]
    fn ui_bindings_match_the_rust_types() {
        let file = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("..")
            .join(FILE);
        let want = render();
        if std::env::var_os("PDFAGENT_BLESS").is_some() {
            std::fs::write(&file, &want).unwrap();
            return;
        }
        let have = std::fs::read_to_string(&file).unwrap_or_default();
        assert!(
            have == want,
            "`{FILE}` differs from the Rust types it is generated from; regenerate it with \
             `PDFAGENT_BLESS=1 cargo test -p pdfagent bindings` and commit it"
        );
    }

    #[test]
    fn every_declared_type_is_named_once() {
        let text = render();
        let mut names: Vec<&str> = text
            .lines()
            .filter_map(|l| l.strip_prefix("export type "))
            .filter_map(|l| l.split([' ', '<']).next())
            .collect();
        let total = names.len();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), total, "two types share a TypeScript name");
    }
}
