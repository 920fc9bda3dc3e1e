//! The run-time guard on the destinations (issue #40, `python-runtime/worker/guard.py`),
//! with Layer 1 bypassed: the roads the red team found to `exec`/`eval`, to code and
//! function objects, to imports by name, to frames, ctypes, tracing, unpickling and the
//! worker's environment — all in `tests/corpus/guard/routes.py` — are refused at run time,
//! whatever road they take. Each route, if it reaches its destination, writes a marker file
//! `m-<route>` into the run directory: with the guard unarmed every marker is there (the
//! routes are real), with it armed none is, seen from outside after the run. Attempts on
//! the guard itself ride along: `sys.audit` spoofing, an audit hook of the code's own,
//! a thread started after arming, an `atexit` callback that runs after the code.
//!
//! The guard is a tripwire in front of Layer 2, not a wall: the other security suites run
//! with it unarmed (security_support) and prove Layer 2 alone.

#![cfg(target_os = "linux")] // Layer 2 as the other suites build it: Landlock, seccomp.

mod security_support;

use security_support::Sandbox;

const ROUTES: &str = include_str!("../corpus/guard/routes.py");

/// Every route in routes.py: `(label, the guard's rule that refuses it)`.
const ROUTE_RULES: &[(&str, &str)] = &[
    ("pil_features", "guard-exec"),
    ("pil_modules", "guard-exec"),
    ("code_replace", "guard-code"),
    ("find_class", "guard-pickle"),
    ("cbook_types", "guard-code"),
    ("np_info", "guard-import"),
    ("import_by_name", "guard-import"),
    ("plot_backend", "guard-import"),
    ("option_backend", "guard-import"),
    ("apply_eval", "guard-pandas-eval"),
    ("agg_query", "guard-pandas-eval"),
    // Expr's own scope is made by the code: refused as a frame handed out.
    ("expr", "guard-frame"),
    ("scope", "guard-frame"),
    ("re_bltns", "guard-exec"),
    ("formatter_hints", "guard-exec"),
    ("walk_stack", "guard-frame"),
    ("ctypes", "guard-native"),
    ("environ", "guard-open"),
    ("thread_exec", "guard-exec"),
    ("spoofed_audit", "guard-exec"),
    // The hook is refused silently (sys.addaudithook swallows a hook's refusal; the guard's
    // line on stderr says so), and the `exec` after it meets the guard's hook.
    ("own_hook", "guard-exec"),
    ("settrace", "guard-trace"),
    ("marshal", "guard-exec"),
    ("atexit", "guard-exec"),
    // A library function swapped for exec in its module's dict, called by a lazily
    // imported module's own import-time code: not a call of exec by name there.
    ("module_swap", "guard-exec"),
];

/// Routes whose refusal happens where the code cannot catch it in `attempt` (inside a
/// library that swallows the error, in another thread, at exit): their `RAN` line says only
/// that the call returned; the guard's own line on stderr and the absent marker say the rest.
const REFUSED_OUT_OF_BAND: &[&str] = &[
    "environ",
    "thread_exec",
    "atexit",
    "plot_backend",
    "option_backend",
];

/// Routes that Layer 1's run-time depth (`harden.py`: read-only registries, the unpicklers'
/// `find_class`, `np.info(toplevel=)`, pandas' plotting backend, `Formatter.get_field`; issue
/// #40 item 2) refuses before the guard sees them. With the guard unarmed they must still be
/// refused (by harden.py, said on a `BLOCKED` line) and reach nothing; armed, either refusal
/// counts, and the absent marker is the proof.
const HARDENED: &[&str] = &[
    "pil_features",
    "pil_modules",
    "find_class",
    "np_info",
    "plot_backend",
    "option_backend",
    "formatter_hints",
];

fn markers(sb: &Sandbox) -> Vec<String> {
    let mut found: Vec<String> = std::fs::read_dir(&sb.run)
        .expect("the run directory is readable")
        .flatten()
        .filter_map(|e| e.file_name().to_str().map(str::to_owned))
        .filter_map(|n| n.strip_prefix("m-").map(str::to_owned))
        .collect();
    found.sort();
    found
}

