//! Layer 2, files: code that reaches the worker unchecked cannot read outside `SRC` nor
//! write outside its run directory — through numpy, pandas and matplotlib readers and
//! writers, library internals (`pd.io.common.os`), `ctypes`, `..`, `/proc/self` tricks or
//! symbolic links placed in `SRC`. Each test proves the effect did not happen.

#![cfg(target_os = "linux")] // Layer 2 as built and proven here: Landlock, seccomp, /proc.

mod security_support;

use security_support::{Sandbox, assert_unchanged};

/// Python that tries each `(label, callable)` and prints `READ`/`WROTE` or `BLOCKED` per try.
fn attempts(prelude: &str, calls: &[(&str, &str)], success_word: &str) -> String {
    blackbox::attempts(&format!("import sys\n{prelude}"), calls, success_word, 300)
}

fn blocked_count(output: &str) -> usize {
    output.lines().filter(|l| l.starts_with("BLOCKED ")).count()
}

#[test]
fn reads_outside_src_are_refused_by_every_reader() {
    let sb = Sandbox::new("read");
    // A PNG outside SRC, for matplotlib's reader.
    let png = sb.outside.join("secret.png");
    std::fs::write(
        &png,
        b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0\x1f\x15\xc4\x89",
    )
    .unwrap();
    let txt = Sandbox::py(&sb.outside.join("secret.txt"));
    let csv = Sandbox::py(&sb.outside.join("secret.csv"));
    let png = Sandbox::py(&png);
    let prelude = format!(
        "import pandas as pd, numpy, matplotlib.image as mpimg, ctypes\n\
         TXT = {txt}\nCSV = {csv}\nPNG = {png}\n"
    );
    let calls = [
        ("open", "open(TXT).read()"),
        (
            "np.loadtxt absolute",
            "np.loadtxt(CSV, dtype=str, delimiter=',')",
        ),
        (
            "np.genfromtxt absolute",
            "np.genfromtxt(CSV, dtype=str, delimiter=',')",
        ),
        (
            "np.fromfile absolute",
            "np.fromfile(TXT, dtype=np.uint8).tobytes()",
        ),
        (
            "np.memmap absolute",
            "np.memmap(TXT, dtype=np.uint8, mode='r').tobytes()",
        ),
        ("pd.read_csv absolute", "pd.read_csv(CSV).to_string()"),
        (
            "pd.read_csv SRC/../",
            "pd.read_csv(SRC + '/../outside/secret.csv').to_string()",
        ),
        (
            "pd.read_csv relative ../",
            "pd.read_csv('../outside/secret.csv').to_string()",
        ),
        (
            "pd.read_csv file:// URL",
            "pd.read_csv('file://' + CSV).to_string()",
        ),
        ("pd.read_fwf", "pd.read_fwf(TXT).to_string()"),
        (
            "srcpath ..",
            "open(srcpath('../outside/secret.txt')).read()",
        ),
        ("mpimg.imread absolute", "mpimg.imread(PNG)"),
        ("plt.imread absolute", "plt.imread(PNG)"),
        (
            "pd.io.common.os.open",
            "pd.io.common.os.read(pd.io.common.os.open(TXT, 0), 100)",
        ),
        ("/proc/self/root", "open('/proc/self/root' + TXT).read()"),
        (
            "/proc/self/cwd/..",
            "open('/proc/self/cwd/../outside/secret.txt').read()",
        ),
        ("/proc/1/root", "open('/proc/1/root' + TXT).read()"),
        (
            "/proc/self/fd of cwd",
            "open('/proc/self/fd/' + str(pd.io.common.os.open('..', 0)) + '/outside/secret.txt').read()",
        ),
        (
            "ctypes libc open",
            "(lambda libc: (libc.open(TXT.encode(), 0), libc.read)[0])(ctypes.CDLL(None))",
        ),
        (
            "np.ctypeslib libc fopen",
            "np.ctypeslib.ctypes.CDLL(None).fopen(TXT.encode(), b'r')",
        ),
        ("/etc/shadow", "open('/etc/shadow').read()"),
        ("/root", "pd.io.common.os.listdir('/root')"),
    ];
    let run = sb.worker(&attempts(&prelude, &calls, "READ"));
    run.assert_ended_by_itself();
    let out = run.output();
    println!("{out}");
    assert!(!out.contains(&sb.secret), "the secret leaked:\n{out}");
    // ctypes `open` returns a descriptor number, not content: it must be -1 (refused).
    for line in out.lines().filter(|l| l.starts_with("READ ")) {
        assert!(
            line.starts_with("READ ctypes libc open -1")
                || line.starts_with("READ np.ctypeslib libc fopen 0"),
            "a read outside SRC succeeded: {line}\n{out}"
        );
    }
    assert_eq!(
        blocked_count(&out) + out.lines().filter(|l| l.starts_with("READ ")).count(),
        calls.len(),
        "every attempt must have been tried:\n{out}"
    );
    assert!(
        out.contains("srcpath('../outside/secret.txt'): refused"),
        "{out}"
    );
}

