//! Layer 1's run-time half (`harden.py`, `capture.py`, `preamble.py`): the worker replaces
//! the importers, downloaders and unpicklers the libraries hold, pins `allow_pickle` off
//! where numpy reads it, checks style names and the resulting `rcParams` by exact type, and
//! computes `srcpath()` with functions bound before the code runs. Every test runs the
//! worker with Layer 1 bypassed (so only these defences and Layer 2 stand), and aims at
//! effects Layer 2 *allows* — a file written in the run directory, a module imported from
//! it, a file read there — so what stops them is the run-time defence under test. Each
//! proves from outside that the effect did not happen, and a control in the same run proves
//! that the effect would have been seen.

#![cfg(target_os = "linux")] // the suites' Layer 2 is Linux's (Landlock, seccomp)

mod security_support;

use security_support::Sandbox;

/// Python that tries each `(label, call)` and prints `DONE` or `BLOCKED` per try.
fn attempts(prelude: &str, calls: &[(&str, &str)], epilogue: &str) -> String {
    blackbox::attempts(prelude, calls, "DONE", 200) + epilogue
}

/// The outcome line of `label`, which must say BLOCKED.
fn blocked<'a>(output: &'a str, label: &str) -> &'a str {
    let line = output
        .lines()
        .find(|l| l.split_whitespace().nth(1) == Some(label))
        .unwrap_or_else(|| panic!("no outcome for {label:?}:\n{output}"));
    assert!(line.starts_with("BLOCKED"), "{label}: {line}\n{output}");
    line
}

#[test]
fn no_keyword_partial_or_reader_unpickles() {
    let sb = Sandbox::new("rtpickle");
    // Unpickling a Payload calls open(RUN/unpickled-TAG, 'w'): a file Layer 2 lets the
    // worker create, so only the worker's own pin can keep it from being written.
    let prelude = format!(
        "import io, functools, pickle\n\
         import numpy as np, pandas as pd\n\
         RUN = {run}\n\
         class Payload:\n\
         \x20   def __init__(self, tag):\n\
         \x20       self.tag = tag\n\
         \x20   def __reduce__(self):\n\
         \x20       return (open, (RUN + '/unpickled-' + self.tag, 'w'))\n\
         def npy(tag):\n\
         \x20   b = io.BytesIO(); np.save(b, np.array([Payload(tag)], dtype=object)); b.seek(0)\n\
         \x20   return b\n\
         def npz(tag):\n\
         \x20   b = io.BytesIO(); np.savez(b, a=np.array([Payload(tag)], dtype=object)); b.seek(0)\n\
         \x20   return b\n\
         def raw(tag):\n\
         \x20   return io.BytesIO(pickle.dumps(Payload(tag)))\n\
         key = 'allow_' + 'pickle'\n",
        run = Sandbox::py(&sb.run)
    );
    let calls = [
        ("computed-keyword", "np.load(npy('kw'), **{key: True})"),
        (
            "partial",
            "functools.partial(np.load, allow_pickle=True)(npy('partial'))",
        ),
        (
            "npzfile",
            "np.lib.npyio.NpzFile(npz('npzfile'), allow_pickle=True)['a']",
        ),
        (
            "npz-load",
            "np.load(npz('npzload'), allow_pickle=True)['a']",
        ),
        (
            "plain-pickle-np-load",
            "np.load(raw('raw'), allow_pickle=True)",
        ),
        (
            "read_array",
            "np.lib.format.read_array(npy('readarray'), **{key: True})",
        ),
        ("pickle-loads", "pickle.loads(raw('loads').getvalue())"),
        (
            "pickle-unpickler",
            "pickle.Unpickler(raw('unpickler')).load()",
        ),
        ("pickle-pure", "pickle._Unpickler(raw('pure')).load()"),
        ("read_pickle", "pd.read_pickle(raw('pd'))"),
        (
            "read_pickle-by-name",
            "getattr(pd, 'read_' + 'pickle')(raw('pdname'))",
        ),
    ];
    // The control: calling what the pickle would call writes the marker.
    let epilogue = "f, args = Payload('control').__reduce__()\nf(*args).close()\n\
                    print('CONTROL', flush=True)\n";
    let run = sb.worker(&attempts(&prelude, &calls, epilogue));
    let output = run.output();
    assert!(output.contains("CONTROL"), "{output}");
    assert!(sb.run.join("unpickled-control").is_file(), "{output}");
    for (label, _) in &calls {
        let line = blocked(&output, label);
        assert!(line.contains("never"), "{label}: no sentence: {line}");
    }
    for tag in [
        "kw",
        "partial",
        "npzfile",
        "npzload",
        "raw",
        "readarray",
        "loads",
        "unpickler",
        "pure",
        "pd",
        "pdname",
    ] {
        assert!(
            !sb.run.join(format!("unpickled-{tag}")).exists(),
            "the pickle of {tag} ran:\n{output}"
        );
    }
}

