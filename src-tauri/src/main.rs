//! The one PDFAgent executable: worker (PDFAGENT_PYRUN), command line, or window.

mod cli;

fn main() {
    // The worker path comes first, before anything else starts (see ARCHITECTURE.md).
    // (Filled in by the embedded-runtime work.)
    std::process::exit(cli::run());
}
