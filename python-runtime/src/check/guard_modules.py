"""Regenerate python-runtime/worker/guard_modules.txt: every module the allowed libraries
import themselves (issue #40). The run-time guard (python-runtime/worker/guard.py) refuses
to import any module outside this list or outside the allowed top-level modules, so a
lazy `import seaborn` and what it pulls in stay allowed while `telnetlib`, `imp` or any
other shipped module a library could be told to import by name do not.

The list is what importing every module path in library_modules.txt (every importable
module under the allowed modules) leaves in sys.modules, plus the runtime's extras and
what the worker itself imports. Run it with the bundled runtime's packages on the path and
review the diff:

    PYTHONPATH=python-runtime/dist/lib/python3.11/site-packages MPLBACKEND=agg \\
        python3 -S -s python-runtime/src/check/guard_modules.py

(`-S -s`: no site-packages of the machine's own Python.) A unit test in pipeline/script.rs checks that the list covers library_modules.txt.
"""

import importlib
import sys
import tomllib
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
LIBRARY_MODULES = HERE / "library_modules.txt"
POLICY = ROOT / "allowlist.toml"
OUT = ROOT / "worker" / "guard_modules.txt"
# What the worker imports for itself (preamble, readers, capture, report, fork server).
WORKER = [
    "gc", "os", "sys", "linecache", "traceback", "json", "io", "select", "math", "errno",
    "types", "struct", "zlib", "subprocess", "socket", "h5py", "openpyxl", "scipy.io",
    "PIL.Image", "pandas", "_thread", "ast", "keyword", "dataclasses", "typing", "re",
    "importlib", "importlib.util", "importlib.metadata", "encodings.idna", "tempfile",
    # What the embedded interpreter itself loads before the worker script runs.
    "site", "_sitebuiltins", "runpy", "_md5", "_sha1", "_sha256", "_sha3",
]


def main():
    warnings.simplefilter("ignore")
    policy = tomllib.loads(POLICY.read_text())
    names = [m["name"] for m in policy["module"]]
    names += [e["distribution"] for e in policy.get("runtime_extra", [])]
    names += WORKER
    for line in LIBRARY_MODULES.read_text().splitlines():
        if line and not line.startswith("#"):
            names.append(line)
    for name in names:
        try:
            importlib.import_module(name)
        except BaseException:  # noqa: BLE001 - attribute paths and optional parts
            pass
    found = sorted(n for n in sys.modules if n not in ("__main__", "__mp_main__"))
    # The packages shipped beside the allowed ones are there because those need them
    # (contourpy, dateutil, tzdata, ...): each whole, as `name.*`, since libraries import
    # their parts lazily.
    site = Path(importlib.import_module("numpy").__file__).resolve().parents[1]
    shipped = set()
    for entry in site.iterdir():
        if entry.name.endswith((".dist-info", ".libs")) or entry.name.startswith(("_", ".")):
            continue
        if entry.is_dir() and any(entry.glob("__init__.*")):
            shipped.add(entry.name)
        elif entry.suffix in (".py", ".pyc", ".so"):
            shipped.add(entry.name.split(".")[0])
    found += sorted(f"{name}.*" for name in shipped)
    OUT.write_text(
        "# Every module the allowed libraries import; regenerate with\n"
        "# python-runtime/src/check/guard_modules.py (see its docstring)\n"
        + "\n".join(found) + "\n"
    )
    print(f"{len(found)} modules -> {OUT}")


if __name__ == "__main__":
    main()