#[test]
fn importers_and_registries_import_nothing_by_name() {
    let sb = Sandbox::new("rtimport");
    // Modules in the run directory (on sys.path) whose import writes RUN/imported-N: Layer 2
    // allows both, so a marker means the route imported the module.
    let prelude = format!(
        "import io, sys, importlib, pkgutil, runpy\n\
         import matplotlib as mpl, matplotlib.pyplot as plt, seaborn as sns\n\
         import matplotlib.backend_bases as bb\n\
         from matplotlib.backends.registry import backend_registry\n\
         RUN = {run}\n\
         sys.path.insert(0, RUN)\n\
         for i in range(1, 12):\n\
         \x20   with open(f'{{RUN}}/pdfagent_evil{{i}}.py', 'w') as f:\n\
         \x20       f.write(f'open({{RUN!r}} + \"/imported-{{i}}\", \"a\").write(\"x\")\\nFigureCanvas = None\\n')\n\
         importlib.invalidate_caches()\n\
         importlib.import_module('pdfagent_evil11')\n",
        run = Sandbox::py(&sb.run)
    );
    let calls = [
        (
            "seaborn-vendored-pydoc",
            "sns.external.docscrape.pydoc.locate('pdfagent_evil1')",
        ),
        ("pkgutil-resolve", "pkgutil.resolve_name('pdfagent_evil2')"),
        (
            "backend-registry",
            "backend_registry.load_backend_module('module://pdfagent_evil3')",
        ),
        (
            "switch-backend",
            "plt.switch_backend('module://pdfagent_evil4')",
        ),
        ("use", "mpl.use('module://pdfagent_evil5')"),
        (
            "canvas-registry",
            "(bb.register_backend('evil6', 'pdfagent_evil6'), \
             plt.figure().savefig(io.BytesIO(), format='evil6'))",
        ),
        ("style-package", "plt.style.use('pdfagent_evil7.mystyle')"),
        ("runpy", "runpy.run_module('pdfagent_evil8')"),
        (
            "logging-config",
            "importlib.import_module('logging.config').dictConfig(\
             {'version': 1, 'handlers': {'h': {'()': 'pdfagent_evil9.x'}}})",
        ),
        (
            "rc-backend",
            "(dict.update(mpl.rcParams, {'backend': 'module://pdfagent_evil10'}), \
             plt.figure().savefig(io.BytesIO(), format='png'))",
        ),
        ("reload", "importlib.reload(sys.modules['pdfagent_evil11'])"),
    ];
    let run = sb.worker(&attempts(&prelude, &calls, ""));
    let output = run.output();
    for (label, _) in &calls {
        blocked(&output, label);
    }
    // The control: importing module 11 by its name wrote its marker once, and the reload
    // did not run it again.
    assert_eq!(
        std::fs::read_to_string(sb.run.join("imported-11"))
            .ok()
            .as_deref(),
        Some("x"),
        "{output}"
    );
    for i in 1..=10 {
        assert!(
            !sb.run.join(format!("imported-{i}")).exists(),
            "module {i} was imported:\n{output}"
        );
    }
}

