//! The warm processes' protocol: every message between the host and a fork server (Linux),
//! both directions, one JSON object per line — and the figure request the host hands a warm
//! process (a fork server's child reads it from its request file, the single-use warm worker
//! from stdin).
//!
//! The Python side is `fork_server.py`: `_pdfagent_serve_message` reads the host's lines
//! ([`HostMessage`]), `_pdfagent_serve_reply` writes the server's ([`ServerReply`]) and
//! `_pdfagent_serve_wait` reads a child's [`figure_request`] (the single-use warm worker's
//! `preamble.py` reads the same request from stdin). The round trip through that Python, run
//! by the bundled runtime, is tested in `python-runtime/tests/warm.rs`
//! (`the_fork_server_protocol_round_trips`).

#[cfg(target_os = "linux")]
use crate::confine::ConfinePlan;
#[cfg(target_os = "linux")]
use serde::Deserialize;
use serde::Serialize;
use std::path::Path;
#[cfg(target_os = "linux")]
use std::path::PathBuf;

#[cfg(target_os = "linux")]
/// A line from the host to the fork server (on the server's stdin).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(untagged)]
// A message lives only while it is written as one line; none is stored, so the fork
// request (its plan now carries the install paths) need not be boxed.
#[allow(clippy::large_enum_variant)]
pub enum HostMessage {
    /// Kill the child of request `kill` (time-out, cancel).
    Kill { kill: u64 },
    /// The figure of request `go` is in its child's request file: start it.
    Go { go: u64 },
    /// Fork a child ahead of its figure.
    Fork(ForkRequest),
}

#[cfg(target_os = "linux")]
/// Fork the child of request `id` ahead of its figure, confined by `plan` to `run_dir`.
/// The figure itself follows later, as the request file ([`figure_request`]) and a
/// [`HostMessage::Go`].
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ForkRequest {
    pub id: u64,
    /// The child's fresh run directory.
    pub run_dir: String,
    /// Where the host writes the figure before the "go" ([`request_file`]).
    pub request_file: String,
    /// What the child confines itself to before any code runs.
    pub plan: ConfinePlan,
    /// Whether the child draws a figure once in its own memory while it waits.
    pub draw: bool,
}

#[cfg(target_os = "linux")]
impl ForkRequest {
    pub fn new(id: u64, run_dir: &Path, plan: &ConfinePlan, draw: bool) -> ForkRequest {
        ForkRequest {
            id,
            run_dir: run_dir.to_string_lossy().into_owned(),
            request_file: request_file(run_dir, id).to_string_lossy().into_owned(),
            plan: plan.clone(),
            draw,
        }
    }
}

#[cfg(target_os = "linux")]
impl HostMessage {
    /// The message as one line, newline included. Fails only for a plan that cannot be
    /// written as JSON (a path that is not UTF-8).
    pub fn to_line(&self) -> serde_json::Result<String> {
        let mut line = serde_json::to_string(self)?;
        line.push('\n');
        Ok(line)
    }
}

#[cfg(target_os = "linux")]
/// A line from the fork server to the host (on the server's stdout), about one request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ServerReply {
    /// The child of request `id` was forked as process `pid`.
    Forked { id: u64, pid: u32 },
    /// It ended: its exit status, or `-signal` when a signal killed it.
    Exited { id: u64, exit: i32 },
    /// It could not be forked.
    Failed { id: u64, error: String },
}

#[cfg(target_os = "linux")]
impl ServerReply {
    /// One line of the server's, or `None` when it is not a reply (the server writes only
    /// replies there; anything else is ignored).
    pub fn parse(line: &str) -> Option<ServerReply> {
        serde_json::from_str(line).ok()
    }

    /// The request it is about.
    pub fn id(&self) -> u64 {
        match self {
            ServerReply::Forked { id, .. }
            | ServerReply::Exited { id, .. }
            | ServerReply::Failed { id, .. } => *id,
        }
    }
}

#[cfg(target_os = "linux")]
/// The file in a child's run directory the host writes the figure of request `id` into
/// before the "go" (the fork request names it). Named by the request, as the security
/// suites run several requests in one run directory.
pub fn request_file(run_dir: &Path, id: u64) -> PathBuf {
    run_dir.join(format!("request-{id}.json"))
}

/// What the host hands a warm process (a fork server's child in its request file, the
/// single-use warm worker on stdin): `{"out": OUT, "code": CODE, "options": {...}}`. JSON
/// strings carry any Rust `str` exactly, so the worker runs the very text Layer 1 checked.
/// `options` are the pipeline's (`script::RunOptions`): this layer only carries them.
pub fn figure_request(out: &Path, code: &str, options: impl Serialize) -> String {
    #[derive(Serialize)]
    struct Figure<'a, O> {
        out: &'a str,
        code: &'a str,
        options: O,
    }
    let out = out.to_string_lossy();
    // Strings and plain fields only: serialisation cannot fail.
    serde_json::to_string(&Figure {
        out: &out,
        code,
        options,
    })
    .unwrap_or_default()
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    #[test]
    fn host_messages_are_the_lines_fork_server_py_reads() {
        let kill: serde_json::Value =
            serde_json::from_str(&HostMessage::Kill { kill: 7 }.to_line().unwrap()).unwrap();
        assert_eq!(kill, serde_json::json!({"kill": 7}));
        let go = HostMessage::Go { go: 8 }.to_line().unwrap();
        assert_eq!(go, "{\"go\":8}\n");
        let plan = ConfinePlan {
            read_only: vec![],
            code: vec![],
            executable: PathBuf::new(),
            runtime: PathBuf::new(),
            read_write: vec!["/tmp/r".into()],
            memory_bytes: 1 << 30,
            cpu_seconds: 60,
            file_size_bytes: 1 << 20,
            wall_clock_ms: 0,
            role: Default::default(),
            landlock_scopes: true,
            library_bytes: None,
        };
        let fork = HostMessage::Fork(ForkRequest::new(9, Path::new("/tmp/r"), &plan, true));
        let line = fork.to_line().unwrap();
        assert!(line.ends_with('\n') && !line[..line.len() - 1].contains('\n'));
        let sent: serde_json::Value = serde_json::from_str(&line).unwrap();
        assert_eq!(sent["id"], 9);
        assert_eq!(sent["run_dir"], "/tmp/r");
        assert_eq!(sent["request_file"], "/tmp/r/request-9.json");
        assert_eq!(sent["draw"], true);
        let back: ConfinePlan = serde_json::from_value(sent["plan"].clone()).unwrap();
        assert_eq!(back, plan);
    }

    #[test]
    fn replies_are_told_apart_by_their_keys() {
        assert_eq!(
            ServerReply::parse("{\"id\": 1, \"pid\": 42}"),
            Some(ServerReply::Forked { id: 1, pid: 42 })
        );
        assert_eq!(
            ServerReply::parse("{\"id\": 2, \"exit\": -9}"),
            Some(ServerReply::Exited { id: 2, exit: -9 })
        );
        assert_eq!(
            ServerReply::parse("{\"id\": 3, \"error\": \"could not fork\"}").map(|r| r.id()),
            Some(3)
        );
        assert_eq!(ServerReply::parse("not json"), None);
    }
}
