"""The keep/prune table: per area of the runtime and per package, what is dropped and what is
kept on purpose, for every OS at once.

A pattern names a file or a folder by its path relative to the area's root (`/`-separated;
`*` and `?` stay within one path component, a leading `**/` matches at any depth, `{ext}`
is a CPython extension-module suffix). A folder dropped drops everything in it. For a file,
every rule that names the file itself or one of its folders is a candidate; the one naming
the deepest of them decides, and at the same depth `keep` wins. A path no rule names is kept.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

LINUX, MACOS, WINDOWS = "linux", "macos", "windows"
ALL_OS = frozenset({LINUX, MACOS, WINDOWS})

# The areas a runtime is made of. `stdlib` excludes its lib-dynload and site-packages
# folders, which are areas of their own (on Windows they live elsewhere: DLLs/, Lib/site-packages).
STDLIB, DYNLOAD, SITE = "stdlib", "dynload", "site"

# Extension-module suffixes: `.cpython-311-x86_64-linux-gnu.so`, `.cpython-311-darwin.so`,
# `.abi3.so`, `.cp311-win_amd64.pyd`, `.pyd`.
EXT = r"(?:\.cpython-[^/]+\.so|\.abi3\.so|\.cp\d+-[^/.]+\.pyd|\.pyd)"


@dataclass(frozen=True)
class Rule:
    area: str
    pattern: str
    action: str  # "drop" or "keep"
    why: str
    oses: frozenset[str] = ALL_OS


def drop(area: str, why: str, *patterns: str, oses: frozenset[str] = ALL_OS) -> list[Rule]:
    return [Rule(area, p, "drop", why, oses) for p in patterns]


def keep(area: str, why: str, *patterns: str, oses: frozenset[str] = ALL_OS) -> list[Rule]:
    return [Rule(area, p, "keep", why, oses) for p in patterns]


SOURCE_SUFFIXES = (".pyi", ".pyx", ".pxd", ".pxi", ".c", ".cpp", ".h", ".hpp", ".f", ".f90",
                   ".tp", ".orig", ".lib", ".pdb")
# Kept: agg, pdf, svg, ps, pgf, template (and their helpers); every GUI/web backend goes.
GUI_BACKENDS = ("backend_qt", "qt_compat", "backend_tk", "_backend_tk", "_tkagg", "backend_gtk",
                "_backend_gtk", "backend_wx", "_backend_wx", "backend_webagg", "_backend_webagg",
                "backend_nbagg", "backend_macosx", "_macosx", "backend_cairo")
# fontTools parts matplotlib's pdf/ps/svg font subsetting never reaches (measured: saving
# pdf/ps/eps/svg with Type 3 and Type 42 text, CJK included, loads ttLib, subset, cffLib,
# varLib, feaLib, otlLib, designspaceLib, colorLib, pens, misc, agl, encodings, unicodedata,
# config; scripts/bundle's selftest).
FONTTOOLS_UNUSED = ("ufoLib", "cu2qu", "qu2cu", "voltLib", "merge", "mtiLib", "svgLib", "diff",
                    "t1Lib")

TABLE: tuple[Rule, ...] = tuple([
    # --- the standard library -------------------------------------------------------------
    *drop(STDLIB, "tests and the test-only packages", "**/test", "**/tests", "**/idle_test",
          "__phello__", "__hello__.py"),
    *drop(STDLIB, "bytecode is compiled fresh by the build", "**/__pycache__"),
    *drop(STDLIB, "Tk and the programs built on it: no GUI toolkit is shipped", "tkinter",
          "idlelib", "turtledemo", "turtle.py"),
    *drop(STDLIB, "tools for installing and packaging, not for plotting", "ensurepip", "venv",
          "lib2to3", "pydoc_data", "site-packages"),
    *drop(STDLIB, "their extension modules are not shipped (see dynload)", "sqlite3", "curses"),
    *drop(STDLIB, "jokes", "antigravity.py", "this.py"),
    *drop(STDLIB, "headers, static library and Makefile for building extensions", "config-*"),
    *keep(STDLIB, "time zones (pandas, datetime axes); the data comes from tzdata", "zoneinfo"),
    # --- extension modules of the standard library ----------------------------------------
    *drop(DYNLOAD, "TLS, OpenSSL hashes and SQLite: no network, no database; hashlib falls "
          "back to its built-in algorithms", "_ssl.*", "_hashlib.*", "_sqlite3.*",
          "libcrypto*", "libssl*", "sqlite3.*"),
    *drop(DYNLOAD, "terminal, database and system-account modules and the host libraries "
          "they would drag in", "readline.*", "_curses*.*", "nis.*", "_dbm.*", "_gdbm.*",
          "ossaudiodev.*", "spwd.*", "_crypt.*", "_uuid.*"),
    *drop(DYNLOAD, "Tk", "_tkinter.*", "tcl*.dll", "tk*.dll"),
    *drop(DYNLOAD, "CPython's own test modules", "_test*.*", "_ctypes_test.*", "xxlimited*.*",
          "_xxtestfuzz.*", "_xxsubinterpreters.*"),
    # --- the locked distributions ----------------------------------------------------------
    *drop(SITE, "tests", "**/tests", "**/test", "**/conftest.py",
          "**/_*_test{ext}", "**/_*_tests{ext}", "**/_test{ext}", "**/_tests{ext}",
          "**/_test_*{ext}", "**/_ctest{ext}", "**/_cytest{ext}", "**/_simd{ext}"),
    *drop(SITE, "bytecode is compiled fresh by the build", "**/__pycache__"),
    *drop(SITE, "sources, headers, stubs, import libraries and debug symbols",
          *(f"**/*{s}" for s in SOURCE_SUFFIXES), "**/py.typed", "**/setup.py"),
    *drop(SITE, "install records that name files the pruning removed", "*.dist-info/RECORD",
          "*.dist-info/INSTALLER", "*.dist-info/REQUESTED", "*.dist-info/WHEEL",
          "*.dist-info/direct_url.json"),
    *drop(SITE, "console scripts: the runtime has no python executable to run them", "bin"),
    *drop(SITE, "numpy's headers, static libraries and PyInstaller hook",
          "numpy/_core/include", "numpy/_core/lib", "numpy/_pyinstaller"),
    *drop(SITE, "GUI and web backends: figures are drawn with Agg, pdf, svg, ps, pgf",
          *(f"matplotlib/backends/{b}*" for b in GUI_BACKENDS),
          "matplotlib/backends/web_backend", "matplotlib/backends/qt_editor",
          "PIL/_tkinter_finder.py"),
    *drop(SITE, "Pillow's AVIF codec and its text rendering (PIL.ImageFont): matplotlib draws "
          "text with its own ft2font; their libraries go as orphans", "PIL/_avif{ext}",
          "PIL/_imagingft{ext}"),
    *drop(SITE, "fontTools parts matplotlib's font subsetting never reaches",
          *(f"fontTools/{d}" for d in FONTTOOLS_UNUSED)),
    *keep(SITE, "matplotlib's gallery examples read it with cbook.get_sample_data(...)",
          "matplotlib/mpl-data/sample_data"),
    *keep(SITE, "the fonts every figure's text is drawn with (the CJK fallback included)",
          "matplotlib/mpl-data/fonts"),
    *keep(SITE, "the time-zone database zoneinfo and pandas read", "tzdata/zoneinfo"),
    *keep(SITE, "scipy's array-API layer walks dir(numpy), which reaches them through "
          "numpy's lazy __getattr__", "numpy/f2py", "numpy/distutils"),
    *keep(SITE, "scipy.fft needs it", "scipy/_lib/_uarray"),
])


@cache
def _regex(pattern: str) -> re.Pattern[str]:
    out = []
    rest = pattern
    if rest.startswith("**/"):
        out.append(r"(?:.*/)?")
        rest = rest[3:]
    i = 0
    while i < len(rest):
        if rest.startswith("{ext}", i):
            out.append(EXT)
            i += 5
            continue
        c = rest[i]
        out.append({"*": "[^/]*", "?": "[^/]"}.get(c, re.escape(c)))
        i += 1
    return re.compile("".join(out) + r"\Z")


def matches(pattern: str, path: str) -> bool:
    return _regex(pattern).match(path) is not None


@dataclass(frozen=True)
class Decision:
    keep: bool
    rule: Rule | None  # None: no rule names the path (kept)


def decide(area: str, os_name: str, path: str, table: Iterable[Rule] = TABLE) -> Decision:
    """Whether `path` (relative to the area's root) is shipped on `os_name`, and why."""
    parts = path.split("/")
    best: tuple[int, bool, Rule] | None = None
    for rule in table:
        if rule.area != area or os_name not in rule.oses:
            continue
        for depth in range(len(parts), 0, -1):
            if best is not None and depth < best[0]:
                break
            if matches(rule.pattern, "/".join(parts[:depth])):
                is_keep = rule.action == "keep"
                if best is None or (depth, is_keep) > best[:2]:
                    best = (depth, is_keep, rule)
                break
    if best is None:
        return Decision(True, None)
    return Decision(best[2].action == "keep", best[2])


def kept(area: str, os_name: str, paths: Iterable[str], table: Iterable[Rule] = TABLE) -> list[str]:
    """The files of `paths` that `os_name` ships."""
    rules = tuple(table)
    return [p for p in paths if decide(area, os_name, p, rules).keep]


def dropped_folder(area: str, os_name: str, folder: str, table: Iterable[Rule] = TABLE) -> bool:
    """A folder that goes as a whole: dropped by a rule and no keep rule names anything in it."""
    rules = tuple(table)
    d = decide(area, os_name, folder, rules)
    if d.keep:
        return False
    prefix = folder + "/"
    return not any(r.action == "keep" and r.area == area and os_name in r.oses
                   and r.pattern.startswith(prefix) for r in rules)
