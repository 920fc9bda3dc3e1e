"""The steps where the OSes really differ, after the table has pruned the staged runtime:
Linux carries host libraries and sets `$ORIGIN` rpaths, macOS gives libpython an `@rpath`
install name, Windows checks the DLLs that go beside the executable."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

from . import elf, macho, pe
from .interpreter import Layout
from .table import LINUX, MACOS, WINDOWS

Say = Callable[[str], None]


class LayoutError(Exception):
    pass


def linux_tools_missing(which: Callable[[str], str | None] = shutil.which) -> list[str]:
    """apt packages that provide the tools the Linux steps run."""
    need = []
    for tool, pkg in (("patchelf", "patchelf"), ("zstd", "zstd"), ("strip", "binutils"),
                      ("readelf", "binutils")):
        if which(tool) is None and pkg not in need:
            need.append(pkg)
    return need


def ensure_linux_tools(say: Say) -> None:
    missing = linux_tools_missing()
    if not missing:
        return
    if os.geteuid() != 0:
        raise LayoutError(f"missing tools {' '.join(missing)}: install them with apt-get (as root)")
    say(f"installing {' '.join(missing)} with apt-get")
    subprocess.run(["apt-get", "update", "-qq"], check=True)
    subprocess.run(["apt-get", "install", "-y", "-qq", *missing], check=True,
                   env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"})


def linux(stage: Path, lay: Layout, say: Say) -> dict[str, str]:
    say("stripping shared objects")
    saved, kept = elf.apply_strip(stage)
    say(f"strip saved {saved // 1048576} MiB; {kept} files left as they were")
    # strip runs before patchelf: binutils strip can corrupt files patchelf has rewritten.
    site = stage / lay.site
    say(f"deduplicated {elf.apply_dedupe(site) // 1024} KiB of wheel libraries")
    say(f"dropped {elf.apply_drop_orphans(site) // 1024} KiB of wheel libraries nothing needs")
    say("carrying host libraries and setting relative rpaths")
    elf.apply_scrub_rpaths(stage)
    return elf.apply_carry_host_libs(stage)


def macos(stage: Path, lay: Layout, say: Say) -> dict[str, str]:
    say(f"install name {macho.install_name(lay.libpython)} for {lay.libpython}")
    macho.apply_install_name(stage, lay.libpython)
    return {}


def windows(stage: Path, lay: Layout, say: Say) -> dict[str, str]:
    missing = pe.missing_beside_exe(p.name for p in stage.iterdir())
    if missing:
        raise LayoutError(f"the interpreter tree lacks {', '.join(missing)}, which the bundle "
                          "puts beside pdfagent.exe (src-tauri/tauri.bundle.windows.conf.json)")
    say("DLLs for beside the executable: " + ", ".join(pe.beside_exe()))
    return {}


STEPS: dict[str, Callable[[Path, Layout, Say], dict[str, str]]] = {
    LINUX: linux, MACOS: macos, WINDOWS: windows}
HOST_LIBS_DIR = {LINUX: "lib/deps", MACOS: None, WINDOWS: None}
