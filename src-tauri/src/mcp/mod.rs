//! `pdfagent mcp`: a Model Context Protocol server over stdio (the official Rust SDK, rmcp)
//! with four tools — `make_figure`, `list_figures`, `list_data`, `describe_data` — each
//! call its own checked and confined run; the rules for figure code as a resource and a
//! prompt. The protocol owns stdout; every log line goes to stderr.

pub mod config;
mod eof;
mod progress;
mod resources;
mod results;
mod runs;
mod server;
mod text;
mod uri;

pub use server::Settings;

use python_runtime::WarmPool;
use rmcp::ServiceExt;
use runs::Runs;
use std::sync::Arc;
use std::time::Duration;

/// How long shutdown waits for killed workers to be reaped (killing is immediate; this only
/// bounds a stuck reap).
const REAP_WAIT: Duration = Duration::from_secs(20);

/// Serve until the client closes stdin (or SIGINT/SIGTERM); then cancel every run, wait
/// for its worker tree to be gone and return the exit status.
pub fn serve(settings: Settings) -> i32 {
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("pdfagent mcp: could not start the async runtime: {e}");
            return 1;
        }
    };
    let runs = Arc::new(Runs::default());
    // The first figure should not wait for Python and numpy/matplotlib to start either.
    let pool = Arc::new(WarmPool::new());
    if let Err(e) = pool.prepare(&settings.src, &settings.figures, &settings.limits) {
        eprintln!("pdfagent mcp: no warm worker: {e}");
    }
    let status = runtime.block_on(serve_stdio(settings, Arc::clone(&runs), Arc::clone(&pool)));
    runs.cancel_all();
    let left = runs.in_flight();
    if left > 0 {
        eprintln!("pdfagent mcp: stopping {left} run(s)");
    }
    if !runs.wait_idle(REAP_WAIT) {
        eprintln!("pdfagent mcp: some workers did not stop in time");
    }
    if !pool.shutdown(REAP_WAIT) {
        eprintln!("pdfagent mcp: the warm worker did not stop in time");
    }
    // A pending read of stdin cannot be cancelled (tokio); do not wait for it.
    runtime.shutdown_timeout(Duration::from_millis(200));
    eprintln!("pdfagent mcp: stopped");
    status
}

async fn serve_stdio(settings: Settings, runs: Arc<Runs>, pool: Arc<WarmPool>) -> i32 {
    eprintln!(
        "pdfagent mcp: serving on stdio; data `{}`, figures `{}`",
        settings.src.display(),
        settings.figures.display()
    );
    let stdin = {
        let runs = Arc::clone(&runs);
        eof::NotifyOnEof::new(tokio::io::stdin(), move || {
            eprintln!("pdfagent mcp: stdin closed");
            runs.cancel_all();
        })
    };
    let server = server::PdfAgentServer::new(settings, Arc::clone(&runs), pool);
    // Listen for signals before the handshake: a warm worker is already running, and a
    // signal's default action would end this process without stopping it.
    let mut signal = Box::pin(crate::signals::listen());
    let running = tokio::select! {
        served = server.serve((stdin, tokio::io::stdout())) => match served {
            Ok(running) => running,
            Err(e) => {
                eprintln!("pdfagent mcp: the client did not complete the handshake: {e}");
                return 1;
            }
        },
        _ = &mut signal => {
            // No run can have started; `serve` stops the warm worker on the way out.
            eprintln!("pdfagent mcp: signal received during the handshake");
            return 1;
        }
    };
    let stop = running.cancellation_token();
    tokio::spawn(async move {
        signal.await;
        eprintln!("pdfagent mcp: signal received");
        runs.cancel_all();
        stop.cancel();
    });
    match running.waiting().await {
        Ok(reason) => {
            eprintln!("pdfagent mcp: session ended ({reason:?})");
            0
        }
        Err(e) => {
            eprintln!("pdfagent mcp: the session task failed: {e}");
            1
        }
    }
}
