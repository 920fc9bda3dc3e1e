//! MATLAB `.fig` files through the real pipeline (issue #42): every fixture — real figures
//! from public repositories (`tests/fixtures/fig/`, cited in its README) and the edge cases
//! this suite writes (`make_edge_figs.py`, run in the worker with the runtime's scipy and
//! h5py) — is
//! - read by `load()` in figure code, each series' arrays checked against an independent
//!   reading of the raw `hgS_070000` tree (`oracle.py`: plain `loadmat` record arrays, none of
//!   the reader's code) — lengths and NaN-ignoring sums, axes titles and labels;
//! - redrawn by the redraw block of `docs/formats.md`, and its figure report compared with
//!   the tree (axes count, lines and scatters per axes, titles, labels, stored limits);
//! - described (`describe_data`'s text): the axes, series, the redraw.
//!
//! R2025 and later keep the figure only in MCOS objects (hgM_080000, hgS_080000 empty): the
//! suite rewrites every real R2014b-R2024 fixture into that layout (`make_mcos_figs.py`: the
//! hgS tree dropped, the objects kept byte for byte) and checks each against the oracle's
//! reading of the original's hgS tree, which the reader of the rewritten file never sees.
//! A figure whose objects are missing is refused with one sentence.

#![cfg(target_os = "linux")]

mod security_support;

use security_support::Sandbox;
use serde_json::Value;
use std::path::{Path, PathBuf};

const GENERATOR: &str = include_str!("../fixtures/fig/make_edge_figs.py");
const MCOS_GENERATOR: &str = include_str!("../fixtures/fig/make_mcos_figs.py");
const ORACLE: &str = include_str!("../fixtures/fig/oracle.py");
const FORMATS_DOC: &str = include_str!("../../docs/formats.md");
/// The edge cases the generator writes that are figures to read.
const MADE: &[&str] = &["edge_v5.fig", "edge_v73.fig", "r2025.fig"];

fn fixture_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/fig")
}

/// The real fixtures' names, sorted.
fn real_fixtures() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(fixture_dir())
        .expect("tests/fixtures/fig")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".fig"))
        .collect();
    names.sort();
    assert!(
        names.len() >= 8,
        "the real .fig fixtures are missing: {names:?}"
    );
    names
}

/// The R2025-layout copies `make_mcos_figs.py` wrote in the sandbox: (copy, original).
fn r2025_copies(sb: &Sandbox) -> Vec<(String, String)> {
    let mut names: Vec<(String, String)> = std::fs::read_dir(&sb.src)
        .expect("src")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter_map(|n| Some((n.clone(), n.strip_prefix("r2025_")?.to_owned())))
        .collect();
    names.sort();
    names
}

/// A sandbox whose `src/` holds every real fixture and the generated edge cases.
fn sandbox_with_figs(tag: &str) -> Sandbox {
    let sb = Sandbox::new(tag);
    let made = sb.worker(GENERATOR);
    assert!(
        made.status.success() && made.stdout().contains("fig fixtures written"),
        "the .fig generator failed in the worker:\n{}",
        made.output()
    );
    for name in MADE {
        std::fs::copy(sb.run.join(name), sb.src.join(name))
            .unwrap_or_else(|e| panic!("the generator did not write {name}: {e}"));
    }
    for name in real_fixtures() {
        std::fs::copy(fixture_dir().join(&name), sb.src.join(&name)).unwrap();
        std::fs::copy(fixture_dir().join(&name), sb.run.join(&name)).unwrap();
    }
    let made = sb.worker(MCOS_GENERATOR);
    let written = made
        .stdout()
        .lines()
        .find_map(|l| l.strip_prefix("mcos fixtures written: ").map(str::to_owned))
        .unwrap_or_else(|| panic!("the MCOS generator failed:\n{}", made.output()));
    let written: Vec<&str> = written.split(", ").collect();
    // Every real fixture from R2014b on holds its objects (all but the pre-R2014b one).
    assert_eq!(
        written.len(),
        real_fixtures().len() - 1,
        "R2025 copies: {written:?}"
    );
    for name in written {
        let copy = format!("r2025_{name}");
        std::fs::copy(sb.run.join(&copy), sb.src.join(&copy))
            .unwrap_or_else(|e| panic!("the MCOS generator did not write {copy}: {e}"));
    }
    sb
}