/// PIL is allowed for `Image.open(path)` because Layer 2, not Layer 1, confines what a path
/// can reach: every road out of SRC ends in the operating system's refusal (PermissionError),
/// while a file inside SRC is read (and found not to be an image).
#[test]
fn pil_reads_outside_src_are_refused() {
    let sb = Sandbox::new("pil");
    std::os::unix::fs::symlink(sb.outside.join("secret.txt"), sb.src.join("link.png")).unwrap();
    std::os::unix::fs::symlink(&sb.outside, sb.src.join("linkdir")).unwrap();
    let txt = Sandbox::py(&sb.outside.join("secret.txt"));
    let prelude = format!("from PIL import Image\nTXT = {txt}\n");
    let outside = [
        ("Image.open absolute", "Image.open(TXT).load()"),
        (
            "Image.open SRC/../",
            "Image.open(SRC + '/../outside/secret.txt').load()",
        ),
        (
            "Image.open relative ../",
            "Image.open('../outside/secret.txt').load()",
        ),
        (
            "Image.open /proc/self/root",
            "Image.open('/proc/self/root' + TXT).load()",
        ),
        ("Image.open link in SRC", "Image.open('link.png').load()"),
        (
            "Image.open linked folder in SRC",
            "Image.open(SRC + '/linkdir/secret.txt').load()",
        ),
    ];
    let inside = ("Image.open inside SRC", "Image.open('data.csv').load()");
    let calls: Vec<(&str, &str)> = outside.iter().copied().chain([inside]).collect();
    let run = sb.worker(&attempts(&prelude, &calls, "READ"));
    run.assert_ended_by_itself();
    let out = run.output();
    println!("{out}");
    assert!(!out.contains(&sb.secret), "the secret leaked:\n{out}");
    for (label, _) in outside {
        assert!(
            out.lines()
                .any(|l| l.starts_with(&format!("BLOCKED {label} PermissionError"))),
            "`{label}` was not refused by the operating system:\n{out}"
        );
    }
    assert!(
        out.lines()
            .any(|l| l.starts_with("BLOCKED Image.open inside SRC UnidentifiedImageError")),
        "a file inside SRC must be read (it is no image):\n{out}"
    );
}

#[test]
fn symlinks_in_src_do_not_lead_outside() {
    let sb = Sandbox::new("symlink");
    std::os::unix::fs::symlink(sb.outside.join("secret.csv"), sb.src.join("link.csv")).unwrap();
    std::os::unix::fs::symlink(&sb.outside, sb.src.join("linkdir")).unwrap();
    std::os::unix::fs::symlink("../outside/secret.txt", sb.src.join("rel.txt")).unwrap();
    let prelude = "import pandas as pd\n";
    let calls = [
        (
            "pd.read_csv SRC/link",
            "pd.read_csv(SRC + '/link.csv').to_string()",
        ),
        (
            "np.loadtxt SRC/linkdir",
            "np.loadtxt(SRC + '/linkdir/secret.csv', dtype=str, delimiter=',')",
        ),
        ("open relative link", "open(SRC + '/rel.txt').read()"),
        ("srcpath link", "srcpath('link.csv')"),
        ("srcpath linkdir", "srcpath('linkdir/secret.txt')"),
        ("srcpath relative link", "srcpath('rel.txt')"),
    ];
    let mut code = attempts(prelude, &calls, "READ");
    code.push_str(
        "print('WALK', walkfiles())\nprint('DATA', pd.read_csv(srcpath('data.csv')).shape)\n",
    );
    let run = sb.worker(&code);
    run.assert_ended_by_itself();
    let out = run.output();
    println!("{out}");
    assert!(!out.contains(&sb.secret), "the secret leaked:\n{out}");
    assert_eq!(
        blocked_count(&out),
        calls.len(),
        "every read must be refused:\n{out}"
    );
    assert!(
        out.contains("srcpath('link.csv'): refused: a symbolic link on this path points outside"),
        "srcpath must say why:\n{out}"
    );
    assert!(
        out.contains("WALK ['data.csv']"),
        "walkfiles lists only files inside SRC:\n{out}"
    );
    assert!(
        out.contains("DATA (3, 2)"),
        "ordinary reads still work:\n{out}"
    );
}

