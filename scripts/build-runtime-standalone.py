#!/usr/bin/env python3
"""Build the app's Python runtime folder on Windows or macOS from a python-build-standalone
`install_only_stripped` tree (its `python/` folder). Linux uses scripts/build-runtime.

Run it WITH the standalone interpreter itself (the same CPython the runtime ships):

    python/python.exe   scripts/build-runtime-standalone.py --python-home python --out python-runtime/dist
    python/bin/python3  scripts/build-runtime-standalone.py --python-home python --out python-runtime/dist

Result, in the layout src/interpreter.rs `stdlib_landmarks` and the worker expect:
  Windows: python311.dll, python3.dll, vcruntime140*.dll, Lib/ (sourceless .pyc),
           Lib/site-packages/, DLLs/ (extension modules), mplconfig/, runtime-manifest.json
  macOS:   lib/libpython3.11.dylib (install name @rpath/libpython3.11.dylib),
           lib/python3.11/ (sourceless .pyc), lib/python3.11/site-packages/,
           lib/python3.11/lib-dynload/, mplconfig/, runtime-manifest.json

The same pruning rules as scripts/build-runtime (tests, headers, GUI backends, Tk) and the
same CJK fallback font (Debian's fonts-droid-fallback, fetched from Debian's archive by URL:
the .deb is read with the standard library, no `ar`/`dpkg` needed). Not run on this Linux
machine: it is exercised by .github/workflows/release.yml, whose selftest proves the result.
"""
import argparse, hashlib, io, json, lzma, os, re, shutil, subprocess, sys, tarfile, time, tomllib
import urllib.request
from pathlib import Path

MINOR = f"{sys.version_info.major}.{sys.version_info.minor}"
NODOT = MINOR.replace(".", "")
WINDOWS = sys.platform == "win32"
MACOS = sys.platform == "darwin"
CJK_DEB = ("https://deb.debian.org/debian/pool/main/f/fonts-android/"
           "fonts-droid-fallback_6.0.1r16-1.1_all.deb")
CJK_DEB_SHA256 = "d2096d4edde128fedf6749be2dd204a5810210a6201126d99b8d412344f71056"
CJK_TTF = "usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf"
DROP_DIRS = {"test", "tests", "idle_test", "idlelib", "tkinter", "turtledemo", "ensurepip",
             "lib2to3", "pydoc_data", "venv", "__pycache__", "__phello__", "include", "Scripts",
             "share", "tcl", "Tools", "libs"}
DROP_TOP_LIB = re.compile(r"^(tcl\d|tk\d|itcl|thread\d|Tix|pkgconfig|libtcl|libtk|python3\.\d+-config)")
DROP_EXT = re.compile(r"^(_tkinter|_test\w*|_ctypes_test|xxlimited\w*|_xxtestfuzz|_xxsubinterpreters|"
                      r"_sqlite3|_ssl|_hashlib|readline|_curses\w*|_dbm|_gdbm|tcl\d+t?|tk\d+t?|"
                      r"libcrypto\S*|libssl\S*|sqlite3)\.")
BACKEND_DROP = ("backend_qt", "qt_compat", "backend_tk", "_backend_tk", "_tkagg", "backend_gtk",
                "_backend_gtk", "backend_wx", "_backend_wx", "backend_webagg", "_backend_webagg",
                "backend_nbagg", "backend_macosx", "_macosx", "backend_cairo")
SRC_EXT = (".pyi", ".pyx", ".pxd", ".pxi", ".c", ".cpp", ".h", ".hpp", ".f", ".f90", ".tp",
           ".orig", ".lib", ".pdb")


def say(msg):
    print(f"build-runtime-standalone: [{time.monotonic() - T0:.0f} s] {msg}", file=sys.stderr)


def layout(root):
    if WINDOWS:
        return {"stdlib": root / "Lib", "dynload": root / "DLLs", "site": root / "Lib/site-packages"}
    return {"stdlib": root / f"lib/python{MINOR}", "dynload": root / f"lib/python{MINOR}/lib-dynload",
            "site": root / f"lib/python{MINOR}/site-packages"}


