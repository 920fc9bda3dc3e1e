//! The worker's environment, built from scratch: a pure function of the target OS, the
//! host's environment and the run directories. (Interface stub — the confinement work fills this in.)

use std::collections::BTreeMap;
use std::path::PathBuf;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TargetOs {
    Linux,
    MacOs,
    Windows,
}

impl TargetOs {
    pub fn current() -> Self {
        if cfg!(windows) {
            TargetOs::Windows
        } else if cfg!(target_os = "macos") {
            TargetOs::MacOs
        } else {
            TargetOs::Linux
        }
    }
}

/// The folders a worker's environment points into.
#[derive(Debug, Clone)]
pub struct RunDirs {
    /// The fresh, private run directory (the worker's cwd, HOME and TMPDIR live here).
    pub run_dir: PathBuf,
    /// A writable matplotlib config/cache folder inside the run directory.
    pub mpl_config_dir: PathBuf,
}

/// The exact variables the worker gets. Nothing else of the host's leaks through.
pub fn child_env(
    target: TargetOs,
    host: &BTreeMap<String, String>,
    dirs: &RunDirs,
) -> BTreeMap<String, String> {
    let _ = (target, host);
    let mut env = BTreeMap::new();
    env.insert("HOME".into(), dirs.run_dir.display().to_string());
    env.insert("MPLBACKEND".into(), "Agg".into());
    env.insert(
        "MPLCONFIGDIR".into(),
        dirs.mpl_config_dir.display().to_string(),
    );
    env
}
