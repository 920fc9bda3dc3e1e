"""The interpreter tree a runtime is made from: where its parts are on each OS, and finding one
on this machine (a flag, pyenv's versions, or the running interpreter) without a fixed path."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from .table import LINUX, MACOS, WINDOWS


@dataclass(frozen=True)
class Layout:
    """Paths relative to an interpreter home; the runtime keeps the same shape."""

    python: str  # the executable the builder runs with
    libpython: str  # the library the app links
    stdlib: str
    dynload: str
    site: str
    interpreter_files: tuple[str, ...]  # besides the stdlib: copied when present


def layout(os_name: str, minor: int = 11) -> Layout:
    # The stdlib stays a folder of sourceless .pyc everywhere: a zipped one imports slower
    # (measured: ≈ 30 ms of a cold worker's start through zipimport) for a smaller folder
    # only; the bundles are compressed anyway.
    v, nodot = f"3.{minor}", f"3{minor}"
    if os_name == WINDOWS:
        return Layout("python.exe", f"python{nodot}.dll", "Lib", "DLLs", "Lib/site-packages",
                      (f"python{nodot}.dll", "python3.dll", "vcruntime140.dll",
                       "vcruntime140_1.dll"))
    lib = f"lib/libpython{v}.dylib" if os_name == MACOS else f"lib/libpython{v}.so.1.0"
    return Layout(f"bin/python{v}", lib, f"lib/python{v}", f"lib/python{v}/lib-dynload",
                  f"lib/python{v}/site-packages", (lib,))


def os_of(sys_platform: str) -> str:
    if sys_platform == "win32":
        return WINDOWS
    if sys_platform == "darwin":
        return MACOS
    if sys_platform.startswith("linux"):
        return LINUX
    raise ValueError(f"no runtime layout for the platform `{sys_platform}`")


def missing_landmarks(home: Path, lay: Layout, exists: Callable[[Path], bool]) -> list[str]:
    """What a usable home lacks: the executable, the shared libpython and the stdlib."""
    need = [lay.python, lay.libpython, f"{lay.stdlib}/os.py"]
    return [p for p in need if not exists(home / p)]


def pyenv_homes(pyenv_root: Path, names: Iterable[str], minor: int = 11) -> list[Path]:
    """pyenv's `3.<minor>.<patch>` versions, newest first (`3.11.7t`, `3.11-dev` are not)."""
    found = []
    for n in names:
        m = re.fullmatch(rf"3\.{minor}\.(\d+)", n)
        if m:
            found.append((int(m.group(1)), pyenv_root / n))
    return [p for _, p in sorted(found, reverse=True)]


def candidate_homes(env: Mapping[str, str], user_home: Path, base_prefix: Path,
                    list_dir: Callable[[Path], list[str]]) -> list[Path]:
    """Where to look when no --python-home is given: pyenv's 3.11 versions, then the
    interpreter running the builder."""
    root = Path(env.get("PYENV_ROOT") or user_home / ".pyenv") / "versions"
    return [*pyenv_homes(root, list_dir(root)), base_prefix]


def choose_home(candidates: Iterable[Path], lay: Layout,
                exists: Callable[[Path], bool]) -> tuple[Path | None, list[str]]:
    """The first usable candidate, and why each one before it was not."""
    why_not = []
    for home in candidates:
        missing = missing_landmarks(home, lay, exists)
        if not missing:
            return home, why_not
        why_not.append(f"`{home}` (no {', '.join(missing)})")
    return None, why_not

