//! The one PDFAgent executable: worker (PDFAGENT_PYRUN), command line, or window.

mod cli;
mod mcp;

fn main() {
    // The worker path comes first, before anything else starts (see ARCHITECTURE.md).
    if let Some(code) = python_runtime::worker::run_if_requested() {
        std::process::exit(code)
    }
    std::process::exit(cli::run());
}
