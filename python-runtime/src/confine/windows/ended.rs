//! The data folder walked once per run, not twice (issue 45): the pure bookkeeping of runs'
//! folder grants that have ended while their ACE is still on the folder; `acl.rs` acts on it.
//!
//! Granting `SRC` to a run's capability and taking it back are each a walk of the user's data
//! folder (`SetNamedSecurityInfoW` rewrites the inherited ACE of every file below). A
//! long-lived host (the window, the MCP server: whatever holds a `WarmPool`) starts the next
//! worker for the same folder right after a figure; so when a run ends there, its grant is
//! not taken back on its own walk but **noted here**, and the next grant of the same folder
//! removes it in the same DACL write that adds the new run's entry ([`edit_entries`]): one
//! walk per run. A noted grant that no new run takes within [`IDLE`] is taken back on its
//! own by a background sweep, and the pool's end takes back whatever is left. The one-shot
//! command line (no pool) takes its run's grant back at once, as before: nothing is left
//! behind when the process exits.
//!
//! Why waiting is safe: a noted entry names the capability of a run whose worker is gone,
//! and that capability is derived from the run's own fresh run directory (`plan.rs`), so no
//! token that will ever be made holds it; until it is removed it grants nothing.

use super::plan::within;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How long a noted grant waits for the next run of its folder before it is taken back on
/// its own walk.
pub const IDLE: Duration = Duration::from_secs(30);

/// One run's folder grant whose run has ended.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Ended {
    path: PathBuf,
    sid: String,
    at: Instant,
}

/// The ended runs' grants still on their folders, in the order they ended.
#[derive(Debug, Default)]
pub struct EndedGrants {
    ended: Vec<Ended>,
}

impl EndedGrants {
    pub const fn new() -> EndedGrants {
        EndedGrants { ended: Vec::new() }
    }

    /// Note that the run holding `sid` on `path` ended at `at`.
    pub fn end(&mut self, path: PathBuf, sid: String, at: Instant) {
        self.ended.push(Ended { path, sid, at });
    }

    /// Whether nothing is noted.
    #[cfg(test)]
    pub fn is_empty(&self) -> bool {
        self.ended.is_empty()
    }

    /// The ended grants on `path` (as Windows compares paths), removed from the notes: the
    /// next grant of that folder takes them back in its own write.
    pub fn take_for(&mut self, path: &Path) -> Vec<String> {
        let (mine, rest): (Vec<Ended>, Vec<Ended>) = std::mem::take(&mut self.ended)
            .into_iter()
            .partition(|e| same_path(&e.path, path));
        self.ended = rest;
        mine.into_iter().map(|e| e.sid).collect()
    }

    /// The folders whose newest ended grant is at least `idle` old at `now`, each with every
    /// grant noted on it, removed from the notes. A folder a run ended on recently keeps its
    /// notes: its next run is likely on its way.
    pub fn take_idle(&mut self, now: Instant, idle: Duration) -> Vec<(PathBuf, Vec<String>)> {
        let mut out = Vec::new();
        for (path, group) in self.drain_by_folder() {
            let newest = group.iter().map(|e| e.at).max();
            if newest.is_some_and(|at| now.saturating_duration_since(at) < idle) {
                self.ended.extend(group);
            } else {
                out.push((path, group.into_iter().map(|e| e.sid).collect()));
            }
        }
        out
    }

    /// Every noted grant, by folder, removed from the notes (the pool's end).
    pub fn take_all(&mut self) -> Vec<(PathBuf, Vec<String>)> {
        self.drain_by_folder()
            .into_iter()
            .map(|(path, group)| (path, group.into_iter().map(|e| e.sid).collect()))
            .collect()
    }

    /// Every note, grouped by folder in the order the folders first ended a run.
    fn drain_by_folder(&mut self) -> Vec<(PathBuf, Vec<Ended>)> {
        let mut groups: Vec<(PathBuf, Vec<Ended>)> = Vec::new();
        for e in std::mem::take(&mut self.ended) {
            match groups.iter_mut().find(|(p, _)| same_path(p, &e.path)) {
                Some((_, group)) => group.push(e),
                None => groups.push((e.path.clone(), vec![e])),
            }
        }
        groups
    }
}

fn same_path(a: &Path, b: &Path) -> bool {
    within(a, b) && within(b, a)
}

/// What one DACL write does to an ACE.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Merge an allow ACE for the SID.
    Grant,
    /// Remove every explicit ACE for the SID.
    Revoke,
}

/// One entry of a DACL write: the SID, the rights and inheritance flags (zero for a
/// revoke), and what to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub sid: String,
    pub mask: u32,
    pub inheritance: u32,
    pub mode: Mode,
}

