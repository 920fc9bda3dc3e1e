//! The command line's standard output, ended quietly when its reader has gone
//! (`pdfagent provenance FIG | head -1`): `println!` panics on a closed pipe, and the
//! process must not restore the default SIGPIPE instead — the hosts write to their
//! workers' and the fork server's pipes, where a dead reader is an error to handle, not a
//! reason to die. Once stdout is closed, the rest of the output is dropped and the command
//! finishes its work and exits with its usual status, as ripgrep does on a closed pipe.

use std::io::Write as _;
use std::sync::atomic::{AtomicBool, Ordering};

static CLOSED: AtomicBool = AtomicBool::new(false);

/// Write `args` to stdout (what `out!`/`outln!` expand to); nothing once it is closed.
pub fn write_out(args: std::fmt::Arguments<'_>) {
    if CLOSED.load(Ordering::Relaxed) {
        return;
    }
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_fmt(args).and_then(|()| out.flush()) {
        CLOSED.store(true, Ordering::Relaxed);
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            let _ = writeln!(
                std::io::stderr(),
                "pdfagent: could not write the output: {e}"
            );
        }
    }
}