#[test]
fn look_alike_style_names_read_no_style_file() {
    let sb = Sandbox::new("rtstyle");
    std::fs::write(
        sb.src.join("evil.mplstyle"),
        "figure.facecolor: ff0000\naxes.facecolor: ff0000\n",
    )
    .unwrap();
    let prelude = "import matplotlib.pyplot as plt\n\
                   class Named(str):\n\
                   \x20   def __eq__(self, other):\n\
                   \x20       return True\n\
                   \x20   __hash__ = str.__hash__\n\
                   \x20   def __contains__(self, other):\n\
                   \x20       return True\n\
                   def ctx(style):\n\
                   \x20   with plt.style.context(style):\n\
                   \x20       pass\n";
    let calls = [
        ("subclass-name", "plt.style.use(Named('evil.mplstyle'))"),
        (
            "subclass-path",
            "plt.style.use(Named(srcpath('evil.mplstyle')))",
        ),
        (
            "subclass-in-list",
            "plt.style.use([Named('evil.mplstyle')])",
        ),
        ("subclass-context", "ctx(Named('evil.mplstyle'))"),
        (
            "library-entry-file",
            "(plt.style.library.__setitem__('x', srcpath('evil.mplstyle')), plt.style.use('x'))",
        ),
    ];
    // The figure the attempts leave is saved as SVG; a second one drawn in the style's red
    // on purpose is the control that red is seen.
    let epilogue = "fig = plt.figure(); plt.plot([1, 2]); fig.savefig('fig.svg')\n\
                    with plt.style.context({'figure.facecolor': 'ff0000'}):\n\
                    \x20   red = plt.figure(); plt.plot([1, 2]); red.savefig('red.svg')\n\
                    print('SAVED', flush=True)\n";
    let run = sb.worker(&attempts(prelude, &calls, epilogue));
    let output = run.output();
    assert!(output.contains("SAVED"), "{output}");
    for (label, _) in &calls {
        blocked(&output, label);
    }
    let figure = std::fs::read_to_string(sb.run.join("capture-01.svg")).unwrap();
    let control = std::fs::read_to_string(sb.run.join("capture-02.svg")).unwrap();
    assert!(
        control.contains("#ff0000"),
        "the control is not red: {control}"
    );
    assert!(
        !figure.contains("#ff0000") && figure.contains("#ffffff"),
        "the style file was applied:\n{output}"
    );
}

#[test]
fn usetex_however_it_is_set_refuses_the_figure() {
    let sb = Sandbox::new("rtusetex");
    let prelude = format!(
        "import matplotlib as mpl, matplotlib.pyplot as plt\n\
         RUN = {run}\n\
         class Yes:\n\
         \x20   def __bool__(self):\n\
         \x20       return True\n\
         def off():\n\
         \x20   dict.update(mpl.rcParams, {{'text.usetex': False}})\n\
         held = []  # an rc_context entered and never left\n\
         def figure():\n\
         \x20   fig = plt.figure(); plt.plot([1, 2]); plt.title('$x^2$')\n\
         \x20   return fig\n\
         def attempt(setting, draw):\n\
         \x20   try:\n\
         \x20       setting()\n\
         \x20       draw(figure())\n\
         \x20   finally:\n\
         \x20       off(); plt.close('all')\n",
        run = Sandbox::py(&sb.run)
    );
    let set_dict = "lambda: dict.update(mpl.rcParams, {'text.usetex': True})";
    let calls = [
        (
            "dict-update-savefig",
            format!("attempt({set_dict}, lambda f: f.savefig('a.png'))"),
        ),
        (
            "style-dict-computed-key",
            "attempt(lambda: plt.style.use({'text.' + 'usetex': True}), \
             lambda f: f.savefig('b.png'))"
                .to_owned(),
        ),
        (
            "look-alike-true",
            "attempt(lambda: dict.update(mpl.rcParams, {'text.usetex': Yes()}), \
             lambda f: f.savefig('c.png'))"
                .to_owned(),
        ),
        (
            "rc-context",
            "attempt(lambda: held.append(mpl.rc_context({'text.usetex': True})) \
             or held[-1].__enter__(), lambda f: f.savefig('d.png'))"
                .to_owned(),
        ),
        (
            "print-figure-direct",
            format!("attempt({set_dict}, lambda f: f.canvas.print_figure(RUN + '/direct.png'))"),
        ),
        (
            "canvas-draw",
            format!("attempt({set_dict}, lambda f: (f.canvas.draw(), open(RUN + '/drawn', 'w')))"),
        ),
        ("show", format!("attempt({set_dict}, lambda f: plt.show())")),
    ];
    let calls: Vec<(&str, &str)> = calls.iter().map(|(l, c)| (*l, c.as_str())).collect();
    let epilogue = "fig = figure(); fig.savefig('ok.png'); print('CONTROL', flush=True)\n";
    let run = sb.worker(&attempts(&prelude, &calls, epilogue));
    let output = run.output();
    for (label, _) in &calls {
        let line = blocked(&output, label);
        assert!(line.contains("LaTeX"), "{label}: no sentence: {line}");
    }
    assert!(output.contains("CONTROL"), "{output}");
    // Only the control's figure was written; nothing drawn with usetex on.
    let mut written: Vec<String> = std::fs::read_dir(&sb.run)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("capture-") || n == "direct.png" || n == "drawn")
        .collect();
    written.sort();
    assert_eq!(written, ["capture-01.png"], "{output}");
}

