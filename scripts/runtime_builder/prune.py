"""Apply the keep/prune table to folders on disk: copying the interpreter's stdlib, and pruning
site-packages after pip installed the lock."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from . import table


def tree_bytes(root: Path) -> int:
    """Bytes of the regular files under `root` (links not followed, not counted)."""
    total = 0
    for dirpath, _, filenames in os.walk(root):
        for f in filenames:
            p = os.path.join(dirpath, f)
            if not os.path.islink(p):
                total += os.lstat(p).st_size
    return total


def copy_area(src: Path, dest: Path, area: str, os_name: str, skip: frozenset[str] = frozenset()) -> None:
    """Copy `src` to `dest`, leaving out what the table drops and the top-level names `skip`
    (folders that are areas of their own)."""

    def ignore(dirpath: str, names: list[str]) -> list[str]:
        rel = Path(dirpath).relative_to(src).as_posix()
        out = []
        for n in names:
            path = n if rel == "." else f"{rel}/{n}"
            if rel == "." and n in skip:
                out.append(n)
            elif os.path.isdir(os.path.join(dirpath, n)):
                if table.dropped_folder(area, os_name, path):
                    out.append(n)
            elif not table.decide(area, os_name, path).keep:
                out.append(n)
        return out

    shutil.copytree(src, dest, ignore=ignore, symlinks=False)


def prune_area(root: Path, area: str, os_name: str) -> int:
    """Remove from `root` what the table drops; returns the bytes removed."""
    removed = 0
    for dirpath, dirnames, filenames in os.walk(root, topdown=True):
        rel = Path(dirpath).relative_to(root).as_posix()
        prefix = "" if rel == "." else rel + "/"
        for n in list(dirnames):
            p = Path(dirpath, n)
            if p.is_symlink():
                continue
            if table.dropped_folder(area, os_name, prefix + n):
                removed += tree_bytes(p)
                shutil.rmtree(p)
                dirnames.remove(n)
        for n in filenames:
            if not table.decide(area, os_name, prefix + n).keep:
                p = Path(dirpath, n)
                removed += p.lstat().st_size
                p.unlink()
    return removed
