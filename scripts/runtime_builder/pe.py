"""Windows: there is no rpath. The loader finds `python3XY.dll` beside the executable, so the
runtime carries the interpreter's DLLs at its root and the bundle copies them beside
`pdfagent.exe` (src-tauri/tauri.bundle.windows.conf.json); extension modules' own DLLs stay in
DLLs/ and the wheels' `<name>.libs` folders, where CPython's loader looks."""

from __future__ import annotations

from collections.abc import Iterable


def beside_exe(minor: int = 11) -> tuple[str, ...]:
    """The DLLs the executable needs before Python starts (the VC runtime with it)."""
    return (f"python3{minor}.dll", "python3.dll", "vcruntime140.dll", "vcruntime140_1.dll")


def missing_beside_exe(runtime_root_files: Iterable[str], minor: int = 11) -> list[str]:
    have = {f.lower() for f in runtime_root_files}
    return [d for d in beside_exe(minor) if d.lower() not in have]
