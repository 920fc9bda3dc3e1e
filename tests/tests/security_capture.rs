//! Layer 2 and the parent, on the ways in that figure capture opened: the code runs in
//! `SRC` (plain relative names), saves under any name (`savefig('x.png')`), and the parent
//! reads whatever the worker left in its run directory (`capture-NN.EXT`, the list of
//! figures). Every test runs the worker with Layer 1 bypassed and proves from outside that
//! the effect did not happen: no file written in `SRC` or outside the run directory, no
//! secret read, nothing but checked figures kept, no figure overwritten.

#![cfg(target_os = "linux")] // Layer 2 as built and proven here: Landlock, seccomp.

mod security_support;

use security_support::{Sandbox, assert_unchanged};

const PNG_1PX: &[u8] =
    b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0\x1f\x15\xc4\x89";

/// Python that tries each `(label, callable)` and prints `DONE` or `BLOCKED` per try.
fn attempts(prelude: &str, calls: &[(&str, &str)]) -> String {
    blackbox::attempts(prelude, calls, "DONE", 200)
}

fn assert_all_blocked(output: &str, calls: &[(&str, &str)]) {
    for (label, _) in calls {
        let line = output
            .lines()
            .find(|l| l.split_whitespace().nth(1) == label.split_whitespace().next())
            .unwrap_or_else(|| panic!("no outcome for {label:?}:\n{output}"));
        assert!(line.starts_with("BLOCKED"), "{label}: {line}\n{output}");
    }
}

#[test]
fn saves_under_any_name_go_to_the_run_directory_and_nowhere_else() {
    let sb = Sandbox::new("capsave");
    let before = sb.snapshot();
    let targets = [
        "'rel.png'".to_owned(),
        "'sub/dir/deep.png'".to_owned(),
        "'../escape.png'".to_owned(),
        Sandbox::py(&sb.src.join("in_src.png")),
        Sandbox::py(&sb.outside.join("outside.svg")),
        Sandbox::py(&sb.outside.join("victim.txt")),
        "'/proc/self/cwd/cwd.png'".to_owned(),
    ];
    let code = format!(
        "import matplotlib.pyplot as plt\n\
         plt.plot([1, 2, 3])\n\
         for target in [{}]:\n\
         \x20   plt.savefig(target)\n\
         plt.imsave('img.png', [[0, 1], [1, 0]])\n\
         print('SAVED', flush=True)\n",
        targets.join(", ")
    );
    let run = sb.worker(&code);
    assert!(run.stdout().contains("SAVED"), "{}", run.output());
    assert_unchanged(&sb, &before, "saves under other names");
    assert!(!sb.src.join("in_src.png").exists() && !sb.src.join("rel.png").exists());
    assert_eq!(
        std::fs::read_to_string(sb.outside.join("victim.txt")).unwrap(),
        "original"
    );
    // All eight went into the run directory under the capture's own names...
    for i in 1..=8 {
        let found = ["png", "svg"]
            .iter()
            .any(|ext| sb.run.join(format!("capture-{i:02}.{ext}")).is_file());
        assert!(
            found,
            "capture {i} missing: {:?}",
            std::fs::read_dir(&sb.run).unwrap().count()
        );
    }
    // ...and the parent keeps them under the figure's name only, whatever they were called.
    let kept = sb.collect("fig");
    assert_eq!(kept["ok"], true, "{kept}");
    let files = sb.figure_files();
    assert_eq!(files.len(), 8, "{files:?}");
    assert!(files.iter().all(|f| f.starts_with("fig")), "{files:?}");
    assert!(files.contains(&"fig-5.svg".to_owned()), "{files:?}");
    assert!(
        kept["hint"].as_str().unwrap().contains("victim.txt"),
        "{kept}"
    );
}

