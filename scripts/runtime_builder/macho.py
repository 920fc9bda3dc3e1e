"""macOS: the app links libpython by an `@rpath/` install name, so the executable's LC_RPATH
(`@executable_path/../Resources/runtime/lib`, src-tauri/build.rs) finds the bundled copy.
Rewriting a Mach-O voids its signature and arm64 refuses unsigned code: changed files are
re-signed ad hoc here (release.yml signs everything with the real identity later)."""

from __future__ import annotations

import subprocess
from pathlib import Path, PurePosixPath

MACHO_MAGICS = frozenset({
    b"\xfe\xed\xfa\xce", b"\xce\xfa\xed\xfe", b"\xfe\xed\xfa\xcf", b"\xcf\xfa\xed\xfe",
    b"\xca\xfe\xba\xbe",  # universal (fat)
})


def install_name(libpython: str) -> str:
    return f"@rpath/{PurePosixPath(libpython).name}"


def is_macho(head: bytes) -> bool:
    return head[:4] in MACHO_MAGICS


def commands(dylib: Path, libpython: str) -> list[list[str]]:
    return [["install_name_tool", "-id", install_name(libpython), str(dylib)],
            ["codesign", "--force", "--sign", "-", str(dylib)]]


def apply_install_name(stage: Path, libpython: str) -> None:
    for cmd in commands(stage / libpython, libpython):
        subprocess.run(cmd, check=True)