#[test]
fn every_route_reaches_its_destination_with_the_guard_unarmed() {
    let sb = Sandbox::new("guard-off");
    let run = sb.worker(ROUTES);
    let out = run.output();
    let found = markers(&sb);
    // A fork server's child cannot read /proc at all (Layer 2 there): the environment
    // route is closed by the wall itself, with or without the guard.
    let walled = |label: &str| label == "environ" && security_support::via_fork_server();
    let missing: Vec<&str> = ROUTE_RULES
        .iter()
        .map(|(label, _)| *label)
        .filter(|label| {
            !walled(label) && !HARDENED.contains(label) && !found.iter().any(|f| f == label)
        })
        .collect();
    for label in HARDENED {
        assert!(
            !found.iter().any(|f| f == label),
            "route {label} reached its destination although harden.py refuses it:\n{out}"
        );
        assert!(
            REFUSED_OUT_OF_BAND.contains(label)
                || out
                    .lines()
                    .any(|l| l.starts_with(&format!("BLOCKED {label} "))),
            "route {label} was not refused by harden.py:\n{out}"
        );
    }
    assert!(
        missing.is_empty(),
        "these routes no longer reach their destination even without the guard, so the \
         guard suite would prove nothing about them: {missing:?}\n{out}"
    );
}

#[test]
fn the_guard_refuses_every_route_at_run_time() {
    let sb = Sandbox::guarded("guard-on");
    let run = sb.worker(ROUTES);
    let out = run.output();
    let found = markers(&sb);
    assert!(
        found.is_empty(),
        "routes reached their destination with the guard armed: {found:?}\n{out}"
    );
    for (label, rule) in ROUTE_RULES {
        if REFUSED_OUT_OF_BAND.contains(label) || HARDENED.contains(label) {
            continue;
        }
        let line = out
            .lines()
            .find(|l| l.starts_with(&format!("BLOCKED {label} ")))
            .unwrap_or_else(|| panic!("route {label} was not refused:\n{out}"));
        assert!(
            line.contains(&format!("[{rule}]")) && line.contains("PDFAgent refused"),
            "route {label} was refused, but not by the guard's {rule}: {line}\n{out}"
        );
    }
    // Refusals said on stderr whatever the code did with the exception: the answer's
    // stderr tail carries them.
    let stderr = run.stderr();
    for rule in [
        "guard-open",
        "guard-exec",
        "guard-import",
        "guard-hook",
        "guard-frame",
    ] {
        assert!(
            stderr.contains("pdfagent: guard: PDFAgent refused") && stderr.contains(rule),
            "no `{rule}` refusal on stderr:\n{stderr}"
        );
    }
    // The figure after the attempts is still made: the guard refuses destinations, not runs.
    assert_eq!(run.status.code(), Some(0), "{out}");
}

#[test]
fn ordinary_code_passes_the_guard_untouched() {
    let sb = Sandbox::guarded("guard-legit");
    std::fs::write(sb.src.join("ab.csv"), "a,b\n1,5\n2,1\n3,0\n").unwrap();
    let code = r#"from __future__ import annotations
import typing
import numpy as np
import pandas as pd
import matplotlib.pyplot as plt
import seaborn as sns
from scipy import stats

df = pd.read_csv('ab.csv')
q = df.query('a > 1 and b < 2')
df2 = df.eval('c = a + b')
rows = list(df.itertuples())
sel = df.query('`a` >= 2 or b == 5')
np.save(OUT + '.npy', np.arange(3))
back = np.load(OUT + '.npy')

class Point(typing.NamedTuple):
    x: float
    y: float = 0.0

def hint(n: int) -> list[int]:
    return [n]

class Box(typing.NamedTuple):
    w: int
    h: int

hints = typing.get_type_hints(hint)
p = Point(1.0)
fig, ax = plt.subplots()
ax.plot(df2['a'], df2['c'], label=f'{len(q)} {len(sel)} {rows[0].a} {back.sum()} {p.x} {Box(1, 2).h}')
sns.histplot(stats.norm.rvs(size=50, random_state=1), ax=ax)
ax.legend()
print('HINTS', sorted(hints))
plt.savefig(OUT)
"#;
    let run = sb.worker(code);
    let out = run.output();
    assert_eq!(run.status.code(), Some(0), "{out}");
    assert!(out.contains("HINTS ['n', 'return']"), "{out}");
    assert!(
        !run.stderr().contains("pdfagent: guard:"),
        "the guard refused something in ordinary code:\n{out}"
    );
}

