"""Linux: the runtime's ELF files find every library inside the runtime (or glibc's own), by
`$ORIGIN`-relative rpaths only. Host libraries the runtime needs are carried in lib/deps (GCC's
runtime in lib/deps/compat); wheel-private copies that duplicate or that nothing reaches go.

The rules are pure functions of the tools' text output; `apply_*` run readelf, ldd, strip and
patchelf on a staged runtime."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

# What counts as "the system": glibc's own libraries, present on every glibc Linux.
GLIBC = frozenset({
    "linux-vdso.so.1", "ld-linux-x86-64.so.2", "libc.so.6", "libm.so.6", "libmvec.so.1",
    "libpthread.so.0", "libdl.so.2", "librt.so.1", "libutil.so.1", "libresolv.so.2",
    "libanl.so.1",
})
# GCC's runtime: the manylinux policy treats these as system libraries. We carry a fallback
# copy in lib/deps/compat (only extension modules point there), so a system copy that the
# executable already loaded wins by soname and ours is used only if none is.
COMPAT = frozenset({"libstdc++.so.6", "libgcc_s.so.1"})
DEPS_DIR = "lib/deps"
COMPAT_DIR = "lib/deps/compat"


# --- pure rules ---------------------------------------------------------------------------
def parse_ldd(text: str) -> dict[str, str | None]:
    """soname -> resolved path (None: not found)."""
    deps: dict[str, str | None] = {}
    for line in text.splitlines():
        line = line.strip()
        m = re.match(r"(\S+) => (not found|(\S+) \(0x[0-9a-f]+\))", line)
        if m:
            deps[m.group(1)] = None if m.group(2) == "not found" else m.group(3)
            continue
        m = re.match(r"(\S+) \(0x[0-9a-f]+\)", line)
        if m:
            deps[os.path.basename(m.group(1))] = m.group(1)
    return deps


def dynamic_entries(readelf_d: str, tag: str) -> list[str]:
    """The values of one dynamic-section tag (NEEDED, RPATH, RUNPATH) in `readelf -d` output."""
    return re.findall(rf"\({tag}\)\s+.*\[(.*)\]", readelf_d)


def load_segments_aligned(readelf_l: str) -> bool:
    """What the loader checks ("ELF load command address/offset not page-aligned")."""
    for line in readelf_l.splitlines():
        f = line.split()
        if f and f[0] == "LOAD":
            offset, vaddr, align = int(f[1], 16), int(f[2], 16), int(f[-1], 16)
            if align and offset % align != vaddr % align:
                return False
    return True


def origin_entry(target_dir: str, elf_dir: str) -> str:
    """The rpath entry by which a file in `elf_dir` reaches `target_dir`."""
    rel = os.path.relpath(target_dir, elf_dir).replace(os.sep, "/")
    return "$ORIGIN" if rel == "." else f"$ORIGIN/{rel}"


def with_entry(current: str, entry: str) -> str | None:
    """`current` (a `:` list) with `entry` appended; None when it is there already."""
    parts = [p for p in current.split(":") if p]
    return None if entry in parts else ":".join([*parts, entry])


def relative_entries(current: str) -> list[str]:
    """Only the `$ORIGIN` entries: absolute ones are build-machine paths (/root/.pyenv/...)."""
    return [p for p in current.split(":") if p.startswith("$ORIGIN")]


@dataclass(frozen=True)
class Need:
    """What to do about one library an ELF file needs."""

    action: str  # "ok", "carry", "sibling", "missing"
    dest_dir: str | None = None  # for "carry": lib/deps or lib/deps/compat


def judge_need(name: str, where: str | None, root: str, sibling_exists: bool) -> Need:
    if name in GLIBC or (where and where.startswith(root + "/")):
        return Need("ok")
    if where is None:
        # A wheel's private library found at run time through the loading extension's
        # transitive DT_RPATH (e.g. scipy.libs/libgfortran -> libquadmath): make it
        # resolvable on its own too.
        return Need("sibling") if sibling_exists else Need("missing")
    return Need("carry", COMPAT_DIR if name in COMPAT else DEPS_DIR)


def reachable(needed: Mapping[str, Iterable[str]], roots: Iterable[str]) -> set[str]:
    """Library names reached from `roots` through `needed` (name -> its NEEDED)."""
    todo, seen = list(roots), set()
    while todo:
        name = todo.pop()
        if name in needed and name not in seen:
            seen.add(name)
            todo.extend(needed[name])
    return seen


def first_copies(files: Iterable[tuple[str, str, str]]) -> dict[tuple[str, str, str], tuple[str, str, str]]:
    """For (folder, name, digest) files: each later byte-identical copy of a name -> the first
    (folders in sorted order)."""
    seen: dict[tuple[str, str], tuple[str, str, str]] = {}
    later = {}
    for f in sorted(files):
        first = seen.setdefault((f[1], f[2]), f)
        if first is not f:
            later[f] = first
    return later


# --- applying them ------------------------------------------------------------------------
def _out(*cmd: str, env: dict[str, str] | None = None) -> str:
    return subprocess.run(cmd, capture_output=True, text=True, env=env).stdout


def is_elf(path: str) -> bool:
    try:
        with open(path, "rb") as fh:
            return fh.read(4) == b"\x7fELF"
    except OSError:
        return False


def elves(root: Path) -> list[str]:
    out = []
    for dirpath, _, filenames in os.walk(root):
        for f in filenames:
            p = os.path.join(dirpath, f)
            if not os.path.islink(p) and is_elf(p):
                out.append(p)
    return out


def readelf_d(path: str) -> str:
    return _out("readelf", "-d", path)


def aligned(path: str) -> bool:
    return load_segments_aligned(_out("readelf", "-lW", path))


def add_rpath(elf: str, entry: str) -> None:
    d = readelf_d(elf)
    rpath, runpath = dynamic_entries(d, "RPATH"), dynamic_entries(d, "RUNPATH")
    new = with_entry((rpath or runpath or [""])[0], entry)
    if new is None:
        return
    # Keep DT_RPATH where the wheel used it: it is inherited by the libraries it loads.
    force = ["--force-rpath"] if rpath else []
    subprocess.run(["patchelf", *force, "--set-rpath", new, elf], check=True)


def apply_strip(root: Path) -> tuple[int, int]:
    """strip --strip-unneeded every ELF, keeping the original where stripping would break it:
    binutils strip mis-lays files that auditwheel's patchelf rewrote (measured on
    numpy.libs/libscipy_openblas64_). Returns (bytes saved, files left as they were)."""
    saved = kept = 0
    for elf in elves(root):
        tmp = elf + ".strip-tmp"
        shutil.copy2(elf, tmp)
        ok = subprocess.run(["strip", "--strip-unneeded", tmp], capture_output=True).returncode == 0
        if ok and aligned(tmp) and os.path.getsize(tmp) < os.path.getsize(elf):
            saved += os.path.getsize(elf) - os.path.getsize(tmp)
            os.replace(tmp, elf)
        else:
            kept += 1
            os.unlink(tmp)
    return saved, kept


def apply_dedupe(site: Path) -> int:
    """auditwheel gives each wheel its own copy of shared Fortran runtimes (scipy.libs holds
    numpy.libs' libgfortran byte for byte). The loader keeps one per soname anyway (numpy is
    always imported first): drop the later copy and point its users at the first."""
    files = [(str(d), f.name, hashlib.sha256(f.read_bytes()).hexdigest())
             for d in site.glob("*.libs") for f in d.iterdir()]
    saved = 0
    for (d, name, _), (first_dir, _, _) in first_copies(files).items():
        p = Path(d, name)
        saved += p.stat().st_size
        p.unlink()
        for user in elves(Path(d)):
            if name in readelf_d(user):
                add_rpath(user, origin_entry(first_dir, d))
    return saved


def apply_drop_orphans(site: Path) -> int:
    """Remove wheel-private libraries (*.libs/) no extension module reaches any more
    (reachability, not reference counting: freetype and harfbuzz need each other)."""
    libs = {f.name: f for d in site.glob("*.libs") for f in d.iterdir()}
    needed = {name: dynamic_entries(readelf_d(str(f)), "NEEDED") for name, f in libs.items()}
    roots = [n for elf in elves(site) if not Path(elf).parent.name.endswith(".libs")
             for n in dynamic_entries(readelf_d(elf), "NEEDED")]
    keep = reachable(needed, roots)
    saved = 0
    for name, f in libs.items():
        if name not in keep:
            saved += f.stat().st_size
            f.unlink()
    return saved


def apply_scrub_rpaths(root: Path) -> None:
    for elf in elves(root):
        d = readelf_d(elf)
        rpath, runpath = dynamic_entries(d, "RPATH"), dynamic_entries(d, "RUNPATH")
        current = (rpath or runpath or [None])[0]
        if current is None:
            continue
        keep = relative_entries(current)
        if keep == current.split(":"):
            continue
        if keep:
            force = ["--force-rpath"] if rpath else []
            subprocess.run(["patchelf", *force, "--set-rpath", ":".join(keep), elf], check=True)
        else:
            subprocess.run(["patchelf", "--remove-rpath", elf], check=True)


def apply_carry_host_libs(root: Path) -> dict[str, str]:
    """Copy every host library an ELF in `root` needs (other than glibc's) into lib/deps and
    point each ELF's rpath there, relatively. Returns soname -> the host file carried."""
    root_s = os.path.realpath(root)
    carried: dict[str, str] = {}
    changed = True
    while changed:
        changed = False
        for elf in elves(Path(root_s)):
            deps = parse_ldd(_out("ldd", elf, env={"PATH": "/usr/bin:/bin"}))
            for name, where in deps.items():
                need = judge_need(name, where, root_s,
                                  os.path.exists(os.path.join(os.path.dirname(elf), name)))
                if need.action == "ok":
                    continue
                if need.action == "missing":
                    raise RuntimeError(f"`{elf}` needs `{name}`, which is not found on this host: "
                                       "install it or drop the module")
                if need.action == "sibling":
                    add_rpath(elf, "$ORIGIN")
                    changed = True
                    continue
                assert where is not None and need.dest_dir is not None
                dest_dir = os.path.join(root_s, need.dest_dir)
                dest = os.path.join(dest_dir, name)
                if not os.path.exists(dest):
                    os.makedirs(dest_dir, exist_ok=True)
                    shutil.copy2(os.path.realpath(where), dest)
                    os.chmod(dest, 0o755)
                    subprocess.run(["strip", "--strip-unneeded", dest], check=True)
                    if not aligned(dest):
                        shutil.copy2(os.path.realpath(where), dest)
                    carried[name] = os.path.realpath(where)
                add_rpath(elf, origin_entry(dest_dir, os.path.dirname(elf)))
                changed = True
    return carried
