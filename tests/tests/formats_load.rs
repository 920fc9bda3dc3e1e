//! `load('file')` through the real pipeline: every supported file type (the rows of the
//! reader table, readers.py) is read into its natural object and plotted; pickles, unknown types and paths leaving SRC are refused
//! with messages that name the file. The data files — MATLAB v5 and v7.3 (HDF5) included —
//! are made at test time by the runtime's own numpy/scipy/h5py/pandas/openpyxl
//! (`tests/fixtures/make_load_data.py`, run in the real worker).

#![cfg(target_os = "linux")]

mod security_support;

use security_support::Sandbox;

const GENERATOR: &str = include_str!("../fixtures/make_load_data.py");
const FILES: &[&str] = &[
    "v5.mat",
    "v73.mat",
    "table.csv",
    "table.tsv",
    "semicolon.csv",
    "plain.txt",
    "arr.npy",
    "arrs.npz",
    "objects.npy",
    "meta.json",
    "sheet.xlsx",
    "table.tab",
    "semicolon.dat",
    "arrs.h5",
    "pixels.png",
];

/// A sandbox whose `src/` holds every data file the suite reads.
fn sandbox_with_data(tag: &str) -> Sandbox {
    let sb = Sandbox::new(tag);
    let made = sb.worker(GENERATOR);
    assert!(
        made.status.success() && made.stdout().contains("fixtures written"),
        "the fixture generator failed in the worker (is the runtime built with h5py and \
         openpyxl? run scripts/build-runtime):\n{}",
        made.output()
    );
    for name in FILES {
        std::fs::copy(sb.run.join(name), sb.src.join(name))
            .unwrap_or_else(|e| panic!("the generator did not write {name}: {e}"));
    }
    sb
}

#[test]
fn every_supported_type_loads_into_its_natural_object_and_plots() {
    let sb = sandbox_with_data("load-all");
    let v73 = std::fs::read(sb.src.join("v73.mat")).unwrap();
    assert_eq!(
        &v73[512..520],
        b"\x89HDF\r\n\x1a\n",
        "v73.mat is HDF5 behind MATLAB's 512-byte header"
    );
    let code = r#"
m5 = load('v5.mat')
m73 = load('v73.mat')
assert sorted(m5) == ['label', 'm', 's', 'x'], sorted(m5)
assert sorted(m73) == ['c', 'flags', 'label', 'm', 's', 'x', 'z'], sorted(m73)
assert m5['x'].shape == (5,) and m73['x'].shape == (5,)
assert np.allclose(m5['x'], m73['x'])
assert m5['m'].shape == (2, 3) and np.array_equal(m5['m'], m73['m']), m73['m']
assert m5['label'] == 'field sweep' and m73['label'] == 'field sweep'
assert m5['s']['gain'] == 2.5 and m73['s']['gain'] == 2.5
assert list(m73['c'][0]) == [1.0, 2.0, 3.0] and m73['c'][1] == 'hi', m73['c']
assert m73['flags'].dtype == bool and list(m73['flags']) == [True, False, True]
assert m73['z'][1] == 2 - 0.5j
t = load('table.csv')
assert list(t.columns) == ['x', 'y'] and len(t) == 5
assert load('table.tsv').equals(t)
assert load('semicolon.csv').equals(t)
p = load('plain.txt')
assert p.shape == (5, 2) and np.allclose(p[1], t['y'])
a = load('arr.npy')
assert np.allclose(a, t['y'])
z = load('arrs.npz')
assert sorted(z) == ['x', 'y'] and np.allclose(z['x'], t['x'])
meta = load('meta.json')
assert meta == {'title': 'sweep', 'points': [1, 2, 3]}
s = load('sheet.xlsx')
assert list(s.columns) == ['x', 'y'] and np.allclose(s['y'], t['y'])
assert load('table.tab').equals(t)
assert load('semicolon.dat').equals(t)
h = load('arrs.h5')
assert sorted(h) == ['g', 'x'] and np.allclose(h['x'], t['x']) and np.allclose(h['g']['y'], t['y'])
img = load('pixels.png')
assert img.shape == (4, 6, 3) and img.dtype == np.uint8 and img[3, 5, 2] == 71, img
plt.plot(m73['x'], a, label='v7.3')
plt.plot(m5['x'], s['y'], 'o', label='v5 + xlsx')
plt.title(meta['title'])
plt.legend()
plt.savefig(OUT)
"#;
    let run = sb.make_figure("loaded", code, &[]);
    assert_eq!(run.exit_code(), Some(0), "{}", run.json);
    let png = std::fs::read(sb.figures.join("loaded.png")).unwrap();
    assert!(png.starts_with(b"\x89PNG"));
}

fn failed_run(sb: &Sandbox, code: &str) -> String {
    let run = sb.make_figure("fig", code, &[]);
    assert_eq!(run.exit_code(), Some(2), "{}", run.json);
    assert_eq!(run.stage(), "run");
    assert!(
        std::fs::read_dir(&sb.figures).unwrap().next().is_none(),
        "a figure was saved"
    );
    run.json["stderr_tail"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

#[test]
fn a_pickled_npy_is_refused_and_never_unpickled() {
    let sb = sandbox_with_data("load-pickle");
    let tail = failed_run(
        &sb,
        "x = load('objects.npy')\nplt.plot(x)\nplt.savefig(OUT)\n",
    );
    assert!(
        tail.contains("load('objects.npy'): refused")
            && tail.contains("pickle")
            && tail.contains("runs code"),
        "{tail}"
    );
}

#[test]
fn unknown_types_missing_files_and_paths_outside_src_are_named() {
    let sb = Sandbox::new("load-errors");
    std::fs::write(sb.src.join("notes.docx"), b"PK").unwrap();
    let tail = failed_run(&sb, "load('notes.docx')\n");
    assert!(
        tail.contains("load('notes.docx'): unknown file type '.docx'")
            && tail.contains(".mat")
            && tail.contains(".xlsx"),
        "{tail}"
    );
    let tail = failed_run(&sb, "load('missing.csv')\n");
    assert!(
        tail.contains("load('missing.csv'): no such file in the source folder"),
        "{tail}"
    );
    let tail = failed_run(&sb, "print(load('../outside/secret.csv'))\n");
    assert!(
        tail.contains("refused") && tail.contains("leaves the source folder"),
        "{tail}"
    );
    assert!(!tail.contains(&sb.secret), "the secret was read: {tail}");
    std::fs::write(sb.src.join("broken.json"), b"{not json").unwrap();
    let tail = failed_run(&sb, "load('broken.json')\n");
    assert!(
        tail.contains("load('broken.json'): could not read it as a .json file"),
        "{tail}"
    );
}

#[test]
fn the_primitives_libraries_are_not_importable_by_the_code() {
    let sb = Sandbox::new("load-imports");
    for lib in ["h5py", "openpyxl"] {
        let run = sb.make_figure("fig", &format!("import {lib}\nplt.savefig(OUT)\n"), &[]);
        assert_eq!(run.exit_code(), Some(1), "{}", run.json);
        assert_eq!(run.json["errors"][0]["rule"], "import-not-allowed");
    }
}