/// The entries of one write of a folder's DACL: the new run's ACEs (`grant`: its SID and
/// its (rights, inheritance) pairs; `None` when nothing is granted, as in a sweep) and the
/// removal of each ended run's. A SID both granted and ended is granted, not removed (a
/// run directory's path, and so its capability, cannot come back while its grant is
/// noted, but the write must never take away the access it is giving).
pub fn edit_entries(grant: Option<(&str, &[(u32, u32)])>, ended: &[String]) -> Vec<Entry> {
    let mut out: Vec<Entry> = Vec::new();
    let granted = grant.map(|(sid, _)| sid);
    for sid in ended {
        if Some(sid.as_str()) != granted && !out.iter().any(|e| &e.sid == sid) {
            out.push(Entry {
                sid: sid.clone(),
                mask: 0,
                inheritance: 0,
                mode: Mode::Revoke,
            });
        }
    }
    if let Some((sid, pairs)) = grant {
        out.extend(pairs.iter().map(|&(mask, inheritance)| Entry {
            sid: sid.to_owned(),
            mask,
            inheritance,
            mode: Mode::Grant,
        }));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: &str = "S-1-15-3-1024-1";
    const B: &str = "S-1-15-3-1024-2";
    const C: &str = "S-1-15-3-1024-3";

    #[test]
    fn the_next_grant_of_a_folder_takes_its_ended_grants_as_windows_compares_paths() {
        let t = Instant::now();
        let mut notes = EndedGrants::new();
        notes.end(PathBuf::from(r"C:\Users\me\Data"), A.into(), t);
        notes.end(PathBuf::from(r"C:\Users\me\Other"), B.into(), t);
        notes.end(PathBuf::from(r"\\?\c:\users\me\data\"), C.into(), t);
        // Case, verbatim prefix and trailing separator aside, the same folder.
        assert_eq!(
            notes.take_for(Path::new(r"c:/Users/ME/data")),
            vec![A.to_owned(), C.to_owned()]
        );
        // Taken once: the next grant of the folder finds nothing more.
        assert!(notes.take_for(Path::new(r"C:\Users\me\Data")).is_empty());
        // A folder inside another is not the same folder.
        assert!(
            notes
                .take_for(Path::new(r"C:\Users\me\Other\sub"))
                .is_empty()
        );
        assert_eq!(notes.take_for(Path::new(r"C:\Users\me\Other")), vec![B]);
        assert!(notes.is_empty());
    }

    #[test]
    fn a_folder_waits_for_its_next_run_until_its_newest_ended_grant_is_idle() {
        let t0 = Instant::now();
        let mut notes = EndedGrants::new();
        notes.end(PathBuf::from(r"C:\data"), A.into(), t0);
        notes.end(PathBuf::from(r"C:\other"), B.into(), t0);
        notes.end(
            PathBuf::from(r"C:\data"),
            C.into(),
            t0 + Duration::from_secs(20),
        );
        // 35 s after t0: `other` has been idle 35 s, `data` only 15 s (its newest run ended
        // at t0 + 20 s), so only `other` is swept.
        let swept = notes.take_idle(t0 + Duration::from_secs(35), IDLE);
        assert_eq!(
            swept,
            vec![(PathBuf::from(r"C:\other"), vec![B.to_owned()])]
        );
        // Both of `data`'s grants go together once it is idle.
        let swept = notes.take_idle(t0 + Duration::from_secs(51), IDLE);
        assert_eq!(
            swept,
            vec![(PathBuf::from(r"C:\data"), vec![A.to_owned(), C.to_owned()])]
        );
        assert!(notes.is_empty());
    }

    #[test]
    fn the_pools_end_takes_everything() {
        let t = Instant::now();
        let mut notes = EndedGrants::new();
        notes.end(PathBuf::from(r"C:\data"), A.into(), t);
        notes.end(PathBuf::from(r"C:\other"), B.into(), t);
        notes.end(PathBuf::from(r"C:\DATA"), C.into(), t);
        assert_eq!(
            notes.take_all(),
            vec![
                (PathBuf::from(r"C:\data"), vec![A.to_owned(), C.to_owned()]),
                (PathBuf::from(r"C:\other"), vec![B.to_owned()]),
            ]
        );
        assert!(notes.is_empty());
    }

    #[test]
    fn one_write_adds_the_new_run_and_removes_the_ended_ones() {
        let pairs = [(0x1200a9, 0x3)];
        let entries = edit_entries(
            Some((C, &pairs)),
            &[A.to_owned(), B.to_owned(), A.to_owned()],
        );
        assert_eq!(
            entries,
            vec![
                Entry {
                    sid: A.into(),
                    mask: 0,
                    inheritance: 0,
                    mode: Mode::Revoke
                },
                Entry {
                    sid: B.into(),
                    mask: 0,
                    inheritance: 0,
                    mode: Mode::Revoke
                },
                Entry {
                    sid: C.into(),
                    mask: 0x1200a9,
                    inheritance: 0x3,
                    mode: Mode::Grant
                },
            ]
        );
        // The SID being granted is never revoked in the same write.
        let entries = edit_entries(Some((A, &pairs)), &[A.to_owned()]);
        assert!(entries.iter().all(|e| e.mode == Mode::Grant));
        // A sweep only removes.
        let entries = edit_entries(None, &[B.to_owned()]);
        assert_eq!(entries.len(), 1);
        assert_eq!(entries[0].mode, Mode::Revoke);
        // Nothing ended, nothing granted: nothing to write.
        assert!(edit_entries(None, &[]).is_empty());
    }
}