/// The independent reading of every v5 `.fig` in the sandbox's `src/`: file → axes.
fn oracle(sb: &Sandbox) -> serde_json::Map<String, Value> {
    let run = sb.worker(&format!(
        "import os\nos.chdir({})\n{ORACLE}",
        Sandbox::py(&sb.src)
    ));
    let stdout = run.stdout();
    let line = stdout
        .lines()
        .find_map(|l| l.strip_prefix("ORACLE "))
        .unwrap_or_else(|| panic!("the oracle printed nothing:\n{}", run.output()));
    match serde_json::from_str(line) {
        Ok(Value::Object(map)) => map,
        other => panic!("the oracle's answer is not an object: {other:?}"),
    }
}

/// The redraw block of docs/formats.md, for `name`.
fn redraw(name: &str) -> String {
    let block = FORMATS_DOC
        .split("<!-- fig-redraw:start -->\n```python\n")
        .nth(1)
        .and_then(|rest| rest.split("```\n<!-- fig-redraw:end -->").next())
        .expect("docs/formats.md holds the fig-redraw block");
    assert!(block.contains("load('x.fig')"));
    block.replace("load('x.fig')", &format!("load('{name}')"))
}

/// Figure code: load `name`, check every series against `expected` (the oracle's axes),
/// then the documented redraw.
fn checked_redraw(name: &str, expected: &Value) -> String {
    format!(
        r#"EXPECTED = {expected}
KEYS = {{'XData': 'x', 'YData': 'y', 'ZData': 'z', 'CData': 'c', 'Data': 'data',
         'BinEdges': 'binedges', 'Vertices': 'vertices', 'UData': 'u', 'LData': 'l'}}
KINDS = ['lines', 'errorbars', 'bars', 'scatters', 'areas', 'stems', 'stairs', 'surfaces',
         'images', 'contours', 'patches', 'quivers']
got = load({name:?})
assert len(got['axes']) == len(EXPECTED), (len(got['axes']), len(EXPECTED))
for i, (a, e) in enumerate(zip(got['axes'], EXPECTED)):
    for key in ('title', 'xlabel', 'ylabel'):
        assert a[key] == e[key], (i, key, a[key], e[key])
    for key in ('xlim', 'ylim'):
        assert e[key] is None or np.allclose(a[key], e[key]), (i, key, a[key], e[key])
    series = sorted([s for k in KINDS for s in a[k]], key=lambda s: s['order'])
    assert len(series) == len(e['series']), (i, [s['kind'] for s in series], e['series'])
    for s, want in zip(series, e['series']):
        for prop, (n, total) in want['arrays'].items():
            v = s[KEYS[prop]]
            assert v.dtype == np.float64 and v.size == n, (i, prop, v.dtype, v.size, n)
            assert abs(np.nansum(v) - total) <= 1e-9 * max(1.0, abs(total)), (i, prop)
print('checked', len(got['axes']), 'axes')
{redraw}"#,
        expected = serde_json::to_string(expected)
            .unwrap()
            .replace("null", "None"),
        redraw = redraw(name)
    )
}