#[test]
fn reassigned_or_shadowed_functions_change_nothing_srcpath_decides() {
    let sb = Sandbox::new("rtbind");
    // A file the worker may read (its own run directory) but srcpath() must refuse: only
    // srcpath's own check keeps it out.
    let token = sb.secret.clone();
    std::fs::write(sb.run.join("peek.txt"), &token).unwrap();
    std::fs::write(sb.run.join("peek.csv"), format!("a\n{token}\n")).unwrap();
    let prelude = format!(
        "import os\n\
         import numpy as np\n\
         RUN = {run}\n\
         print('CONTROL-READABLE', len(open(RUN + '/peek.txt').read()), flush=True)\n\
         tries = [\n\
         \x20   ('assign-commonpath', lambda: setattr(os.path, 'commonpath', lambda *a: SRC)),\n\
         \x20   ('assign-np-load', lambda: setattr(np, 'load', print)),\n\
         \x20   ('delete-realpath', lambda: delattr(os.path, 'realpath')),\n\
         ]\n\
         for label, fn in tries:\n\
         \x20   try:\n\
         \x20       fn(); print('DONE', label, flush=True)\n\
         \x20   except BaseException as e:\n\
         \x20       print('BLOCKED', label, type(e).__name__, e, flush=True)\n\
         # Past the read-only modules (their dicts written directly), and the code's own names\n\
         vars(os.path)['commonpath'] = lambda *a, **k: SRC\n\
         vars(os.path)['realpath'] = lambda p, **k: SRC + '/data.csv'\n\
         vars(os.path)['isabs'] = lambda p: False\n\
         vars(os)['fspath'] = lambda p: 'data.csv'\n\
         def isinstance(*a):\n\
         \x20   return True\n\
         __builtins__['isinstance'] = isinstance\n\
         np = None\n\
         os = None\n",
        run = Sandbox::py(&sb.run)
    );
    let calls = [
        ("srcpath-escape", "open(srcpath('../run/peek.txt')).read()"),
        (
            "srcpath-absolute",
            "open(srcpath(RUN + '/peek.txt')).read()",
        ),
        ("srcpath-not-text", "srcpath(12)"),
        ("load-escape", "load('../run/peek.csv')"),
        ("listdir-escape", "listdir('../run')"),
        ("walkfiles-escape", "walkfiles('../run')"),
    ];
    let epilogue = "print('LOADED', load('data.csv').shape, flush=True)\n";
    let run = sb.worker(&attempts(&prelude, &calls, epilogue));
    let output = run.output();
    assert!(
        output.contains(&format!("CONTROL-READABLE {}", token.len())),
        "{output}"
    );
    for label in ["assign-commonpath", "assign-np-load", "delete-realpath"] {
        let line = blocked(&output, label);
        assert!(line.contains("read-only"), "{line}");
    }
    for (label, _) in &calls {
        blocked(&output, label);
    }
    assert!(output.contains("LOADED (3, 2)"), "{output}");
    assert!(
        !output.contains(&token),
        "the run directory's file was read:\n{output}"
    );
}

