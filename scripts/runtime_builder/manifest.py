"""runtime-manifest.json, the marker the Rust locator looks for (written last: its presence
means the build finished), and SIZES.md, the size table of one build."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .interpreter import Layout
from .policy import Distributions, norm


@dataclass(frozen=True)
class Build:
    python: str  # full version, e.g. 3.11.7
    platform: str  # linux-x86_64, macos-arm64, windows-x86_64
    built_at: str
    stamp: str
    sourceless: bool
    strip_docstrings: bool
    font_cache: str  # relative path of matplotlib's prebuilt font cache


def manifest(build: Build, lay: Layout, dists: Distributions, locked: dict[str, tuple[str, str]],
             carried: dict[str, str], sizes: dict[str, Any], contents: dict[str, int],
             host_libs: str | None) -> dict[str, Any]:
    minor = build.python.split(".")[1]
    stdlib = lay.stdlib
    layout: dict[str, str] = {
        "home": ".",
        "libpython": lay.libpython,
        "stdlib": stdlib,
        "lib_dynload": lay.dynload,
        "site_packages": lay.site,
        "mplconfig": "mplconfig",
        "font_cache": build.font_cache,
    }
    if host_libs:
        layout["host_libs"] = host_libs
    return {
        "format": 1,
        "python": build.python,
        "abi": f"cp3{minor}",
        "platform": build.platform,
        "built_at": build.built_at,
        "stamp": build.stamp,
        "layout": layout,
        "policy_distributions": list(dists.policy),
        "runtime_extra": list(dists.runtime_extra),
        "distributions": {n: v for n, v in sorted(locked.values(), key=lambda p: norm(p[0]))},
        "sourceless": build.sourceless,
        "strip_docstrings": build.strip_docstrings,
        "bundled_host_libs": dict(sorted(carried.items())),
        "contents": contents,
        "sizes_bytes": sizes,
    }


def mib(b: int) -> str:
    return f"{b / 1048576:.1f} MiB"


def sizes_table(sizes: dict[str, Any]) -> str:
    final = "sources kept" if sizes.get("keep_sources") else "sourceless .pyc, no .py"
    if sizes.get("strip_docstrings"):
        final += ", -OO"
    rows = [("runtime raw (stdlib copy + locked wheels installed)", sizes["raw"]),
            ("after pruning and stripping", sizes["pruned"]),
            ("with .pyc (unchecked-hash)", sizes["with_pyc"]),
            (f"final ({final})", sizes["final"])]
    if sizes.get("zstd") is not None:
        rows.append((f"zstd -{sizes['zstd_level']} tarball of the final folder", sizes["zstd"]))
    out = ["| stage | size | bytes |", "| --- | ---: | ---: |"]
    out += [f"| {name} | {mib(b)} | {b:,} |" for name, b in rows]
    return "\n".join(out)