def copy_home(home, stage):
    def ignore(dirpath, names):
        here = Path(dirpath)
        drop = []
        for n in names:
            if n in DROP_DIRS or (here.name in ("DLLs", "lib-dynload") and DROP_EXT.match(n)):
                drop.append(n)
            elif here == home and n in ("bin", "python.exe", "pythonw.exe", "LICENSE.txt", "NEWS.txt"):
                drop.append(n)
            elif here == home / "lib" and DROP_TOP_LIB.match(n):
                drop.append(n)
            elif here.name == "site-packages" and n != "README.txt":
                drop.append(n)  # the standalone's own pip/setuptools: not shipped
        return drop
    shutil.copytree(home, stage, ignore=ignore, symlinks=False)


def cjk_font(mpl_data):
    say(f"fetching the CJK fallback font ({CJK_DEB})")
    blob = urllib.request.urlopen(CJK_DEB, timeout=120).read()
    if hashlib.sha256(blob).hexdigest() != CJK_DEB_SHA256:
        sys.exit(f"`{CJK_DEB}` does not have the expected SHA-256 {CJK_DEB_SHA256}")
    if not blob.startswith(b"!<arch>\n"):
        sys.exit(f"`{CJK_DEB}` is not a Debian package")
    pos, data = 8, None
    while pos < len(blob):
        name = blob[pos:pos + 16].decode().strip().rstrip("/")
        size = int(blob[pos + 48:pos + 58].decode().strip())
        body = blob[pos + 60:pos + 60 + size]
        if name.startswith("data.tar"):
            data = lzma.decompress(body) if name.endswith(".xz") else body
        pos += 60 + size + (size % 2)
    if data is None:
        sys.exit("fonts-droid-fallback: no data.tar in the package")
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        members = {m.name.lstrip("./"): m for m in tar.getmembers()}
        ttf = tar.extractfile(members[CJK_TTF]).read()
        lic = tar.extractfile(members["usr/share/doc/fonts-droid-fallback/copyright"]).read()
    (mpl_data / "fonts/ttf/DroidSansFallbackFull.ttf").write_bytes(ttf)
    (mpl_data / "fonts/ttf/DroidSansFallbackFull-LICENSE.txt").write_bytes(lic)
    rc = mpl_data / "matplotlibrc"
    text = rc.read_text(encoding="utf-8")
    new, n = re.subn(r"(?m)^#?font\.family\s*:.*$", "font.family: sans-serif, Droid Sans Fallback", text, count=1)
    if n != 1:
        sys.exit(f"`{rc}` has no font.family line to extend")
    rc.write_text(new, encoding="utf-8")


def prune_site(sp):
    for rel in ["bin", "numpy/_pyinstaller", "numpy/_core/include", "numpy/_core/lib",
                "matplotlib/mpl-data/sample_data", "matplotlib/backends/web_backend",
                "matplotlib/backends/qt_editor", "PIL/_tkinter_finder.py"]:
        p = sp / rel
        if p.is_dir():
            shutil.rmtree(p)
        elif p.exists():
            p.unlink()
    for p in (sp / "matplotlib/backends").iterdir():
        if p.name.split(".")[0].startswith(BACKEND_DROP):
            shutil.rmtree(p) if p.is_dir() else p.unlink()
    for dirpath, dirnames, filenames in os.walk(sp, topdown=True):
        for name in list(dirnames):
            if name in ("tests", "test", "__pycache__"):
                shutil.rmtree(Path(dirpath, name))
                dirnames.remove(name)
        for name in filenames:
            if name.endswith(SRC_EXT) or name in ("py.typed", "conftest.py", "setup.py", "RECORD"):
                Path(dirpath, name).unlink()