/// `pdfagent provenance FIGURE --json`.
fn provenance_json(figure: &std::path::Path) -> serde_json::Value {
    let shown = blackbox::run(
        blackbox::pdfagent()
            .arg("provenance")
            .arg(figure)
            .arg("--json"),
    );
    serde_json::from_slice(&shown.stdout).expect("provenance --json prints JSON")
}

/// The guard's refusals reach the record (issue #40 item 1), Layer 1 bypassed: code that
/// tries a guard-only import and a read outside the data folder, catches both refusals and
/// makes its figure anyway. The worker's answer lists both, and the figure kept from the
/// run directory (as a figure run keeps it, `internal-collect-run --code --src`) carries
/// them in its provenance record — read back by `pdfagent provenance --json` — while the
/// effects are absent: no marker, the module never loaded, the secret never read.
#[test]
fn a_refused_attempt_is_in_the_answer_and_the_figures_provenance_record() {
    let sb = Sandbox::guarded("guard-record");
    let secret = Sandbox::py(&sb.outside.join("secret.txt"));
    let code = format!(
        r#"import matplotlib
import matplotlib.pyplot as plt
SYS = matplotlib.sys
RUN = OUT.rsplit('/', 1)[0]
try:
    SYS.modules['importlib'].import_module('telnetlib')
    open(RUN + '/m-import', 'w').write('reached')
except ImportError as e:
    print('BLOCKED import', e)
try:
    text = open({secret}).read()
    open(RUN + '/m-open', 'w').write(text)
except PermissionError as e:
    print('BLOCKED open', e)
if 'telnetlib' in SYS.modules:
    open(RUN + '/m-loaded', 'w').write('reached')
plt.plot([1, 2, 3])
plt.savefig(OUT)
"#
    );
    let run = sb.worker(&code);
    let out = run.output();
    assert_eq!(run.status.code(), Some(0), "{out}");
    assert!(markers(&sb).is_empty(), "{:?}\n{out}", markers(&sb));
    assert!(!out.contains(&sb.secret), "the secret was read:\n{out}");
    for what in ["BLOCKED import", "BLOCKED open"] {
        assert!(out.contains(what), "no `{what}` line:\n{out}");
    }
    let answer: serde_json::Value = serde_json::from_slice(
        &std::fs::read(sb.run.join(".pdfagent-answer.json"))
            .expect("the worker wrote its answer with the guard's refusals"),
    )
    .expect("the answer is JSON");
    let expected = [
        ("guard-import", "import of 'telnetlib'".to_owned()),
        (
            "guard-open",
            format!("opening {}", secret.replace('"', "'")),
        ),
    ];
    let pairs = |list: &serde_json::Value| -> Vec<(String, String)> {
        list.as_array()
            .map(|a| {
                a.iter()
                    .map(|r| {
                        (
                            r["rule"].as_str().unwrap_or_default().to_owned(),
                            r["what"].as_str().unwrap_or_default().to_owned(),
                        )
                    })
                    .collect()
            })
            .unwrap_or_default()
    };
    let want: Vec<(String, String)> = expected
        .iter()
        .map(|(rule, what)| ((*rule).to_owned(), what.clone()))
        .collect();
    assert_eq!(pairs(&answer["guard"]), want, "{answer}");

    let code_file = sb.inputs().join("record.py");
    std::fs::write(&code_file, &code).unwrap();
    let collected = sb.collect_with(
        "refused",
        &[
            "--code".as_ref(),
            code_file.as_os_str(),
            "--src".as_ref(),
            sb.src.as_os_str(),
        ],
    );
    assert_eq!(collected["ok"], true, "{collected}");
    assert_eq!(pairs(&collected["guard"]), want, "{collected}");
    assert_eq!(
        collected["figures"][0]["provenance"]["guard_refusals"], 2,
        "{collected}"
    );
    let shown = provenance_json(&sb.figures.join("refused.png"));
    assert_eq!(pairs(&shown["provenance"]["guard"]), want, "{shown}");
    let text = blackbox::run(
        blackbox::pdfagent()
            .arg("provenance")
            .arg(sb.figures.join("refused.png")),
    );
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.contains("the run-time guard refused 2 attempt(s)")
            && text.contains("import of 'telnetlib' [guard-import]"),
        "{text}"
    );
}

