//! Ending cleanly on a termination signal. The default action of SIGTERM/SIGINT ends the
//! process on the spot, leaving the warm worker's run directory behind (the worker itself
//! goes: its code pipe closes). The MCP server and the window listen instead and shut down
//! their warm pool on the way out.

/// A future that completes on SIGINT, SIGTERM or SIGHUP. The handlers are installed by this call,
/// not when the future is first polled, so no signal in between takes its default action.
#[cfg(unix)]
pub fn listen() -> impl std::future::Future<Output = ()> + Send + 'static {
    use tokio::signal::unix::{SignalKind, signal};
    let streams = (
        signal(SignalKind::interrupt()),
        signal(SignalKind::terminate()),
        signal(SignalKind::hangup()),
    );
    async move {
        match streams {
            (Ok(mut int), Ok(mut term), Ok(mut hup)) => {
                tokio::select! {
                    _ = int.recv() => {}
                    _ = term.recv() => {}
                    _ = hup.recv() => {}
                }
            }
            _ => std::future::pending().await,
        }
    }
}

#[cfg(not(unix))]
pub async fn listen() {
    if tokio::signal::ctrl_c().await.is_err() {
        std::future::pending::<()>().await;
    }
}
