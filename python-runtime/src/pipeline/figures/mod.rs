//! Keeping figures: what happens to a run's output once the worker has exited.
//!
//! - [`default_folder`]: the figures folder used when none is chosen, for every host;
//! - [`capture`]: the figures of a run as the worker listed them, read back without trusting
//!   the run directory and kept as `NAME.EXT`, `NAME-2.EXT`, … in the figures folder;
//! - [`output`]: one figure file read safely, checked and moved in atomically;
//! - [`format`]: PNG, SVG and PDF (JPEG only when the code saved one): file names and the
//!   checks of their bytes;
//! - [`svg`]: the scan that keeps scripts and fetches out of an SVG;
//! - [`dimensions`]: a figure's size in pixels, read from its header, and the limit a viewer
//!   can open;
//! - [`ownership`]: which files of the figures folder belong to which figure name;
//! - [`names`]: whether a name is free in a figures folder, and the next free one;
//! - [`versions`]: every earlier group of a name, kept in `.pdfagent-versions/`;
//! - [`temp`]: writes into the figures folder that leave nothing behind when the host dies;
//! - [`report`]: the shape of a figure's report (`figure_report.py`'s JSON);
//! - [`provenance`]: the code, data hashes and limits embedded in each figure, and the scan
//!   of a figures folder for stale figures.

pub mod capture;
pub mod default_folder;
pub mod dimensions;
pub mod format;
pub mod names;
pub mod output;
pub mod ownership;
pub mod provenance;
pub mod report;
pub mod svg;
pub(crate) mod temp;
pub mod versions;

/// The names in a folder a person would see (no dot files), sorted: what the figure tests
/// compare a figures folder against.
#[cfg(test)]
pub(crate) fn visible_names(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with('.'))
        .collect();
    names.sort();
    names
}