#[test]
fn writes_around_the_capture_cannot_reach_src_or_outside() {
    let sb = Sandbox::new("capraw");
    let before = sb.snapshot();
    // The writers under plt.savefig, reached past the capture: matplotlib's own vector
    // writers, the original imsave kept in the capture's closure, Pillow, and raw opens.
    let prelude = format!(
        "import numpy as np, pandas as pd, posix, ctypes\n\
         import matplotlib.pyplot as plt, matplotlib.image as mimage\n\
         from PIL import Image\n\
         fig = plt.figure(); plt.plot([1, 2])\n\
         orig_imsave = [c.cell_contents for c in mimage.imsave.__closure__\n\
         \x20       if getattr(c.cell_contents, '__name__', '') == 'imsave'][0]\n\
         libc = ctypes.CDLL(None)\n\
         SRCFILE = {src_file}\nOUTFILE = {out_file}\n",
        src_file = Sandbox::py(&sb.src.join("x.png")),
        out_file = Sandbox::py(&sb.outside.join("x.png")),
    );
    let calls = [
        ("svg-relative", "fig.canvas.print_figure('raw.svg')"),
        ("pdf-src", "fig.canvas.print_figure(SRCFILE + '.pdf')"),
        ("svg-outside", "fig.canvas.print_figure(OUTFILE + '.svg')"),
        ("imsave-relative", "orig_imsave('raw.png', [[0, 1]])"),
        ("imsave-src", "orig_imsave(SRCFILE, [[0, 1]])"),
        ("imsave-outside", "orig_imsave(OUTFILE, [[0, 1]])"),
        ("pil-relative", "Image.new('RGB', (1, 1)).save('pil.png')"),
        ("savetxt-relative", "np.savetxt('rel.txt', [1, 2])"),
        (
            "to_csv-relative",
            "pd.DataFrame({'a': [1]}).to_csv('rel.csv')",
        ),
        ("open-relative", "open('rel.bin', 'wb').write(b'x')"),
        (
            "posix.open-relative",
            "posix.open('rel2.bin', posix.O_WRONLY | posix.O_CREAT)",
        ),
        (
            "ctypes-open-relative",
            "(_ for _ in ()).throw(OSError('refused')) if libc.open(b'rel3.bin', 0o101, 0o644) < 0 else 'opened'",
        ),
    ];
    let run = sb.worker(&attempts(&prelude, &calls));
    let output = run.output();
    assert_all_blocked(&output, &calls);
    assert_unchanged(&sb, &before, "writes around the capture");
}

#[test]
fn a_refused_file_access_says_where_output_goes() {
    let sb = Sandbox::new("capmsg");
    let before = sb.snapshot();
    let write = sb.make_figure(
        "w",
        "np.savetxt('out.txt', [1, 2])\nplt.plot([1])\nplt.show()\n",
        &[],
    );
    assert_eq!(write.exit_code(), Some(2), "{}", write.json);
    let tail = write.json["stderr_tail"].as_str().unwrap();
    assert!(
        tail.contains("'out.txt' is in the data folder, which is read-only"),
        "{tail}"
    );
    assert!(tail.contains("plt.savefig(OUT)"), "{tail}");
    let read = sb.make_figure(
        "r",
        "import pandas as pd\npd.read_csv('../outside/secret.csv')\n",
        &[],
    );
    assert_eq!(read.exit_code(), Some(2), "{}", read.json);
    let tail = read.json["stderr_tail"].as_str().unwrap();
    assert!(tail.contains("is outside the data folder"), "{tail}");
    assert!(!tail.contains(&sb.secret), "{tail}");
    assert_unchanged(&sb, &before, "refused accesses");
}

#[test]
fn relative_reads_cannot_leave_src() {
    let sb = Sandbox::new("caprd");
    std::fs::write(sb.outside.join("secret.png"), PNG_1PX).unwrap();
    std::os::unix::fs::symlink(sb.outside.join("secret.csv"), sb.src.join("link.csv")).unwrap();
    std::os::unix::fs::symlink(&sb.outside, sb.src.join("linkdir")).unwrap();
    let prelude = "import numpy as np, pandas as pd, ctypes\n\
                   import matplotlib.pyplot as plt\n\
                   libc = ctypes.CDLL(None)\n";
    let calls = [
        ("read_csv-dotdot", "pd.read_csv('../outside/secret.csv')"),
        (
            "loadtxt-dotdot",
            "np.loadtxt('../outside/secret.txt', dtype=str)",
        ),
        ("open-dotdot", "open('../outside/secret.txt').read()"),
        ("imread-dotdot", "plt.imread('../outside/secret.png')"),
        ("read_csv-symlink", "pd.read_csv('link.csv')"),
        ("open-symlinked-dir", "open('linkdir/secret.txt').read()"),
        (
            "ctypes-open-dotdot",
            "(_ for _ in ()).throw(OSError('refused')) if libc.open(b'../outside/secret.txt', 0) < 0 else 'opened'",
        ),
    ];
    let run = sb.worker(&attempts(prelude, &calls));
    let output = run.output();
    assert_all_blocked(&output, &calls);
    assert!(!output.contains(&sb.secret), "the secret leaked:\n{output}");
    // The data folder itself reads by plain name.
    let ok = sb.worker("import pandas as pd\nprint('ROWS', len(pd.read_csv('data.csv')))\n");
    assert!(ok.stdout().contains("ROWS 3"), "{}", ok.output());
}