#[test]
fn downloaders_open_nothing() {
    let sb = Sandbox::new("rtfetch");
    // file:// URLs to a file the worker may read (its run directory): only the replaced
    // openers keep the token out of the output.
    let token = sb.secret.clone();
    std::fs::write(sb.run.join("peek.txt"), &token).unwrap();
    std::fs::write(sb.run.join("peek.csv"), format!("a\n{token}\n")).unwrap();
    let prelude = format!(
        "import urllib.request\n\
         import numpy as np, pandas as pd, seaborn as sns\n\
         RUN = {run}\n\
         URL = 'file://' + RUN\n\
         print('CONTROL-READABLE', len(open(RUN + '/peek.txt').read()), flush=True)\n",
        run = Sandbox::py(&sb.run)
    );
    let calls = [
        (
            "urlopen",
            "urllib.request.urlopen(URL + '/peek.txt').read()",
        ),
        (
            "opener",
            "urllib.request.build_opener().open(URL + '/peek.txt').read()",
        ),
        (
            "urlretrieve",
            "urllib.request.urlretrieve(URL + '/peek.txt')",
        ),
        ("read_csv-url", "pd.read_csv(URL + '/peek.csv')"),
        (
            "numpy-datasource",
            "np.lib.npyio.DataSource(None).open('http://127.0.0.1:9/peek.txt').read()",
        ),
        ("seaborn-dataset", "sns.load_dataset('iris')"),
        (
            "seaborn-utils-urlopen",
            "sns.utils.urlopen(URL + '/peek.txt').read()",
        ),
    ];
    let run = sb.worker(&attempts(&prelude, &calls, ""));
    let output = run.output();
    assert!(
        output.contains(&format!("CONTROL-READABLE {}", token.len())),
        "{output}"
    );
    for (label, _) in &calls {
        let line = blocked(&output, label);
        assert!(line.contains("offline"), "{label}: no sentence: {line}");
    }
    assert!(
        !output.contains(&token),
        "a file was read through a URL:\n{output}"
    );
}

#[test]
fn seaborn_datasets_read_only_the_data_folder() {
    let sb = Sandbox::new("rtdatasets");
    // A CSV in the run directory, which Layer 2 lets the worker read: only load_dataset's own
    // checks keep its token out. tips.csv in the data folder is the control that must load,
    // and a symbolic link in the data folder points at the run directory's file.
    let token = sb.secret.clone();
    std::fs::write(sb.run.join("peek.csv"), format!("a,b\n{token},1\n")).unwrap();
    std::fs::write(
        sb.src.join("tips.csv"),
        "total_bill,tip,sex,smoker,day,time,size\n\
         10.5,1.5,Male,No,Sat,Dinner,2\n\
         20.25,3.5,Female,Yes,Sun,Lunch,3\n",
    )
    .unwrap();
    std::os::unix::fs::symlink(sb.run.join("peek.csv"), sb.src.join("linked.csv")).unwrap();
    let prelude = format!(
        "import os\n\
         import seaborn as sns\n\
         RUN = {run}\n\
         UP = os.path.relpath(RUN, os.getcwd()) + '/peek'\n\
         class Sly(str):\n\
         \x20   def __str__(self): return RUN + '/peek'\n\
         \x20   def __fspath__(self): return RUN + '/peek'\n\
         \x20   def __add__(self, other): return RUN + '/peek' + other\n\
         \x20   def __contains__(self, part): return False\n\
         class PathLike:\n\
         \x20   def __fspath__(self): return RUN + '/peek.csv'\n\
         print('CONTROL-READABLE', len(open(RUN + '/peek.csv').read()), flush=True)\n\
         print('CONTROL-TIPS', sns.load_dataset('tips').shape, flush=True)\n",
        run = Sandbox::py(&sb.run)
    );
    let calls = [
        ("dotdot", "sns.load_dataset(UP)"),
        ("absolute", "sns.load_dataset(RUN + '/peek')"),
        ("url", "sns.load_dataset('file://' + RUN + '/peek')"),
        ("data-home", "sns.load_dataset('peek', data_home=RUN)"),
        (
            "data-home-kwargs",
            "sns.load_dataset('peek', **{'data_' + 'home': RUN})",
        ),
        ("cache-off", "sns.load_dataset('peek', cache=False)"),
        ("str-subclass", "sns.load_dataset(Sly('peek'))"),
        ("fspath-object", "sns.load_dataset(PathLike())"),
        ("symlink-out", "sns.load_dataset('linked')"),
        ("utils-direct", "sns.utils.load_dataset(RUN + '/peek')"),
        ("get-data-home", "sns.get_data_home(RUN)"),
        ("dataset-names", "sns.get_dataset_names()"),
        ("missing", "sns.load_dataset('iris')"),
    ];
    let run = sb.worker(&attempts(&prelude, &calls, ""));
    let output = run.output();
    assert!(
        output.contains(&format!("CONTROL-READABLE {}", token.len() + 7)),
        "{output}"
    );
    assert!(output.contains("CONTROL-TIPS (2, 7)"), "{output}");
    for (label, _) in &calls {
        blocked(&output, label);
    }
    let missing = blocked(&output, "missing");
    assert!(
        missing.contains("put iris.csv into the data folder"),
        "{missing}"
    );
    assert!(
        !output.contains(&token),
        "a file outside the data folder was read:\n{output}"
    );
}

