"""`scripts/build-runtime`: build the relocatable Python runtime folder the app embeds, on
Linux, Windows and macOS, from the allowlist policy, the runtime lock and an interpreter tree.

Output (default python-runtime/dist, git-ignored) is a normal prefix, so an embedded
interpreter with `home = <dist>` works. Linux/macOS: lib/libpython3.11.{so.1.0,dylib},
lib/python3.11 (sourceless stdlib) with lib-dynload/ and site-packages/, Linux also
lib/deps (host libraries carried). Windows: python311.dll and the DLLs that go beside the
executable, Lib/ (sourceless stdlib), Lib/site-packages, DLLs/. Everywhere: mplconfig/ (the
prebuilt font cache), SIZES.md and runtime-manifest.json (the locator's marker, written last).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from . import elf, fonts, interpreter, manifest, oslayout, policy, prune, staged, table

PACKAGE = Path(__file__).resolve().parent
REPO = PACKAGE.parent.parent
T0 = time.monotonic()


def say(msg: str) -> None:
    print(f"build-runtime: [{time.monotonic() - T0:.0f} s] {msg}", file=sys.stderr, flush=True)


class BuildError(Exception):
    pass


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    ap = argparse.ArgumentParser(prog="scripts/build-runtime", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=REPO / "python-runtime/dist")
    ap.add_argument("--lock", action="store_true",
                    help="re-resolve runtime-lock.txt from the policy (needs PyPI), then build")
    ap.add_argument("--force", action="store_true",
                    help="rebuild even when the stamp says nothing changed")
    ap.add_argument("--keep-sources", action="store_true",
                    help="ship .py next to __pycache__/*.pyc (~+55 MiB); "
                         "implies --keep-docstrings")
    # The default is what ships: the worker runs as `python -OO` (interpreter.rs), and the
    # libraries without docstrings import faster (a third of a cold worker's start) and
    # take 14 MiB less. Tests and the bench run this same build.
    ap.add_argument("--strip-docstrings", dest="strip_docstrings", action="store_true",
                    default=True, help="compile with -OO (no docstrings, no asserts in library "
                                       "code): -14 MiB of .pyc; sourceless only (the default)")
    ap.add_argument("--keep-docstrings", dest="strip_docstrings", action="store_false",
                    help="compile the .pyc with docstrings and asserts (debugging)")
    ap.add_argument("--zstd-level", type=int, default=10,
                    help="level of the measuring tarball (default 10; needs `zstd`)")
    ap.add_argument("--python-home", type=Path,
                    help="the CPython 3.11 tree to package (a shared build, or an unpacked "
                         "python-build-standalone `python/` folder); default: pyenv's newest "
                         "3.11.x, then the interpreter running this")
    ap.add_argument("--print-python", action="store_true",
                    help="print the interpreter the runtime would be made from, and exit")
    ap.add_argument("--policy", type=Path, default=REPO / "python-runtime/allowlist.toml")
    ap.add_argument("--lock-file", type=Path, default=REPO / "python-runtime/runtime-lock.txt")
    args = ap.parse_args(argv)
    if args.keep_sources:
        if "--strip-docstrings" in argv:
            ap.error("--strip-docstrings needs sourceless .pyc (drop --keep-sources)")
        args.strip_docstrings = False
    return args


def find_home(given: Path | None, lay: interpreter.Layout) -> Path:
    def list_dir(p: Path) -> list[str]:
        return sorted(os.listdir(p)) if p.is_dir() else []

    candidates = [given] if given else interpreter.candidate_homes(
        os.environ, Path.home(), Path(sys.base_prefix), list_dir)
    home, why_not = interpreter.choose_home(candidates, lay, Path.exists)
    if home is None:
        raise BuildError("no usable CPython 3.11 tree: looked at " + "; ".join(why_not) +
                         ". Install one (pyenv: PYTHON_CONFIGURE_OPTS=--enable-shared pyenv "
                         "install 3.11.7) or pass --python-home DIR")
    return home.resolve()


def stamp_of(args: argparse.Namespace, home: Path) -> str:
    h = hashlib.sha256()
    sources = sorted(p for p in PACKAGE.rglob("*.py") if "tests" not in p.relative_to(PACKAGE).parts)
    for f in [args.policy, args.lock_file, *sources]:
        h.update(f.read_bytes())
    h.update(f"{home} {args.keep_sources} {args.strip_docstrings} {args.zstd_level}".encode())
    return h.hexdigest()


def platform_name(os_name: str) -> str:
    machine = platform.machine().lower()
    machine = {"amd64": "x86_64", "aarch64": "arm64" if os_name == table.MACOS else "aarch64"}.get(
        machine, machine)
    return f"{os_name}-{machine}"


def copy_interpreter(home: Path, stage: Path, lay: interpreter.Layout, os_name: str) -> None:
    for rel in lay.interpreter_files:
        if (home / rel).is_file():
            (stage / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(home / rel, stage / rel)
            os.chmod(stage / rel, 0o755)
    dyn_in_stdlib = lay.dynload.startswith(lay.stdlib + "/")
    skip = {"site-packages"} | ({Path(lay.dynload).name} if dyn_in_stdlib else set())
    prune.copy_area(home / lay.stdlib, stage / lay.stdlib, table.STDLIB, os_name, frozenset(skip))
    prune.copy_area(home / lay.dynload, stage / lay.dynload, table.DYNLOAD, os_name)
    (stage / lay.site).mkdir(parents=True, exist_ok=True)


def pip_install(lock: Path, site: Path) -> None:
    env = {**os.environ, "PIP_NO_WARN_SCRIPT_LOCATION": "1", "PIP_ROOT_USER_ACTION": "ignore"}
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                    "--only-binary=:all:", "--no-compile", "--disable-pip-version-check",
                    "--target", str(site), "-r", str(lock)], check=True, env=env)


def zstd_bytes(stage: Path, level: int) -> int | None:
    if shutil.which("zstd") is None or shutil.which("tar") is None:
        return None
    tar = subprocess.Popen(["tar", "-C", str(stage), "-cf", "-", "."], stdout=subprocess.PIPE)
    z = subprocess.run(["zstd", "-q", f"-{level}", "-T0", "-c"], stdin=tar.stdout,
                       capture_output=True, check=True)
    tar.wait()
    return len(z.stdout)


def build(args: argparse.Namespace, os_name: str, home: Path, lay: interpreter.Layout) -> None:
    policy_text = args.policy.read_text(encoding="utf-8")
    dists = policy.distributions(policy_text, str(args.policy))
    if args.lock or not args.lock_file.exists():
        say("resolving the lock from the policy (PyPI)")
        with tempfile.TemporaryDirectory() as tmp:
            resolved = policy.resolve_lock(sys.executable, dists, Path(tmp, "report.json"))
        args.lock_file.write_text(policy.lock_text(resolved), encoding="utf-8")
    locked = policy.pins(args.lock_file.read_text(encoding="utf-8"), str(args.lock_file))
    missing = policy.unpinned(dists, locked)
    if missing:
        raise BuildError(f"lock `{args.lock_file}` does not pin {', '.join(missing)} named by "
                         f"the policy `{args.policy}`: run scripts/build-runtime --lock")

    out: Path = args.out.resolve()
    stamp = stamp_of(args, home)
    stamp_file = out / ".build-stamp"
    if (not args.force and stamp_file.is_file() and (out / "runtime-manifest.json").is_file()
            and stamp_file.read_text().strip() == stamp):
        say(f"up to date: `{out}` (stamp {stamp}; --force to rebuild)")
        print((out / "SIZES.md").read_text(encoding="utf-8"))
        return
    if os_name == table.LINUX:
        oslayout.ensure_linux_tools(say)

    t_start = time.monotonic()
    stage = out.with_name(out.name + ".partial")
    shutil.rmtree(stage, ignore_errors=True)
    stage.parent.mkdir(parents=True, exist_ok=True)
    try:
        with tempfile.TemporaryDirectory(prefix="build-runtime.") as tmp:
            carried, font_cache, sizes = stage_runtime(args, os_name, home, lay, stage, Path(tmp),
                                                       policy_text)
            contents = {"files": sum(len(f) for _, _, f in os.walk(stage)),
                        "bytes": prune.tree_bytes(stage)}
            if os_name == table.LINUX:
                contents["elf_files"] = len(elf.elves(stage))
            took = time.monotonic() - t_start
            built_at = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
            (stage / "SIZES.md").write_text(
                f"# Runtime sizes\n\nBuilt {built_at} by scripts/build-runtime in {took:.0f} s.\n\n"
                + manifest.sizes_table(sizes) + "\n", encoding="utf-8")
            info = manifest.Build(python=platform.python_version(), platform=platform_name(os_name),
                                  built_at=built_at, stamp=stamp, sourceless=not args.keep_sources,
                                  strip_docstrings=args.strip_docstrings, font_cache=font_cache)
            doc = manifest.manifest(info, lay, dists, locked, carried, sizes, contents,
                                    oslayout.HOST_LIBS_DIR[os_name])
            (stage / "runtime-manifest.json").write_text(json.dumps(doc, indent=2) + "\n",
                                                         encoding="utf-8")
            (stage / ".build-stamp").write_text(stamp + "\n")
        shutil.rmtree(out, ignore_errors=True)
        stage.rename(out)
    finally:
        shutil.rmtree(stage, ignore_errors=True)
    say(f"built `{out}` in {time.monotonic() - t_start:.0f} s")
    print((out / "SIZES.md").read_text(encoding="utf-8"))


def stage_runtime(args: argparse.Namespace, os_name: str, home: Path, lay: interpreter.Layout,
                  stage: Path, work: Path, policy_text: str) -> tuple[dict[str, str], str, dict[str, object]]:
    say(f"copying the interpreter and its stdlib from `{home}`")
    copy_interpreter(home, stage, lay, os_name)
    site = stage / lay.site
    say("installing the lock into site-packages (pip, wheels only, no deps)")
    pip_install(args.lock_file, site)
    say(f"adding the CJK fallback font ({fonts.DEB_URL})")
    fonts.add_cjk_font(site / "matplotlib/mpl-data", fonts.fetch_deb())
    raw = prune.tree_bytes(stage)

    say("pruning site-packages by the keep/prune table")
    prune.prune_area(site, table.SITE, os_name)
    carried = oslayout.STEPS[os_name](stage, lay, say)
    pruned = prune.tree_bytes(stage)

    run = staged.Staged(os_name, home, lay, stage, work)
    sourceless = not args.keep_sources
    say("compiling .pyc with the runtime's interpreter")
    run.run(staged.compileall_args(stage, stage / lay.stdlib, sourceless, args.strip_docstrings))
    with_pyc = prune.tree_bytes(stage)
    if sourceless:
        say(f"removed {staged.remove_sources(stage / lay.stdlib)} .py sources that have a .pyc beside them")

    say("prebuilding matplotlib's font cache (mpl-data fonts only)")
    (stage / "mplconfig").mkdir()
    font_cache = run.probe("font_cache.py", extra_env={"MPLCONFIGDIR": str(stage / "mplconfig")})
    shutil.rmtree(stage / "mplconfig/tex.cache", ignore_errors=True)

    say("smoke test: every allowlisted module imports, a figure saves, sample data is there")
    run.probe("smoke.py", " ".join(policy.module_names(policy_text)),
              extra_env={"MPLCONFIGDIR": str(work / "mpl")})
    final = prune.tree_bytes(stage)
    say(f"measuring the zstd -{args.zstd_level} tarball")
    sizes = {"raw": raw, "pruned": pruned, "with_pyc": with_pyc, "final": final,
             "zstd": zstd_bytes(stage, args.zstd_level), "zstd_level": args.zstd_level,
             "keep_sources": args.keep_sources, "strip_docstrings": args.strip_docstrings}
    return carried, f"mplconfig/{font_cache}", sizes


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    args = parse_args(argv)
    try:
        os_name = interpreter.os_of(sys.platform)
        lay = interpreter.layout(os_name)
        home = find_home(args.python_home, lay)
        if args.print_python:
            print(home / lay.python)
            return 0
        if not os.path.samefile(sys.base_prefix, home):
            # Run with the interpreter being packaged: pip, compileall and the smoke test
            # must see the same CPython the runtime ships.
            say(f"re-running with `{home / lay.python}`")
            return subprocess.run([str(home / lay.python), "-I", str(PACKAGE / "__main__.py"),
                                   *argv, "--python-home", str(home)]).returncode
        build(args, os_name, home, lay)
    except (BuildError, policy.InputError, fonts.FontError, oslayout.LayoutError, ValueError) as e:
        print(f"build-runtime: error: {e}", file=sys.stderr)
        return 1
    except subprocess.CalledProcessError as e:
        print(f"build-runtime: error: `{' '.join(map(str, e.cmd))}` failed with exit status "
              f"{e.returncode}", file=sys.stderr)
        return 1
    return 0