#[test]
fn the_data_folder_cannot_configure_or_replace_the_libraries() {
    let sb = Sandbox::new("caprc");
    std::fs::write(
        sb.src.join("matplotlibrc"),
        "lines.linewidth: 42\nbackend: module://evil\n",
    )
    .unwrap();
    std::fs::write(sb.src.join("evil.mplstyle"), "lines.linewidth: 43\n").unwrap();
    std::fs::write(sb.src.join("evil"), "lines.linewidth: 44\n").unwrap();
    for module in ["seaborn", "statistics", "evil", "antigravity"] {
        std::fs::write(
            sb.src.join(format!("{module}.py")),
            format!("print('HIJACKED {module}', flush=True)\n"),
        )
        .unwrap();
    }
    let code = format!(
        "import sys, matplotlib as mpl, matplotlib.pyplot as plt\n\
         print('LW', mpl.rcParams['lines.linewidth'], flush=True)\n\
         import seaborn, statistics\n\
         print('SNS', seaborn.__file__, flush=True)\n\
         for style in ['evil', 'evil.mplstyle', {abs_style}, 'antigravity.x', ['ggplot', 'evil']]:\n\
         \x20   try:\n\
         \x20       plt.style.use(style); print('USED', style, flush=True)\n\
         \x20   except Exception as e:\n\
         \x20       print('REFUSED', style, e, flush=True)\n\
         for call in [lambda: mpl.rc_context(fname='evil.mplstyle'), lambda: mpl.rc_file('evil'),\n\
         \x20            lambda: mpl.use('module://evil'), lambda: plt.switch_backend('module://evil')]:\n\
         \x20   try:\n\
         \x20       call(); print('USED rc', flush=True)\n\
         \x20   except Exception as e:\n\
         \x20       print('REFUSED rc', e, flush=True)\n\
         print('LW2', mpl.rcParams['lines.linewidth'], flush=True)\n\
         print('IMPORTED', sorted(m for m in ('evil', 'antigravity') if m in sys.modules), flush=True)\n\
         print('BACKEND', mpl.get_backend(), flush=True)\n",
        abs_style = Sandbox::py(&sb.src.join("evil.mplstyle")),
    );
    let run = sb.worker(&code);
    let out = run.output();
    assert!(
        out.contains("LW 1.5"),
        "the data folder's matplotlibrc was read:\n{out}"
    );
    assert!(
        !out.contains("HIJACKED"),
        "a module was imported from the data folder:\n{out}"
    );
    let sns = out
        .lines()
        .find(|l| l.starts_with("SNS"))
        .unwrap_or_default();
    assert!(!sns.contains(sb.src.to_str().unwrap()), "{sns}");
    assert!(
        !out.lines().any(|l| l.starts_with("USED")),
        "a style or settings file was applied:\n{out}"
    );
    assert_eq!(out.matches("REFUSED").count(), 9, "{out}");
    assert!(
        out.contains("LW2 1.5") && out.contains("IMPORTED []"),
        "{out}"
    );
    assert!(out.to_lowercase().contains("backend agg"), "{out}");
}

/// The worker, Layer 1 bypassed, plants `what` under the first capture name in its run
/// directory and lists it as a figure; the parent must keep nothing.
fn planted(tag: &str, plant: &str) -> (Sandbox, serde_json::Value, String) {
    let sb = Sandbox::new(tag);
    std::fs::write(sb.outside.join("secret.png"), PNG_1PX).unwrap();
    let code = format!(
        "import os, json\n\
         run = os.path.dirname(OUT)\n\
         target = os.path.join(run, 'capture-01.png')\n\
         SECRET = {secret}\n\
         try:\n\
         \x20   {plant}\n\
         \x20   print('PLANTED', flush=True)\n\
         except OSError as e:\n\
         \x20   print('NOT PLANTED', e, flush=True)\n\
         with open(os.path.join(run, '.pdfagent-figures.json'), 'w') as f:\n\
         \x20   json.dump({{'figures': [{{'index': 1, 'format': 'png', 'captured': 'saved'}}]}}, f)\n\
         os._exit(0)  # before the worker's own capture rewrites the list\n",
        secret = Sandbox::py(&sb.outside.join("secret.png")),
    );
    let run = sb.worker(&code);
    let kept = sb.collect("fig");
    (sb, kept, run.output())
}