/// Issue 40, item 2: registries that map names to modules or callables are read-only, and
/// the routes that imported a module by a name built at run time (pandas' plotting backend
/// through an option, a computed key or a keyword; np.info's `toplevel`) or handed out a
/// module's name (`find_class`, `Formatter.get_field`) refuse. Layer 1 bypassed; a route
/// that reached exec writes RUN/exec-TAG through it, a route that imported writes
/// RUN/imported-N from the module's own code: both are effects Layer 2 allows.
#[test]
fn registries_and_computed_names_reach_no_module() {
    let sb = Sandbox::new("rtregistry");
    let prelude = format!(
        "import io, sys, importlib\n\
         import numpy as np, pandas as pd\n\
         import matplotlib, matplotlib.pyplot as plt, matplotlib.ticker\n\
         from PIL import features\n\
         RUN = {run}\n\
         sys.path.insert(0, RUN)\n\
         for i in range(1, 7):\n\
         \x20   with open(f'{{RUN}}/pdfagent_reg{{i}}.py', 'w') as f:\n\
         \x20       f.write(f'open({{RUN!r}} + \"/imported-{{i}}\", \"a\").write(\"x\")\\n')\n\
         importlib.invalidate_caches()\n\
         importlib.import_module('pdfagent_reg6')\n\
         def run(f, tag):\n\
         \x20   f(f'open({{RUN!r}} + \"/exec-{{tag}}\", \"w\").close()')\n\
         \x20   return 'ran'\n\
         key = 'plotting.' + 'back' + 'end'\n\
         df = pd.DataFrame({{'a': [1, 2]}})\n",
        run = Sandbox::py(&sb.run)
    );
    let calls = [
        (
            "features-modules",
            "(features.modules.update({'x': ('builtins', 'exec')}), \
             run(features.version_module('x'), 'modules'))",
        ),
        (
            "features-features",
            "(features.features.update({'x': ('builtins', 'exec', 'exec')}), \
             run(features.version_feature('x'), 'features'))",
        ),
        (
            "features-dict-update",
            "(dict.update(features.codecs, {'x': 'y'}), 'codecs written')",
        ),
        (
            "features-rebind",
            "(setattr(features, 'modules', {'x': ('builtins', 'exec')}), \
             run(features.version_module('x'), 'rebind'))",
        ),
        (
            "pickle-compat-find-class",
            "run(pd.compat.pickle_compat.Unpickler(io.BytesIO(b'')).find_class('builtins', 'exec'), 'findclass')",
        ),
        ("set-option-backend", "pd.set_option(key, 'pdfagent_reg1')"),
        (
            "option-context-backend",
            "pd.option_context(key, 'pdfagent_reg2').__enter__()",
        ),
        (
            "plot-backend-keyword",
            "df.plot(**{'back' + 'end': 'pdfagent_reg3'})",
        ),
        (
            "np-info-toplevel",
            "np.info('system', output=io.StringIO(), **{'top' + 'level': 'pdfagent_reg4'})",
        ),
        (
            "formatter-get-field",
            "matplotlib.ticker.string.Formatter().get_field('0.__globals__[sys]', (plt.plot,), {})",
        ),
        (
            "rcparams-validate",
            "plt.rcParams.validate.__setitem__('lines.linewidth', str)",
        ),
        (
            "rcparams-still-validated",
            "plt.rcParams.__setitem__('lines.linewidth', 'not a number')",
        ),
    ];
    // Controls: the same calls that are allowed still work.
    let epilogue = "print('CONTROL', features.check_module('pil'), \
                    pd.get_option(key), \
                    matplotlib.ticker.string.Formatter().format('{0.real}', 3), \
                    plt.rcParams.validate['lines.linewidth'] is not str, flush=True)\n\
                    np.info(np.sum, output=io.StringIO())\n\
                    print('CONTROL-INFO', flush=True)\n";
    let run = sb.worker(&attempts(&prelude, &calls, epilogue));
    let output = run.output();
    assert!(
        output.contains("CONTROL True matplotlib 3 True"),
        "{output}"
    );
    assert!(output.contains("CONTROL-INFO"), "{output}");
    for (label, _) in &calls {
        blocked(&output, label);
    }
    assert_eq!(
        std::fs::read_to_string(sb.run.join("imported-6"))
            .ok()
            .as_deref(),
        Some("x"),
        "the control import did not run:\n{output}"
    );
    for i in 1..=5 {
        assert!(
            !sb.run.join(format!("imported-{i}")).exists(),
            "module {i} was imported:\n{output}"
        );
    }
    for tag in ["modules", "features", "rebind", "findclass"] {
        assert!(
            !sb.run.join(format!("exec-{tag}")).exists(),
            "exec ran through {tag}:\n{output}"
        );
    }
}

