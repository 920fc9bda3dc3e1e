//! Layer 2, programs: code that reaches the worker unchecked cannot start a program —
//! not through `os`/`posix`, `subprocess` (with the preamble's guard undone), `ctypes`,
//! matplotlib settings that call external tools (`text.usetex` → latex, animation writers →
//! ffmpeg) or a pickle's reduce — and cannot fork. Every program the attacks try would
//! write a marker into the run directory (which it could write, being confined the same
//! way): the marker's absence, seen from outside after the run, proves nothing started.

#![cfg(target_os = "linux")] // Layer 2 as built and proven here: Landlock, seccomp, /proc.

mod security_support;

use security_support::{Sandbox, processes_under};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

const MARKER: &str = "started.marker";

/// A shell script that writes the marker into the run dir, made executable.
fn fake_program(path: &Path, run_dir: &Path) {
    std::fs::write(
        path,
        format!(
            "#!/bin/sh\necho started > '{}/{MARKER}'\n",
            run_dir.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

fn assert_nothing_started(sb: &Sandbox, out: &str) {
    assert!(
        !sb.run.join(MARKER).exists(),
        "a program ran inside the worker:\n{out}"
    );
    assert!(
        processes_under(&sb.run).is_empty(),
        "processes are still running in the run dir: {:?}\n{out}",
        processes_under(&sb.run)
    );
}

#[test]
fn no_program_can_be_started() {
    let sb = Sandbox::new("exec");
    let bin = sb.src.join("bin");
    std::fs::create_dir(&bin).unwrap();
    fake_program(&bin.join("tool"), &sb.run);
    let cmd = format!("echo started > {}/{MARKER}", sb.run.display());
    let code = format!(
        r#"import sys, posix, ctypes, importlib, subprocess, pandas as pd
CMD = {cmd:?}
TOOL = {tool:?}
def attempt(label, fn):
    try:
        print('RAN', label, repr(fn())[:200], flush=True)
    except BaseException as e:
        print('BLOCKED', label, type(e).__name__, e, flush=True)
import importlib.util  # undo the preamble's guard (reload is refused too): Layer 2 alone must hold
importlib.util.find_spec('subprocess').loader.exec_module(subprocess)
attempt('posix.system', lambda: posix.system(CMD))
attempt('pd.io.common.os.system', lambda: pd.io.common.os.sys.modules['posix'].system(CMD))
attempt('subprocess.run', lambda: subprocess.run(['/bin/sh', '-c', CMD]))
attempt('subprocess tool in SRC', lambda: subprocess.run([TOOL]))
attempt('posix_spawn', lambda: posix.waitpid(posix.posix_spawn('/bin/sh', ['sh', '-c', CMD], {{}}), 0))
def fork_exec():
    pid = posix.fork()
    if pid == 0:
        try:
            posix.execv('/bin/sh', ['sh', '-c', CMD])
        finally:
            posix._exit(0)
    return posix.waitpid(pid, 0)
attempt('fork+execv', fork_exec)
attempt('ctypes system', lambda: ctypes.CDLL(None).system(CMD.encode()))
attempt('np.ctypeslib system', lambda: np.ctypeslib.ctypes.CDLL(None).system(CMD.encode()))
attempt('ctypes fork', lambda: ctypes.CDLL(None).fork())
# A program the code writes itself into the run dir (writable, never executable).
def own_program():
    with open('own.sh', 'w') as f:
        f.write('#!/bin/sh\n' + CMD + '\n')
    posix.chmod('own.sh', 0o755) if hasattr(posix, 'chmod') else None
    return subprocess.run(['./own.sh'])
attempt('own program in run dir', own_program)
attempt('ld.so loader', lambda: subprocess.run(['/lib64/ld-linux-x86-64.so.2', '/bin/sh', '-c', CMD]))
attempt('posix.execv (replaces the worker)', lambda: posix.execv('/bin/sh', ['sh', '-c', CMD]))
print('END', flush=True)
"#,
        tool = bin.join("tool").to_str().unwrap(),
    );
    let run = sb.worker(&code);
    run.assert_ended_by_itself();
    let out = run.output();
    println!("{out}");
    assert_nothing_started(&sb, &out);
    assert!(
        out.contains("END"),
        "the worker must survive every attempt:\n{out}"
    );
    // posix.system and ctypes system report the shell's failure as a status, not an error.
    for line in out.lines().filter(|l| l.starts_with("RAN ")) {
        assert!(
            !line.ends_with(" 0") && !line.contains("returncode=0"),
            "an attempt reports success: {line}\n{out}"
        );
    }
}

#[test]
fn matplotlib_settings_that_start_programs_start_nothing() {
    let sb = Sandbox::new("mplexec");
    // Fake latex / dvipng / ffmpeg, both read-only in SRC and (written by the code) in the
    // run dir; `PATH` points at both.
    let bin = sb.src.join("bin");
    std::fs::create_dir(&bin).unwrap();
    for tool in ["latex", "dvipng", "dvips", "ffmpeg", "convert", "gs"] {
        fake_program(&bin.join(tool), &sb.run);
    }
    let marker = format!("{}/{MARKER}", sb.run.display());
    let code = format!(
        r##"import sys, os, importlib, subprocess, shutil
import matplotlib, matplotlib.animation as animation
import importlib.util  # undo the preamble's guard (reload is refused too): Layer 2 alone must hold
importlib.util.find_spec('subprocess').loader.exec_module(subprocess)
os.chdir(os.path.dirname(OUT))  # the code starts in SRC (read-only); write the fakes here
os.makedirs('bin', exist_ok=True)
for tool in ('latex', 'dvipng', 'dvips', 'ffmpeg', 'convert', 'gs'):
    with open('bin/' + tool, 'w') as f:
        f.write("#!/bin/sh\necho started > {marker}\n")
    try:
        os.chmod('bin/' + tool, 0o755)
    except OSError as e:
        print('chmod refused', e)
os.environ['PATH'] = os.path.abspath('bin') + ':' + {bin:?} + ':/usr/bin:/bin'
def attempt(label, fn):
    try:
        print('RAN', label, repr(fn())[:200], flush=True)
    except BaseException as e:
        print('BLOCKED', label, type(e).__name__, str(e)[:300], flush=True)
def usetex():
    matplotlib.rcParams['text.usetex'] = True
    fig = plt.figure()
    plt.title(r'$\alpha$')
    fig.savefig('tex.png')
attempt('text.usetex', usetex)
matplotlib.rcParams['text.usetex'] = False
def ffmpeg():
    matplotlib.rcParams['animation.ffmpeg_path'] = os.path.abspath('bin/ffmpeg')
    fig, ax = plt.subplots()
    line, = ax.plot([0, 1], [0, 1])
    anim = animation.FuncAnimation(fig, lambda i: (line,), frames=2)
    anim.save('movie.mp4', writer='ffmpeg')
attempt('animation ffmpeg (run dir)', ffmpeg)
def ffmpeg_src():
    matplotlib.rcParams['animation.ffmpeg_path'] = {bin:?} + '/ffmpeg'
    fig, ax = plt.subplots()
    line, = ax.plot([0, 1], [0, 1])
    anim = animation.FuncAnimation(fig, lambda i: (line,), frames=2)
    anim.save('movie2.mp4', writer=animation.FFMpegWriter())
attempt('animation ffmpeg (SRC)', ffmpeg_src)
def imagemagick():
    matplotlib.rcParams['animation.convert_path'] = os.path.abspath('bin/convert')
    fig, ax = plt.subplots()
    anim = animation.FuncAnimation(fig, lambda i: (), frames=2)
    anim.save('movie.gif', writer='imagemagick')
attempt('animation imagemagick', imagemagick)
attempt('savefig eps via ghostscript distiller', lambda: (matplotlib.rcParams.update({{'ps.usedistiller': 'ghostscript'}}), plt.gcf().canvas.print_figure('x.eps')))
print('END', flush=True)
"##,
        bin = bin.to_str().unwrap(),
    );
    let run = sb.worker(&code);
    run.assert_ended_by_itself();
    let out = run.output();
    println!("{out}");
    assert_nothing_started(&sb, &out);
    assert!(out.contains("END"), "{out}");
}

#[test]
fn fork_storm_is_refused_and_threads_still_work() {
    let sb = Sandbox::new("fork");
    // Bounded on purpose: should confinement fail, the test must not take the machine down.
    let code = r#"import posix, threading, time
forks = 0
try:
    for i in range(200):
        pid = posix.fork()
        if pid == 0:
            time.sleep(30)
            posix._exit(0)
        forks += 1
except OSError as e:
    print('FORK REFUSED after', forks, e, flush=True)
try:
    import ctypes
    r = ctypes.CDLL(None).fork()
    if r == 0:
        time.sleep(30)
        ctypes.CDLL(None)._exit(0)
    print('CTYPES FORK', r, flush=True)
except OSError as e:
    print('CTYPES FORK REFUSED', e)
box = []
t = threading.Thread(target=lambda: box.append(int(np.dot(np.ones(300), np.ones(300)))))
t.start(); t.join()
print('THREAD', box, flush=True)
"#;
    let run = sb.worker(code);
    run.assert_ended_by_itself();
    let out = run.output();
    println!("{out}");
    assert!(
        out.contains("FORK REFUSED after 0"),
        "fork must fail at once:\n{out}"
    );
    assert!(
        out.contains("CTYPES FORK -1"),
        "libc fork must fail:\n{out}"
    );
    assert!(
        out.contains("THREAD [300]"),
        "threads must keep working:\n{out}"
    );
    assert!(
        processes_under(&sb.run).is_empty(),
        "forked processes are alive: {:?}",
        processes_under(&sb.run)
    );
}

/// A protocol-0 pickle whose reduce calls `module.name(arg)`.
fn reduce_pickle(module: &str, name: &str, args: &[&str]) -> Vec<u8> {
    let mut p = format!("c{module}\n{name}\n(");
    for a in args {
        p.push_str(&format!("V{a}\n"));
    }
    p.push_str("tR.");
    p.into_bytes()
}

/// An `.npy` file holding one object, stored as the pickle `payload`.
fn npy_with_pickle(payload: &[u8]) -> Vec<u8> {
    let mut header = "{'descr': '|O', 'fortran_order': False, 'shape': (1,), }".to_owned();
    while !(10 + header.len() + 1).is_multiple_of(64) {
        header.push(' ');
    }
    header.push('\n');
    let mut npy = b"\x93NUMPY\x01\x00".to_vec();
    npy.extend_from_slice(&(header.len() as u16).to_le_bytes());
    npy.extend_from_slice(header.as_bytes());
    npy.extend_from_slice(payload);
    npy
}

#[test]
fn pickles_in_src_cannot_write_outside_or_start_programs() {
    let sb = Sandbox::new("pickle");
    let before = sb.snapshot();
    let outside_marker = sb.outside.join("pickled.txt");
    let cmd = format!("echo started > {}/{MARKER}", sb.run.display());
    std::fs::write(
        sb.src.join("write.pkl"),
        reduce_pickle("builtins", "open", &[outside_marker.to_str().unwrap(), "w"]),
    )
    .unwrap();
    std::fs::write(
        sb.src.join("exec.pkl"),
        reduce_pickle("posix", "system", &[&cmd]),
    )
    .unwrap();
    std::fs::write(
        sb.src.join("write.npy"),
        npy_with_pickle(&reduce_pickle(
            "builtins",
            "open",
            &[outside_marker.to_str().unwrap(), "w"],
        )),
    )
    .unwrap();
    std::fs::write(
        sb.src.join("exec.npy"),
        npy_with_pickle(&reduce_pickle("posix", "system", &[&cmd])),
    )
    .unwrap();
    let before_with_pickles = sb.snapshot();
    let code = r#"import pandas as pd
def attempt(label, fn):
    try:
        print('LOADED', label, repr(fn())[:200], flush=True)
    except BaseException as e:
        print('BLOCKED', label, type(e).__name__, e, flush=True)
attempt('pd.read_pickle write', lambda: pd.read_pickle(srcpath('write.pkl')))
attempt('pd.read_pickle exec', lambda: pd.read_pickle(srcpath('exec.pkl')))
attempt('np.load write', lambda: np.load(srcpath('write.npy'), allow_pickle=True))
attempt('np.load exec', lambda: np.load(srcpath('exec.npy'), allow_pickle=True))
print('END', flush=True)
"#;
    let run = sb.worker(code);
    run.assert_ended_by_itself();
    let out = run.output();
    println!("{out}");
    drop(before);
    security_support::assert_unchanged(&sb, &before_with_pickles, &out);
    assert!(!outside_marker.exists(), "a pickle wrote outside:\n{out}");
    assert_nothing_started(&sb, &out);
    assert!(out.contains("END"), "{out}");
    assert!(
        out.lines()
            .filter(|l| l.contains("write") && l.starts_with("BLOCKED"))
            .count()
            == 2,
        "both writing pickles must fail:\n{out}"
    );
}