#[test]
fn links_and_fifos_under_capture_names_are_refused_not_followed() {
    for (tag, plant) in [
        ("capsym", "os.symlink(SECRET, target)"),
        ("caphard", "os.link(SECRET, target)"),
        ("capfifo", "os.mkfifo(target)"),
        ("capdir", "os.symlink(os.path.dirname(SECRET), target)"),
    ] {
        let (sb, kept, output) = planted(tag, plant);
        assert_eq!(kept["ok"], false, "{plant}: {kept}\n{output}");
        assert!(
            sb.figure_files().is_empty(),
            "{plant}: {:?}",
            sb.figure_files()
        );
    }
}

#[test]
fn a_forged_list_of_figures_keeps_nothing_it_did_not_check() {
    let sb = Sandbox::new("capforge");
    let code = format!(
        "import os, json, shutil\n\
         run = os.path.dirname(OUT)\n\
         png = bytes.fromhex('{png}')\n\
         for i in range(1, 18):\n\
         \x20   with open(os.path.join(run, 'capture-%02d.png' % i), 'wb') as f:\n\
         \x20       f.write(png)\n\
         figs = [{{'index': i, 'format': 'png', 'captured': 'saved', 'name': '../../x%d.png' % i}} for i in range(1, 18)]\n\
         with open(os.path.join(run, '.pdfagent-figures.json'), 'w') as f:\n\
         \x20   json.dump({{'figures': figs}}, f)\n\
         print('FORGED', flush=True)\n\
         os._exit(0)  # before the worker's own capture rewrites the list\n",
        png = PNG_1PX
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<String>(),
    );
    let run = sb.worker(&code);
    assert!(run.stdout().contains("FORGED"), "{}", run.output());
    let kept = sb.collect("fig");
    assert_eq!(kept["ok"], false, "{kept}");
    assert!(
        kept["hint"].as_str().unwrap().contains("more than 16"),
        "{kept}"
    );
    assert!(sb.figure_files().is_empty());
}

#[test]
fn seventeen_figures_are_refused_with_a_message_and_none_is_kept() {
    let sb = Sandbox::new("cap17");
    let code = "import matplotlib.pyplot as plt\n\
                for i in range(17):\n\
                \x20   plt.figure()\n\
                \x20   plt.plot([0, i])\n\
                \x20   plt.savefig(f'fig{i}.png')\n";
    let run = sb.make_figure("many", code, &[]);
    assert_eq!(run.exit_code(), Some(2), "{}", run.json);
    let hint = run.json["hint"].as_str().unwrap_or_default().to_owned();
    let tail = run.json["stderr_tail"].as_str().unwrap_or_default();
    assert!(
        hint.contains("16") || tail.contains("more than 16 figures"),
        "{}",
        run.json
    );
    assert!(sb.figure_files().is_empty(), "{:?}", sb.figure_files());
    // Sixteen are fine.
    let ok = sb.make_figure("many", &code.replace("range(17)", "range(16)"), &[]);
    assert_eq!(ok.exit_code(), Some(0), "{}", ok.json);
    assert_eq!(ok.json["figures"].as_array().unwrap().len(), 16);
}

#[test]
fn a_run_with_several_figures_cannot_overwrite_another_figure() {
    let sb = Sandbox::new("capover");
    let other = sb.make_figure("b-2", "plt.plot([3, 1])\nplt.savefig(OUT)\n", &[]);
    assert_eq!(other.exit_code(), Some(0), "{}", other.json);
    let before = std::fs::read(sb.figures.join("b-2.png")).unwrap();
    let two = "plt.figure(); plt.plot([1, 2]); plt.savefig('a.png')\n\
               plt.figure(); plt.plot([2, 1]); plt.savefig('b.png')\n";
    let run = sb.make_figure("b", two, &[]);
    assert_eq!(run.exit_code(), Some(2), "{}", run.json);
    assert!(
        run.json["hint"].as_str().unwrap().contains("b-2.png"),
        "{}",
        run.json
    );
    assert_eq!(std::fs::read(sb.figures.join("b-2.png")).unwrap(), before);
    assert!(!sb.figures.join("b.png").exists());
    // Under a free name the same code keeps both, in the order saved.
    let ok = sb.make_figure("c", two, &[]);
    assert_eq!(ok.exit_code(), Some(0), "{}", ok.json);
    assert_eq!(sb.figure_files(), ["b-2.png", "c-2.png", "c.png"]);
}
