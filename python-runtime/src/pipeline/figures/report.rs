//! The shape of a figure's report (`SavedFigure::report`), as `figure_report.py` writes it
//! in the worker. The parent passes the report on as the worker's JSON (capped, never
//! interpreted), so these types describe it rather than parse it: they give the window its
//! TypeScript types (`ui/src/bindings.ts`), and the report suite
//! (`tests/tests/figure_report.rs`) reads every case's report into them with unknown keys
//! refused, so a key added to `figure_report.py` without its field here fails there.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// What a figure shows, from the live matplotlib objects. Absent keys are absent in the
/// JSON too (the report lists only what is there).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(optional_fields)]
pub struct FigureReport {
    pub width_px: u32,
    pub height_px: u32,
    pub suptitle: Option<String>,
    pub supxlabel: Option<String>,
    pub supylabel: Option<String>,
    /// The data axes (colorbars are not axes here), at most 16.
    pub axes: Vec<AxesReport>,
    /// How many axes beyond the 16 listed.
    pub axes_omitted: Option<u32>,
    /// Entries of a figure-level legend (at most 10).
    pub legend: Option<Vec<String>>,
    pub legend_total: Option<u32>,
    /// Labels of colorbars that belong to no data axes.
    pub colorbar: Option<String>,
    /// Figure-level texts (`fig.text`), super-titles not counted.
    pub texts: Option<u32>,
    /// What to fix, at most 12.
    pub warnings: Vec<ReportWarning>,
    pub warnings_omitted: Option<u32>,
}

/// One data axes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(optional_fields)]
pub struct AxesReport {
    pub title: Option<String>,
    pub title_left: Option<String>,
    pub title_right: Option<String>,
    pub xlabel: Option<String>,
    pub ylabel: Option<String>,
    pub zlabel: Option<String>,
    /// The projection when it is not rectilinear (`3d`, `polar`, …).
    pub kind: Option<String>,
    /// `off` when the axis is hidden.
    pub axis: Option<String>,
    /// Scales, only when not linear.
    pub xscale: Option<String>,
    pub yscale: Option<String>,
    pub zscale: Option<String>,
    /// View limits (only when the axis shows): two numbers (`null` when not finite), or two
    /// ISO dates on a date axis.
    pub xlim: Option<Vec<Option<Limit>>>,
    pub ylim: Option<Vec<Option<Limit>>>,
    pub zlim: Option<Vec<Option<f64>>>,
    pub artists: Option<ArtistCounts>,
    /// What it draws, one item per series, image or container (reference lines and spans
    /// last), at most 8: counts and ranges, never the data.
    pub data: Option<Vec<DataItem>>,
    pub legend: Option<Vec<String>>,
    pub legend_total: Option<u32>,
    pub colorbar: Option<String>,
    /// Where it sits when there are several (`top right`, `row 2, column 3`, `inset`).
    pub position: Option<String>,
    /// The 1-based index of the axes a `twinx()`/`twiny()` axes was made from.
    pub twin_of: Option<u32>,
}

/// One end of an axis' view limits or of a data range: a number, or text (an ISO date on a
/// date axis; a category's name for a data range on a categorical axis).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(untagged)]
pub enum Limit {
    Number(f64),
    Date(String),
}

/// One thing an axes draws (or several of a kind, joined: `count`). Ranges are the finite
/// data's `[low, high]` on the axis' terms (numbers, dates, category names).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(optional_fields)]
pub struct DataItem {
    pub kind: DataKind,
    /// The label a legend would show.
    pub label: Option<String>,
    /// How many artists of the kind this item stands for, when more than one.
    pub count: Option<u32>,
    /// Points (lines, scatter), bars, segments, cells, steps, or contour levels.
    pub n: Option<u32>,
    /// How many points or values are not finite (NaN, inf, masked).
    pub nan: Option<u32>,
    pub x: Option<Vec<Option<Limit>>>,
    pub y: Option<Vec<Option<Limit>>>,
    pub z: Option<Vec<Option<Limit>>>,
    /// The array's shape (images, meshes).
    pub shape: Option<Vec<u32>>,
    /// The range of the values: mapped to colours (images, meshes, scatter), bar heights
    /// (or widths of horizontal bars), step values, the data of contours.
    pub values: Option<Vec<Option<f64>>>,
    pub cmap: Option<String>,
    /// `linear`, `log`, `symlog`, `twoslope`, `boundary`, … (the norm's class).
    pub norm: Option<String>,
    /// The colour scale's limits, when they differ from the values' range.
    pub clim: Option<Vec<Option<f64>>>,
    /// Marker sizes of a scatter whose sizes vary.
    pub sizes: Option<Vec<Option<f64>>>,
    /// The first and last contour level.
    pub levels: Option<Vec<Option<f64>>>,
    /// Which error bars an errorbar series has: `x`, `y` or `xy`.
    pub errors: Option<String>,
    /// A point an `axline` goes through, and its slope (absent when vertical or unknown).
    pub through: Option<Vec<Option<f64>>>,
    pub slope: Option<f64>,
}

