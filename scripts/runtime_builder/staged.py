"""Running the staged runtime before it is finished: bytecode, the font cache and the smoke
test all run with the runtime's own interpreter, under an environment built from scratch."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Mapping
from pathlib import Path

from .interpreter import Layout
from .table import LINUX, WINDOWS

PROBES = Path(__file__).resolve().parent / "probes"


def staged_env(os_name: str, host: Mapping[str, str], stage: Path,
               extra: Mapping[str, str]) -> dict[str, str]:
    env = {"PYTHONHOME": str(stage), "PYTHONNOUSERSITE": "1", "PYTHONUTF8": "1",
           "PYTHONDONTWRITEBYTECODE": "1", "MPLBACKEND": "Agg", **extra}
    if os_name == WINDOWS:
        # The loader and the C runtime need these; nothing else of the host's is passed.
        env.update({k: host[k] for k in ("SYSTEMROOT", "WINDIR", "TEMP", "TMP") if k in host})
        env["PATH"] = host.get("SYSTEMROOT", r"C:\Windows") + r"\System32"
    else:
        env.update(PATH="/usr/bin:/bin", LANG="C.UTF-8")
    return env


def compileall_args(stage: Path, stdlib: Path, sourceless: bool, strip_docstrings: bool) -> list[str]:
    args = ["-m", "compileall", "-q", "-j", "0", "--invalidation-mode", "unchecked-hash",
            "-s", str(stage), "-p", "<runtime>"]
    if sourceless:
        args.append("-b")
    if strip_docstrings:
        args += ["-o", "2"]
    return [*args, str(stdlib)]


class Staged:
    """The staged runtime's interpreter. Linux: a copy of the home's python relinked to the
    staged libpython (so the smoke test proves the copy); macOS and Windows: the home's own
    executable, whose libpython is the same file the runtime carries."""

    def __init__(self, os_name: str, home: Path, lay: Layout, stage: Path, work: Path) -> None:
        self.os_name, self.stage = os_name, stage
        self.python = home / lay.python
        if os_name == LINUX:
            relinked = work / "bin" / Path(lay.python).name
            relinked.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(self.python, relinked)
            subprocess.run(["patchelf", "--set-rpath", str(stage / "lib"), str(relinked)], check=True)
            self.python = relinked

    def run(self, args: list[str], extra_env: Mapping[str, str] | None = None,
            capture: bool = False) -> str:
        env = staged_env(self.os_name, os.environ, self.stage, extra_env or {})
        done = subprocess.run([str(self.python), "-s", "-B", *args], env=env, check=True,
                              text=True, stdout=subprocess.PIPE if capture else None)
        return (done.stdout or "").strip()

    def probe(self, name: str, *args: str, extra_env: Mapping[str, str] | None = None) -> str:
        return self.run([str(PROBES / name), *args], extra_env, capture=True)


def remove_sources(root: Path) -> int:
    """Remove each .py that has a legacy-location .pyc beside it (compileall -b)."""
    n = 0
    for dirpath, _, filenames in os.walk(root):
        for f in filenames:
            if f.endswith(".py") and f + "c" in filenames:
                os.unlink(os.path.join(dirpath, f))
                n += 1
    return n