/// The same through the front end, Layer 1 on: a read outside the data folder that the
/// checker cannot see (a computed path) is refused by the guard; the code catches it and
/// makes its figure. `make-figure --json` says so in `guard` and in the hint, and the kept
/// figure's record lists it (the summary counts it).
#[test]
fn make_figure_reports_the_guards_refusals_in_the_result_and_the_record() {
    let sb = Sandbox::guarded("guard-answer");
    let secret = sb.outside.join("secret.txt");
    let dir = Sandbox::py(&sb.outside);
    let code = format!(
        "import pandas as pd\nimport matplotlib.pyplot as plt\ntry:\n    \
         print(pd.read_csv({dir} + '/' + 'secret.txt'))\nexcept PermissionError:\n    \
         pass\nplt.plot([1, 2])\nplt.savefig(OUT)\n"
    );
    let run = sb.make_figure("answer", &code, &[]);
    let json = &run.json;
    assert_eq!(json["ok"], true, "{json}");
    assert!(
        !json.to_string().contains(&sb.secret),
        "the secret was read: {json}"
    );
    let what = format!("opening '{}'", secret.display());
    assert_eq!(
        json["guard"],
        serde_json::json!([{"rule": "guard-open", "what": what}]),
        "{json}"
    );
    let hint = json["hint"].as_str().unwrap_or_default();
    assert!(
        hint.contains(&format!("the run-time guard refused {what} [guard-open]")),
        "{hint}"
    );
    assert_eq!(
        json["figures"][0]["provenance"]["guard_refusals"], 1,
        "{json}"
    );
    let shown = provenance_json(&sb.figures.join("answer.png"));
    assert_eq!(shown["provenance"]["guard"], json["guard"], "{shown}");
}

/// `python-runtime/worker/guard_modules.txt` (what the guard lets the libraries import) is
/// current: importing every module path the checker knows under the allowed modules
/// (`library_modules.txt`) in the real runtime, guard unarmed, loads no module the list
/// leaves out. Regenerate with `python-runtime/src/check/guard_modules.py` when it fails.
#[test]
fn the_guard_module_list_is_current() {
    let listed: std::collections::BTreeSet<&str> =
        include_str!("../../python-runtime/worker/guard_modules.txt")
            .lines()
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .collect();
    let paths: Vec<&str> = include_str!("../../python-runtime/src/check/library_modules.txt")
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    let code = format!(
        "import importlib, sys\nfor name in {paths:?}:\n    try:\n        \
         importlib.import_module(name)\n    except BaseException:\n        pass\n\
         print('LOADED', ' '.join(sorted(sys.modules)))\n"
    );
    let sb = Sandbox::new("guard-modules");
    let run = sb.worker(&code);
    let out = run.output();
    let loaded = out
        .lines()
        .find_map(|l| l.strip_prefix("LOADED "))
        .unwrap_or_else(|| panic!("the import sweep did not finish:\n{out}"));
    let missing: Vec<&str> = loaded
        .split(' ')
        .filter(|name| !matches!(*name, "__main__" | "__mp_main__"))
        .filter(|name| {
            let top = name.split('.').next().unwrap_or(name);
            !listed.contains(name) && !listed.contains(format!("{top}.*").as_str())
        })
        .collect();
    assert!(
        missing.is_empty(),
        "modules the libraries import that guard_modules.txt leaves out (regenerate it with \
         python-runtime/src/check/guard_modules.py): {missing:?}"
    );
}