/// The report's axes entries of a figure run.
fn report_axes(run: &Value) -> Vec<Value> {
    run["figures"][0]["report"]["axes"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

fn count_of(series: &[Value], types: &[&str]) -> u64 {
    series
        .iter()
        .filter(|s| types.contains(&s["type"].as_str().unwrap_or_default()))
        .count() as u64
}

#[test]
fn every_fixture_loads_equal_to_the_raw_tree_and_redraws_from_the_documented_code() {
    let sb = sandbox_with_figs("fig-all");
    let expected = oracle(&sb);
    // Each file with the oracle's reading it must equal: its own hgS tree, or for an
    // R2025-layout copy (no hgS tree) the original's.
    let mut names: Vec<(String, String)> = real_fixtures()
        .into_iter()
        .map(|n| (n.clone(), n))
        .collect();
    names.push(("edge_v5.fig".into(), "edge_v5.fig".into()));
    names.extend(r2025_copies(&sb));
    for (name, tree) in &names {
        let axes = expected
            .get(tree)
            .unwrap_or_else(|| panic!("the oracle did not read {tree}"));
        let code = checked_redraw(name, axes);
        let run = sb.make_figure("redrawn", &code, &[]);
        assert_eq!(run.exit_code(), Some(0), "{name}: {}", run.json);
        let report = report_axes(&run.json);
        let axes = axes.as_array().unwrap();
        assert_eq!(
            report.len(),
            axes.len(),
            "{name}: axes in the report vs the tree"
        );
        for (i, (got, want)) in report.iter().zip(axes).enumerate() {
            for key in ["title", "xlabel", "ylabel"] {
                let want = want[key].as_str().unwrap_or_default();
                let got = got[key].as_str().unwrap_or_default();
                if want.len() < 70 && !want.contains(['\n', '$', '\\', '^', '_']) {
                    assert_eq!(got, want, "{name} axes[{i}] {key}");
                }
            }
            let series = want["series"].as_array().unwrap();
            let lines = count_of(
                series,
                &[
                    "line",
                    "graph2d.lineseries",
                    "specgraph.stairseries",
                    "specgraph.stemseries",
                    "specgraph.errorbarseries",
                ],
            );
            let artists = &got["artists"];
            assert_eq!(
                artists["lines"].as_u64().unwrap_or(0),
                lines,
                "{name} axes[{i}] lines"
            );
            assert_eq!(
                artists["scatter"].as_u64().unwrap_or(0),
                count_of(series, &["specgraph.scattergroup"]),
                "{name} axes[{i}] scatters"
            );
            for key in ["xlim", "ylim"] {
                if let (Some(want), Some(got)) = (want[key].as_array(), got[key].as_array()) {
                    for (w, g) in want.iter().zip(got) {
                        let (w, g) = (w.as_f64().unwrap(), g.as_f64().unwrap_or(f64::NAN));
                        assert!(
                            (w - g).abs() <= 1e-3 * w.abs().max(1.0),
                            "{name} axes[{i}] {key}: {got:?} vs {want:?}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn edge_cases_keep_matlab_defaults_gaps_scales_legends_and_the_v73_tree() {
    let sb = sandbox_with_figs("fig-edges");
    let code = r#"
v5 = load('edge_v5.fig')
v73 = load('edge_v73.fig')
assert v5['name'] == 'edges' and v5['size'] == [640.0, 480.0], (v5['name'], v5['size'])
a, b, c = v5['axes']
line, = a['lines']
assert line['x'].dtype == np.float64 and list(line['x']) == list(range(1, 11))
assert np.isnan(line['y'][2]) and np.isnan(line['y'][6]) and line['y'][9] == 100
assert line['label'] == 'squares' and line['linestyle'] == '--' and line['linewidth'] == 2.0
assert line['marker'] == 'o' and line['markersize'] == 6.0
assert line['color'] == [0.0, 0.447, 0.741], line['color']  # R2014b's first default colour
err, = a['errorbars']
assert err['color'] == [0.85, 0.325, 0.098] and err['linewidth'] == 0.5
assert list(err['u']) == [2.0] * 10 and list(err['l']) == [1.0] * 10
assert a['xscale'] == 'log' and a['xdir'] == 'reverse' and a['ylim'] == [0.0, 120.0]
assert a['title'] == 'Edge cases' and a['xlabel'] == 'x (log, reversed)' and a['ylabel'] == 'y'
assert a['texts'] == [] and a['legend'] is None
bar, = b['bars']
dots, = b['scatters']
assert bar['label'] == 'bars' and dots['label'] == 'dots', (bar['label'], dots['label'])
assert b['legend'] == {'entries': ['bars', 'dots'], 'location': 'northwest'}
assert list(bar['x']) == [1.0, 2.0, 3.0] and float(bar['width'][0]) == 0.8
assert len(b['stairs']) == 1
assert c['yaxis'] == 'right' and c['title'] == 'Maps' and c['colorbar']['location'] == 'eastoutside'
assert c['images'][0]['c'].shape == (4, 5) and c['surfaces'][0]['z'].shape == (4, 5)
assert c['contours'][0]['z'].sum() == 60
assert v5['unknown'] == [{'type': 'light', 'path': 'figure/children[1]/children[3]'}], v5['unknown']
# -v7.3: the same tree through h5py, the same data.
assert len(v73['axes']) == 3 and v73['name'] == 'edges'
for x, y in zip(v5['axes'], v73['axes']):
    for key in ('title', 'xlabel', 'ylabel', 'xlim', 'ylim', 'xscale', 'xdir', 'yaxis', 'legend'):
        assert x[key] == y[key], (key, x[key], y[key])
    for kind in ('lines', 'errorbars', 'bars', 'scatters', 'stairs', 'surfaces', 'images', 'contours'):
        assert len(x[kind]) == len(y[kind]), kind
        for s, t in zip(x[kind], y[kind]):
            for key in ('x', 'y', 'z', 'c', 'u', 'l'):
                if key in s:
                    assert np.array_equal(s[key], t[key], equal_nan=True), (kind, key)
            assert s['label'] == t['label'] and s['linestyle'] == t['linestyle']
assert v73['unknown'] == v5['unknown']
plt.plot(line['x'], line['y'])
plt.savefig(OUT)
"#;
    let run = sb.make_figure("edges", code, &[]);
    assert_eq!(run.exit_code(), Some(0), "{}", run.json);
}

#[test]
fn r2025_figures_read_from_their_objects_alone_equal_the_originals() {
    let sb = sandbox_with_figs("fig-r2025-objects");
    let pairs = r2025_copies(&sb);
    assert!(pairs.len() >= 8, "{pairs:?}");
    let code = format!(
        r#"PAIRS = {pairs:?}
KINDS = ['lines', 'errorbars', 'bars', 'scatters', 'areas', 'stems', 'stairs', 'surfaces',
         'images', 'contours', 'patches', 'quivers']
for copy, original in PAIRS:
    a, b = load(original), load(copy)
    assert b['generation'] == 'R2025 or later' and a['generation'] == 'R2014b or later', copy
    assert b['name'] == a['name'] and len(a['axes']) == len(b['axes']), copy
    assert [u['type'] for u in a['unknown']] == [u['type'] for u in b['unknown']], copy
    for x, y in zip(a['axes'], b['axes']):
        for key in ('title', 'xlabel', 'ylabel', 'zlabel', 'xscale', 'yscale', 'xdir',
                    'ydir', 'legend', 'yaxis'):
            assert x[key] == y[key], (copy, key, x[key], y[key])
        for key in ('xlim', 'ylim'):
            assert x[key] is None or np.allclose(x[key], y[key]), (copy, key, x[key], y[key])
        assert [t['string'] for t in x['texts']] == [t['string'] for t in y['texts']], copy
        for kind in KINDS:
            assert len(x[kind]) == len(y[kind]), (copy, kind)
            for s, t in zip(x[kind], y[kind]):
                for key in ('x', 'y', 'z', 'c', 'u', 'l', 'vertices', 'faces'):
                    if key in s:
                        assert np.array_equal(s[key].ravel(), t[key].ravel(), equal_nan=True), \
                            (copy, kind, key)
                for key in ('kind', 'label', 'color', 'linestyle', 'linewidth', 'marker',
                            'markersize', 'order'):
                    assert s[key] == t[key], (copy, kind, key, s[key], t[key])
print('equal', len(PAIRS))
plt.plot([0, 1])
plt.savefig(OUT)
"#
    );
    let run = sb.make_figure("r2025-objects", &code, &[]);
    assert_eq!(run.exit_code(), Some(0), "{}", run.json);
}

#[test]
fn a_figure_from_matlab_r2025_without_its_objects_is_refused_with_one_sentence() {
    let sb = sandbox_with_figs("fig-r2025");
    let run = sb.make_figure("r2025", "fig = load('r2025.fig')\nplt.savefig(OUT)\n", &[]);
    assert_eq!(run.exit_code(), Some(2), "{}", run.json);
    let tail = run.json["stderr_tail"].as_str().unwrap_or_default();
    assert!(
        tail.contains("load('r2025.fig'): refused: it is a MATLAB R2025-or-later figure")
            && tail.contains("hgM_080000")
            && tail.contains("export its data from MATLAB"),
        "{tail}"
    );
}

/// `internal-inspect` (the window's call) of `rel`: the answer's text and preview.
fn inspect(sb: &Sandbox, rel: &str) -> Value {
    let mut cmd = blackbox::pdfagent();
    cmd.args(["internal-inspect", "--path", rel]).arg("--src");
    let out = blackbox::run(cmd.arg(&sb.src));
    assert!(
        out.status.success(),
        "internal-inspect failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("internal-inspect prints JSON")
}

#[test]
fn describe_data_gives_axes_series_legend_and_the_redraw() {
    let sb = sandbox_with_figs("fig-describe");
    let answer = inspect(&sb, "edge_v5.fig");
    let text = answer["text"].as_str().unwrap_or_default();
    for want in [
        "MATLAB figure",
        "load('edge_v5.fig') returns it as data",
        "3 axes:",
        "axes[0]: title 'Edge cases', x 'x (log, reversed)', y 'y', ylim [0.0, 120.0], \
         xscale log, x reversed",
        "lines[0] lineseries 'squares': 10 values, range 1..100",
        "legend (northwest): 'bars', 'dots'",
        "scatters[0] scattergroup 'dots': 2 values, range 2..3",
        "surfaces[0] surface: 4x5 values, range 0..12",
        "not read (listed under 'unknown'): light",
        "redraw it with:",
        "  plt.savefig(OUT)",
    ] {
        assert!(text.contains(want), "missing {want:?} in:\n{text}");
    }
    // The redraw in the text is the documented one, for this file.
    for line in redraw("edge_v5.fig").lines() {
        assert!(
            text.contains(&format!("  {line}")),
            "missing redraw line {line:?}"
        );
    }
    let rows = answer["preview"]["variables"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert_eq!(answer["preview"]["kind"], "variables");
    assert!(
        rows.iter()
            .any(|r| r["name"] == "axes[0].lines[0] squares" && r["shape"][0] == 10),
        "{rows:?}"
    );
    // Every real fixture is described, none as an unknown binary.
    for name in real_fixtures() {
        let text = inspect(&sb, &name)["text"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        assert!(
            text.contains("MATLAB figure") && text.contains("redraw it with:"),
            "{name}:\n{text}"
        );
    }
    // An R2025-layout figure is described from its objects.
    let text = inspect(&sb, "r2025_lines_legend_title.fig")["text"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    for want in [
        "MATLAB figure (R2025 or later)",
        "axes[0]: title 'Predator and Prey Populations over time at equillibrium.', \
         x 'Time', y 'Population'",
        "legend (northeast): 'X', 'Y', 'Z'",
        "lines[0] lineseries 'X': 397 values",
    ] {
        assert!(text.contains(want), "missing {want:?} in:\n{text}");
    }
    let refused = inspect(&sb, "r2025.fig");
    let text = refused["text"].as_str().unwrap_or_default();
    assert!(
        text.contains("refused: it is a MATLAB R2025-or-later figure")
            && !text.contains("Traceback"),
        "{text}"
    );
}

#[test]
fn mat_files_with_matlab_objects_load_as_python_values() {
    // Real MAT-files MATLAB wrote (tests/fixtures/mat_objects, cited in its README); the
    // expected values are the ones the MATLAB scripts that wrote them assign.
    let sb = Sandbox::new("mat-objects");
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/mat_objects");
    for name in ["strings.mat", "times.mat", "tables.mat"] {
        std::fs::copy(dir.join(name), sb.src.join(name)).unwrap();
    }
    let code = r#"
import pandas as pd
s = load('strings.mat')
assert s['string_scalar'] == 'Hello' and s['string_empty'] == '', s
assert s['string_array'].tolist() == [['Apple', 'Banana', 'Cherry'], ['Date', 'Fig', 'Grapes']]
assert 'None' not in s
t = load('times.mat')
assert t['dt_basic'] == np.datetime64('2025-04-01T12:00:00'), t['dt_basic']
assert list(t['dt_vector']) == [np.datetime64('2025-04-01') + np.timedelta64(d, 'D')
                                for d in range(6)], t['dt_vector']
assert t['dt_array'].shape == (2, 3) and t['dt_empty'].size == 0
assert t['dt_tz'] == np.datetime64('2025-04-01T16:00:00'), t['dt_tz']  # 12:00 New York, UTC
assert t['dur_s'] == np.timedelta64(5, 's') and t['dur_m'] == np.timedelta64(5, 'm')
assert t['dur_hms'] == np.timedelta64(3723, 's')
assert t['dur_array'].shape == (2, 3) and t['dur_array'][1, 2] == np.timedelta64(60, 's')
assert t['cdur_days']['class'] == 'calendarDuration'
tb = load('tables.mat')
df = tb['table_numeric']
assert isinstance(df, pd.DataFrame) and list(df.columns) == ['Var1', 'Var2'], df
assert list(df['Var1']) == [1.1, 2.2, 3.3] and list(df['Var2']) == [4.4, 5.5, 6.6]
assert list(tb['table_strings']['Var1']) == ['apple', 'banana', 'cherry']
tt = tb['table_time']
assert list(tt['Time']) == [pd.Timestamp('2020-01-01'), pd.Timestamp('2020-01-02'),
                            pd.Timestamp('2020-01-03')], tt
assert list(tt['Duration']) == [pd.Timedelta(seconds=30 * k) for k in (1, 2, 3)]
rn = tb['table_row_names']
assert list(rn.index) == ['R1', 'R2', 'R3'] and list(rn['Col2']) == [4.0, 5.0, 6.0]
assert list(tb['table_var_names'].columns) == ['X', 'Y']
assert np.isnan(tb['table_nan']['Var1'][1])
assert tb['table_empty'].shape == (0, 0)
c = tb['cat_ordered']
assert list(c) == ['small', 'medium', 'large'] and c.ordered
assert list(tb['cat_unordered'].categories) == ['cold', 'warm', 'hot']
m = tb['cat_missing']
assert m[0] == 'cat' and pd.isna(m[1]) and list(m[2:]) == ['dog', 'mouse']
assert list(tb['cat_from_numeric']) == ['low', 'medium', 'high', 'medium', 'low']
assert tb['timetable_datetime']['class'] == 'timetable'
plt.plot(df['Var1'], df['Var2'])
plt.savefig(OUT)
"#;
    let run = sb.make_figure("mat-objects", code, &[]);
    assert_eq!(run.exit_code(), Some(0), "{}", run.json);
    // describe_data names each object's class and says what load() gives.
    let text = inspect(&sb, "tables.mat")["text"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    for want in [
        "table_numeric",
        "table",
        "categorical",
        "table -> pandas DataFrame",
    ] {
        assert!(text.contains(want), "missing {want:?} in:\n{text}");
    }
}
