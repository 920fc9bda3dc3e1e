//! Layer 1 and the `load('file')` primitive: the call is ordinary code, while the libraries
//! shipped only for it (h5py, openpyxl) stay out of the code's reach, and nothing reaches
//! `load`'s insides.

use python_runtime::check;

fn rejected_rules(code: &str) -> Vec<String> {
    match check(code.as_bytes()) {
        Ok(_) => panic!("accepted:\n{code}"),
        Err(r) => r.errors.into_iter().map(|e| e.rule.to_string()).collect(),
    }
}

#[test]
fn load_calls_are_accepted() {
    for code in [
        "d = load('runs/x.mat')\nplt.plot(d['x'], d['y'])\nplt.savefig(OUT)\n",
        "df = load('t.csv')\ndf.plot(x='x', y='y')\nplt.savefig(OUT)\n",
        "for n in listdir():\n    if n.endswith('.npy'):\n        plt.plot(load(n))\nplt.savefig(OUT)\n",
        "meta = load('meta.json')\nplt.title(meta['title'])\nplt.savefig(OUT)\n",
    ] {
        assert!(check(code.as_bytes()).is_ok(), "rejected:\n{code}");
    }
}

#[test]
fn the_primitives_libraries_cannot_be_imported() {
    for code in [
        "import h5py\n",
        "import openpyxl\n",
        "from h5py import File\n",
        "import h5py.h5f as f\n",
        "from openpyxl import load_workbook\n",
        "import et_xmlfile\n",
    ] {
        let rules = rejected_rules(code);
        assert!(
            rules.iter().any(|r| r == "import-not-allowed"),
            "{code}: {rules:?}"
        );
    }
}

#[test]
fn loads_insides_and_urls_are_refused() {
    for code in [
        "g = load.__globals__\n",
        "c = load.__closure__\n",
        "k = load.__code__\n",
        "w = load.__wrapped__\n",
        "d = load('https://evil.example/x.csv')\n",
        "x = load('a.npy', allow_pickle=True)\n",
    ] {
        assert!(!rejected_rules(code).is_empty(), "{code}");
    }
}

#[test]
fn the_rejection_hint_teaches_load() {
    let r = check(b"import h5py\n").unwrap_err();
    assert!(r.hint.contains("load('file')"), "{}", r.hint);
    assert!(r.hint.contains(".xlsx"), "{}", r.hint);
}