#[test]
fn writes_outside_the_run_dir_are_refused_by_every_writer() {
    let sb = Sandbox::new("write");
    let before = sb.snapshot();
    let victim_meta = std::fs::metadata(sb.outside.join("victim.txt")).unwrap();
    let out_dir = Sandbox::py(&sb.outside);
    let prelude = format!(
        "import pandas as pd, ctypes\n\
         os = pd.io.common.os\n\
         O = {out_dir}\n\
         df = pd.DataFrame({{'a': [1, 2]}})\n\
         plt.plot([1, 2])\n"
    );
    let calls = [
        ("np.savetxt absolute", "np.savetxt(O + '/np.txt', [1, 2])"),
        ("np.save absolute", "np.save(O + '/np.npy', np.arange(3))"),
        ("np.savetxt into SRC", "np.savetxt(SRC + '/np.txt', [1, 2])"),
        (
            "np.savetxt ~/..",
            "np.savetxt(os.path.expanduser('~/../np-home.txt'), [1])",
        ),
        ("DataFrame.to_csv absolute", "df.to_csv(O + '/df.csv')"),
        ("DataFrame.to_csv into SRC", "df.to_csv(SRC + '/df.csv')"),
        ("DataFrame.to_csv relative ../", "df.to_csv('../df.csv')"),
        (
            "DataFrame.to_pickle absolute",
            "df.to_pickle(O + '/df.pkl')",
        ),
        // plt.savefig itself is captured into the run directory (security_capture.rs);
        // matplotlib's writers underneath it are what must be refused here.
        (
            "print_figure absolute",
            "plt.gcf().canvas.print_figure(O + '/fig.svg')",
        ),
        (
            "print_figure relative ../",
            "plt.gcf().canvas.print_figure('../escaped.pdf')",
        ),
        (
            "print_figure into SRC",
            "plt.gcf().canvas.print_figure(SRC + '/fig.svg')",
        ),
        (
            "print_figure /proc/self/cwd/..",
            "plt.gcf().canvas.print_figure('/proc/self/cwd/../proc.pdf')",
        ),
        (
            "PIL save absolute",
            "__import__('PIL.Image').Image.new('RGB', (1, 1)).save(O + '/pil.png')",
        ),
        ("overwrite", "open(O + '/victim.txt', 'w').write('pwned')"),
        ("append", "open(O + '/victim.txt', 'a').write('pwned')"),
        ("pd.io.common.os.remove", "os.remove(O + '/victim.txt')"),
        ("os.truncate", "os.truncate(O + '/victim.txt', 0)"),
        (
            "os.rename out of SRC",
            "os.rename(SRC + '/data.csv', 'stolen.csv')",
        ),
        (
            "os.rename into outside",
            "os.rename(O + '/victim.txt', O + '/moved.txt')",
        ),
        ("os.unlink in SRC", "os.unlink(SRC + '/data.csv')"),
        ("os.mkdir outside", "os.mkdir(O + '/newdir')"),
        (
            "os.symlink outside",
            "os.symlink('/etc/passwd', O + '/link')",
        ),
        (
            "os.link into run dir",
            "os.link(O + '/secret.txt', 'hard.txt')",
        ),
        (
            "os.link outside",
            "os.link(O + '/victim.txt', O + '/hard.txt')",
        ),
        (
            "ctypes libc creat",
            "ctypes.CDLL(None).creat((O + '/ctypes.txt').encode(), 0o644)",
        ),
        (
            "ctypes libc unlink",
            "ctypes.CDLL(None).unlink((O + '/victim.txt').encode())",
        ),
        (
            "np.ctypeslib libc fopen w",
            "np.ctypeslib.ctypes.CDLL(None).fopen((O + '/np-ctypes.txt').encode(), b'w')",
        ),
        (
            "/tmp",
            "open('/tmp/pdfagent-escaped-%d.txt' % os.getpid(), 'w').write('x')",
        ),
    ];
    let run = sb.worker(&attempts(&prelude, &calls, "WROTE"));
    run.assert_ended_by_itself();
    let out = run.output();
    println!("{out}");
    assert_unchanged(&sb, &before, &out);
    let after = std::fs::metadata(sb.outside.join("victim.txt")).unwrap();
    assert_eq!(victim_meta.len(), after.len());
    assert_eq!(victim_meta.modified().unwrap(), after.modified().unwrap());
    assert!(
        !sb.run.join("hard.txt").exists(),
        "a file outside was linked into the run dir"
    );
    let escaped = format!("/tmp/pdfagent-escaped-{}.txt", run.pid);
    assert!(
        !std::path::Path::new(&escaped).exists(),
        "`{escaped}` was written"
    );
    // ctypes calls return -1 / NULL instead of raising: those are the only "WROTE" lines.
    for line in out.lines().filter(|l| l.starts_with("WROTE ")) {
        assert!(
            line.ends_with(" -1") || line.ends_with(" 0"),
            "a write outside the run dir reported success: {line}\n{out}"
        );
    }
    assert_eq!(
        blocked_count(&out) + out.lines().filter(|l| l.starts_with("WROTE ")).count(),
        calls.len(),
        "every attempt must have been tried:\n{out}"
    );
}