/// pandas' options whose value a computed key can set (issue #40 item 2): every option in
/// pandas' own registry (`pandas._config.config._registered_options`, enumerated in the
/// worker), set to the name of a module that writes RUN/imported-opt when imported — by
/// `pd.set_option`, by `pd.option_context`, through `pd.options.a.b = …`, and written into
/// the raw option store past validation (`pd.options.d`) — then every use of the options
/// run (plotting, printing, Excel and Parquet writers and readers, the string storage,
/// bottleneck/numexpr/numba computations). Layer 1 bypassed, the guard unarmed: no module
/// is imported by name (harden.py pins pandas' plotting-backend loader; the Excel writer
/// options are looked up in pandas' own table of writer classes, the readers, Parquet,
/// SQL, HDF and compute options take only fixed names or booleans). The options that
/// accept any text are listed here with why they import nothing; a new one fails the test.
#[test]
fn no_pandas_option_imports_a_module_by_name() {
    let sb = Sandbox::new("rtoptions");
    // Options that accept any module name as their value, and why that imports nothing.
    let reviewed_free_text: &[(&str, &str)] = &[
        (
            "display.colheader_justify",
            "a text alignment, only compared",
        ),
        (
            "display.encoding",
            "a text encoding name for the console, never imported",
        ),
        (
            "io.excel.ods.writer",
            "looked up in pandas' table of writer classes",
        ),
        (
            "io.excel.xlsm.writer",
            "looked up in pandas' table of writer classes",
        ),
        (
            "io.excel.xlsx.writer",
            "looked up in pandas' table of writer classes",
        ),
        (
            "styler.format.formatter",
            "a format text for Styler, which needs jinja2 (not shipped)",
        ),
        ("styler.format.na_rep", "text shown for missing values"),
        ("styler.format.thousands", "a separator text"),
        ("styler.latex.environment", "a LaTeX environment name, text"),
        ("styler.render.encoding", "an output encoding name, text"),
        ("styler.format.decimal", "a separator text"),
        ("display.max_seq_items", "a number, no validator"),
        ("display.chop_threshold", "a number, no validator"),
        ("display.expand_frame_repr", "a boolean, no validator"),
        ("mode.sim_interactive", "a boolean, no validator"),
    ];
    let code = format!(
        r#"import sys, importlib
import numpy as np, pandas as pd
import matplotlib.pyplot as plt
RUN = {run}
sys.path.insert(0, RUN)
with open(RUN + '/pdfagent_opt.py', 'w') as f:
    f.write('open(' + repr(RUN) + ' + "/imported-opt", "a").write("x")\n')
importlib.invalidate_caches()
NAME = 'pdfagent_' + 'opt'
registry = sys.modules['pandas._config.config']._registered_options
keys = sorted(registry)
print('OPTIONS', len(keys), flush=True)
accepted = set()
for key in keys:
    for how in ('set', 'context', 'attr'):
        try:
            if how == 'set':
                pd.set_option(key, NAME)
            elif how == 'context':
                pd.option_context(key, NAME).__enter__()
            else:
                *path, last = key.split('.')
                node = pd.options
                for part in path:
                    node = getattr(node, part)
                setattr(node, last, NAME)
            accepted.add(key)
        except BaseException as e:
            pass
# Past validation: the raw store, every leaf.
def raw(store, prefix=''):
    for k, v in list(store.items()):
        if isinstance(v, dict):
            raw(v, prefix + k + '.')
        else:
            store[k] = NAME
df = pd.DataFrame({{'a': [1.5, 2.5], 'b': ['x', 'y']}})
raw(pd.options.d)
uses = [
    lambda: df.plot(),
    lambda: df['a'].plot(),
    lambda: pd.plotting.scatter_matrix(df),
    lambda: repr(df), lambda: df.to_string(), lambda: df.to_html(), lambda: str(df['a']),
    lambda: df.to_excel(RUN + '/o.xlsx'), lambda: df.to_excel(RUN + '/o.xlsm'),
    lambda: df.to_excel(RUN + '/o.ods'), lambda: pd.ExcelWriter(RUN + '/w.xlsx'),
    lambda: pd.read_excel(RUN + '/o.xlsx'), lambda: pd.read_excel(RUN + '/o.ods'),
    lambda: df.to_parquet(RUN + '/o.parquet'), lambda: pd.read_parquet(RUN + '/o.parquet'),
    lambda: df.to_hdf(RUN + '/o.h5', key='k'), lambda: pd.read_sql('select 1', None),
    lambda: pd.array(['a'], dtype='string'), lambda: df['a'].sum(), lambda: df['a'] + df['a'],
    lambda: df['a'].rolling(2).mean(), lambda: df.style, lambda: df.to_latex(),
    lambda: df.info(buf=None), lambda: df.describe(),
]
for i, use in enumerate(uses):
    try:
        use()
    except BaseException as e:
        pass
print('ACCEPTED', ' '.join(sorted(accepted)), flush=True)
print('LOADED', NAME in sys.modules, flush=True)
"#,
        run = Sandbox::py(&sb.run)
    );
    let run = sb.worker(&code);
    let output = run.output();
    let count: usize = output
        .lines()
        .find_map(|l| l.strip_prefix("OPTIONS "))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("the options were not enumerated:\n{output}"));
    assert!(
        count > 60,
        "pandas registers {count} options only:\n{output}"
    );
    assert!(output.contains("LOADED False"), "{output}");
    assert!(
        !sb.run.join("imported-opt").exists(),
        "a pandas option imported a module by name:\n{output}"
    );
    let accepted: Vec<&str> = output
        .lines()
        .find_map(|l| l.strip_prefix("ACCEPTED"))
        .unwrap_or_else(|| panic!("no ACCEPTED line:\n{output}"))
        .split_whitespace()
        .collect();
    assert!(
        !accepted.contains(&"plotting.backend"),
        "plotting.backend accepted a module name:\n{output}"
    );
    let unreviewed: Vec<&&str> = accepted
        .iter()
        .filter(|k| !reviewed_free_text.iter().any(|(r, _)| r == *k))
        .collect();
    assert!(
        unreviewed.is_empty(),
        "pandas options that accept any text, not reviewed here (does pandas import or call \
         what they name?): {unreviewed:?}\n{output}"
    );
}