def sourceless(root):
    for dirpath, _, filenames in os.walk(root):
        for f in filenames:
            if f.endswith(".py") and f + "c" in filenames:
                os.unlink(os.path.join(dirpath, f))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--python-home", required=True, type=Path)
    ap.add_argument("--out", required=True, type=Path)
    repo = Path(__file__).resolve().parent.parent
    ap.add_argument("--lock", type=Path, default=repo / "python-runtime/runtime-lock.txt")
    ap.add_argument("--policy", type=Path, default=repo / "python-runtime/allowlist.toml")
    ap.add_argument("--strip-docstrings", action="store_true",
                    help="compile with -OO, as scripts/bundle does on Linux (-14 MiB)")
    args = ap.parse_args()
    if not (WINDOWS or MACOS):
        sys.exit("on Linux use scripts/build-runtime (this script is for Windows and macOS)")
    home = args.python_home.resolve()
    if not os.path.samefile(sys.base_prefix, home):
        sys.exit(f"run this script with the standalone interpreter in `{home}` (this is `{sys.base_prefix}`)")
    out = args.out.resolve()
    stage = out.with_name(out.name + ".partial")
    shutil.rmtree(stage, ignore_errors=True)

    say(f"copying `{home}` (without tests, Tk, pip, headers)")
    copy_home(home, stage)
    lay = layout(stage)
    lay["site"].mkdir(parents=True, exist_ok=True)

    say("installing the lock into site-packages (pip, wheels only, no deps)")
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--only-binary=:all:",
                    "--no-compile", "--disable-pip-version-check", "--target", str(lay["site"]),
                    "-r", str(args.lock)], check=True)
    cjk_font(lay["site"] / "matplotlib/mpl-data")
    say("pruning")
    prune_site(lay["site"])

    if MACOS:
        dylib = stage / f"lib/libpython{MINOR}.dylib"
        subprocess.run(["install_name_tool", "-id", f"@rpath/libpython{MINOR}.dylib", str(dylib)], check=True)
        # install_name_tool voids the signature; arm64 refuses unsigned code (CI re-signs it
        # with the real identity later).
        subprocess.run(["codesign", "--force", "--sign", "-", str(dylib)], check=True)

    say("compiling sourceless .pyc (unchecked-hash)")
    optimize = ["-o", "2"] if args.strip_docstrings else []
    subprocess.run([sys.executable, "-m", "compileall", "-q", "-j", "0", "-b", *optimize, "--invalidation-mode",
                    "unchecked-hash", "-s", str(stage), "-p", "<runtime>", str(lay["stdlib"])], check=True)
    sourceless(lay["stdlib"])

    say("prebuilding matplotlib's font cache (mpl-data fonts only)")
    (stage / "mplconfig").mkdir()
    code = (
        "import sys, pathlib; sys.path.insert(0, sys.argv[1])\n"
        "import matplotlib, matplotlib.font_manager as fm\n"
        "scan = fm.findSystemFonts\n"
        "fm.findSystemFonts = lambda fontpaths=None, fontext='ttf': scan(fontpaths, fontext) if fontpaths else []\n"
        "mgr = fm.FontManager()\n"
        "p = pathlib.Path(matplotlib.get_cachedir(), f'fontlist-v{fm.FontManager.__version__}.json')\n"
        "fm.json_dump(mgr, p); print(p.name)\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env.update(MPLCONFIGDIR=str(stage / "mplconfig"), MPLBACKEND="Agg")
    font_cache = subprocess.run([sys.executable, "-I", "-c", code, str(lay["site"])], env=env, check=True,
                                capture_output=True, text=True).stdout.strip()

    policy = tomllib.loads(args.policy.read_text(encoding="utf-8"))
    pins = [l.split("#")[0].strip() for l in args.lock.read_text(encoding="utf-8").splitlines()]
    pins = dict(p.split("==", 1) for p in pins if "==" in p)
    rel = lambda p: p.relative_to(stage).as_posix()
    manifest = {
        "format": 1,
        "python": sys.version.split()[0],
        "abi": f"cp{NODOT}",
        "platform": "windows-x86_64" if WINDOWS else f"macos-{os.uname().machine}",
        "built_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "layout": {"home": ".", "stdlib": rel(lay["stdlib"]), "lib_dynload": rel(lay["dynload"]),
                   "site_packages": rel(lay["site"]), "mplconfig": "mplconfig", "font_cache": font_cache,
                   "libpython": f"python{NODOT}.dll" if WINDOWS else f"lib/libpython{MINOR}.dylib"},
        "policy_distributions": sorted({m["distribution"] for m in policy.get("module", [])
                                        if m.get("distribution") not in (None, "stdlib")}),
        "runtime_extra": sorted(e["distribution"] for e in policy.get("runtime_extra", [])),
        "distributions": pins,
        "sourceless": True,
        "strip_docstrings": args.strip_docstrings,
        "source": "python-build-standalone install_only_stripped",
    }
    (stage / "runtime-manifest.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    shutil.rmtree(out, ignore_errors=True)
    stage.rename(out)
    total = sum(f.stat().st_size for f in out.rglob("*") if f.is_file())
    say(f"done: `{out}` ({total / 1048576:.1f} MiB)")


T0 = time.monotonic()
if __name__ == "__main__":
    main()