#[test]
fn metadata_of_files_outside_cannot_be_changed() {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let sb = Sandbox::new("meta");
    let victim = sb.outside.join("victim.txt");
    std::fs::set_permissions(&victim, std::fs::Permissions::from_mode(0o600)).unwrap();
    let data = sb.src.join("data.csv");
    let before: Vec<_> = [&victim, &data]
        .iter()
        .map(|p| {
            let m = std::fs::metadata(p).unwrap();
            (m.mode(), m.uid(), m.gid(), m.mtime(), m.mtime_nsec())
        })
        .collect();
    let prelude = format!(
        "import pandas as pd\nos = pd.io.common.os\nV = {}\nD = {}\n",
        Sandbox::py(&victim),
        Sandbox::py(&data)
    );
    let calls = [
        ("chmod outside", "os.chmod(V, 0o777)"),
        ("chmod in SRC", "os.chmod(D, 0o777)"),
        ("chown outside", "os.chown(V, 1234, 1234)"),
        ("utime outside", "os.utime(V, (0, 0))"),
        ("utime in SRC", "os.utime(D, (0, 0))"),
        ("setxattr outside", "os.setxattr(V, 'user.pdfagent', b'x')"),
    ];
    let run = sb.worker(&attempts(&prelude, &calls, "CHANGED"));
    run.assert_ended_by_itself();
    let out = run.output();
    println!("{out}");
    let after: Vec<_> = [&victim, &data]
        .iter()
        .map(|p| {
            let m = std::fs::metadata(p).unwrap();
            (m.mode(), m.uid(), m.gid(), m.mtime(), m.mtime_nsec())
        })
        .collect();
    assert_eq!(
        before, after,
        "metadata outside the run dir changed:\n{out}"
    );
    assert!(
        std::fs::read(&victim).unwrap() == b"original",
        "the victim's content changed"
    );
    assert_eq!(
        blocked_count(&out),
        calls.len(),
        "every change must be refused:\n{out}"
    );
}

#[test]
fn device_nodes_cannot_be_made_in_the_run_dir() {
    // As root, a device node in the (writable) run directory would be raw access to the
    // disk behind every file rule: it must not be creatable at all.
    let sb = Sandbox::new("mknod");
    let prelude = "import pandas as pd, stat\nos = pd.io.common.os\ndev = os.stat('/').st_dev\n";
    let calls = [
        (
            "mknod block device of /",
            "os.mknod('disk', stat.S_IFBLK | 0o600, dev)",
        ),
        (
            "mknod /dev/mem",
            "os.mknod('mem', stat.S_IFCHR | 0o600, os.makedev(1, 1))",
        ),
        (
            "mknod /dev/null",
            "os.mknod('null', stat.S_IFCHR | 0o666, os.makedev(1, 3))",
        ),
    ];
    let mut code = attempts(prelude, &calls, "MADE");
    code.push_str(
        "for name in ('disk', 'mem'):\n\
         \x20   try:\n\
         \x20       print('RAW', name, len(open(name, 'rb').read(4096)))\n\
         \x20   except OSError as e:\n\
         \x20       print('NORAW', name, e)\n",
    );
    let run = sb.worker(&code);
    run.assert_ended_by_itself();
    let out = run.output();
    println!("{out}");
    assert_eq!(
        blocked_count(&out),
        calls.len(),
        "mknod must be refused:\n{out}"
    );
    assert!(
        !out.contains("RAW disk") || out.contains("NORAW disk"),
        "{out}"
    );
    assert!(
        !out.lines().any(|l| l.starts_with("RAW ")),
        "a raw device was read:\n{out}"
    );
    for name in ["disk", "mem", "null"] {
        assert!(
            std::fs::symlink_metadata(sb.run.join(name)).is_err(),
            "device node `{name}` exists in the run dir"
        );
    }
}