/// What a [`DataItem`] is. `hline`, `vline`, `axline` (axhline, axvline, axline) and
/// `hspan`, `vspan` (axhspan, axvspan) are reference marks, not data.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "kebab-case")]
pub enum DataKind {
    Line,
    Errorbar,
    Scatter,
    Bars,
    Image,
    Mesh,
    Contour,
    Contourf,
    Cells,
    Fill,
    Segments,
    Stairs,
    Surface,
    Hline,
    Vline,
    Axline,
    Hspan,
    Vspan,
}

/// What an axes draws, by kind (only kinds it has).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(optional_fields)]
pub struct ArtistCounts {
    pub lines: Option<u32>,
    pub scatter: Option<u32>,
    pub bars: Option<u32>,
    pub patches: Option<u32>,
    pub images: Option<u32>,
    /// axhline, axvline, axline: not counted among `lines`.
    pub reference_lines: Option<u32>,
    /// axhspan, axvspan: not counted among `patches`.
    pub spans: Option<u32>,
    pub contours: Option<u32>,
    pub surfaces: Option<u32>,
    pub meshes: Option<u32>,
    pub collections: Option<u32>,
    pub texts: Option<u32>,
}

/// Something to fix, as a sentence that says what to do.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(optional_fields)]
pub struct ReportWarning {
    pub code: WarningCode,
    pub message: String,
    /// The 1-based index of the axes it is about (absent: the whole figure).
    pub axes: Option<u32>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "kebab-case")]
pub enum WarningCode {
    EmptyAxes,
    NoData,
    OutsideLimits,
    LogNonpositive,
    ManySeriesNoLegend,
    MissingLabels,
    TextOutside,
    Blank,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_as_the_worker_writes_it_reads_and_writes_back_the_same() {
        let json = serde_json::json!({
            "width_px": 900, "height_px": 700, "suptitle": "Run 42",
            "axes": [
                {"title": "Spectrum", "xlabel": "λ (nm)", "ylabel": "counts",
                 "xlim": [400.0, 700.0], "ylim": [0.0, 1.2e4],
                 "artists": {"lines": 2, "reference_lines": 1},
                 "data": [
                     {"kind": "line", "label": "a", "n": 500, "nan": 3, "x": [400.0, 700.0], "y": [0.0, 1.1e4]},
                     {"kind": "bars", "n": 3, "x": ["red", "blue"], "values": [1.0, 4.0]},
                     {"kind": "image", "shape": [120, 180], "values": [0.0, 1.0], "cmap": "viridis",
                      "norm": "log", "clim": [0.01, 1.0]},
                     {"kind": "line", "count": 30, "n": 60, "x": ["2024-01-01", "2024-02-01"], "y": [null, 1.0]},
                     {"kind": "axline", "through": [0.0, 0.0], "slope": 2.0},
                     {"kind": "hline", "y": [0.5, 0.5]}
                 ],
                 "legend": ["a", "b"]},
                {"xlim": ["2024-01-01", "2024-02-01"], "ylim": [null, 1.0], "yscale": "log",
                 "position": "top right", "twin_of": 1},
                {}
            ],
            "warnings": [{"code": "empty-axes", "message": "m", "axes": 3}, {"code": "blank", "message": "b"}]
        });
        let report: FigureReport = serde_json::from_value(json.clone()).unwrap();
        assert_eq!(report.axes.len(), 3);
        assert_eq!(report.warnings[0].code, WarningCode::EmptyAxes);
        let back = serde_json::to_value(&report).unwrap();
        // Absent keys stay absent: compare without the `null`s serde writes for `None`.
        fn strip(v: serde_json::Value) -> serde_json::Value {
            match v {
                serde_json::Value::Object(m) => m
                    .into_iter()
                    .filter(|(_, v)| !v.is_null())
                    .map(|(k, v)| (k, strip(v)))
                    .collect(),
                serde_json::Value::Array(a) => a.into_iter().map(strip).collect(),
                other => other,
            }
        }
        assert_eq!(strip(back), strip(json));
    }

    #[test]
    fn an_unknown_key_is_refused() {
        let json = serde_json::json!({"width_px": 1, "height_px": 1, "axes": [], "warnings": [], "new": 1});
        assert!(serde_json::from_value::<FigureReport>(json).is_err());
    }
}
