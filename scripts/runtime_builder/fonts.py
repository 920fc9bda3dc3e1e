"""The CJK fallback font: DejaVu has no CJK glyphs, so `plt.title('磁场扫描')` would draw empty
boxes. Debian's fonts-droid-fallback (Apache-2.0) goes into mpl-data/fonts/ttf, so the prebuilt
font cache stores it with a relative path, and mpl-data/matplotlibrc puts it after the generic
family: Latin text keeps DejaVu Sans, characters DejaVu lacks fall back to Droid.

The package is fetched from Debian's archive by URL with a pinned SHA-256 on every OS and read
with the standard library (no `ar`/`dpkg` needed)."""

from __future__ import annotations

import hashlib
import io
import lzma
import re
import tarfile
import urllib.request
from pathlib import Path

DEB_URL = ("https://deb.debian.org/debian/pool/main/f/fonts-android/"
           "fonts-droid-fallback_6.0.1r16-1.1_all.deb")
DEB_SHA256 = "d2096d4edde128fedf6749be2dd204a5810210a6201126d99b8d412344f71056"
TTF_MEMBER = "usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf"
COPYRIGHT_MEMBER = "usr/share/doc/fonts-droid-fallback/copyright"
TTF_NAME = "DroidSansFallbackFull.ttf"
LICENSE_NAME = "DroidSansFallbackFull-LICENSE.txt"
FAMILY_LINE = "font.family: sans-serif, Droid Sans Fallback"
# Debian's copyright file points at the full licence text; hosts that have it get it appended.
APACHE_2 = Path("/usr/share/common-licenses/Apache-2.0")


class FontError(Exception):
    pass


def ar_members(blob: bytes) -> dict[str, bytes]:
    """The members of a Debian package (an `ar` archive)."""
    if not blob.startswith(b"!<arch>\n"):
        raise FontError("not a Debian package (no ar header)")
    out, pos = {}, 8
    while pos + 60 <= len(blob):
        name = blob[pos:pos + 16].decode().strip().rstrip("/")
        size = int(blob[pos + 48:pos + 58].decode().strip())
        out[name] = blob[pos + 60:pos + 60 + size]
        pos += 60 + size + (size % 2)
    return out


def deb_files(blob: bytes, wanted: tuple[str, ...]) -> dict[str, bytes]:
    """The files `wanted` (paths without `./`) from the package's data.tar."""
    found = [(name, body) for name, body in ar_members(blob).items() if name.startswith("data.tar")]
    if not found:
        raise FontError("no data.tar in the package")
    name, data = found[0]
    if name.endswith(".xz"):
        data = lzma.decompress(data)
    out = {}
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        members = {m.name.removeprefix("./"): m for m in tar.getmembers()}
        for w in wanted:
            if w not in members:
                raise FontError(f"the package has no `{w}`")
            fh = tar.extractfile(members[w])
            if fh is None:
                raise FontError(f"`{w}` in the package is not a file")
            out[w] = fh.read()
    return out


def with_fallback_family(rc_text: str) -> str:
    """matplotlibrc with the default family made a fallback list (matplotlib >= 3.6)."""
    if FAMILY_LINE in rc_text:
        return rc_text
    new, n = re.subn(r"(?m)^#?font\.family\s*:.*$", FAMILY_LINE, rc_text, count=1)
    if n != 1:
        raise FontError("matplotlibrc has no font.family line to extend")
    return new


def fetch_deb() -> bytes:
    blob = urllib.request.urlopen(DEB_URL, timeout=120).read()
    if hashlib.sha256(blob).hexdigest() != DEB_SHA256:
        raise FontError(f"`{DEB_URL}` does not have the expected SHA-256 {DEB_SHA256}")
    return blob


def add_cjk_font(mpl_data: Path, blob: bytes) -> None:
    files = deb_files(blob, (TTF_MEMBER, COPYRIGHT_MEMBER))
    ttf_dir = mpl_data / "fonts" / "ttf"
    (ttf_dir / TTF_NAME).write_bytes(files[TTF_MEMBER])
    licence = files[COPYRIGHT_MEMBER]
    if APACHE_2.is_file():
        licence += b"\n" + APACHE_2.read_bytes()
    (ttf_dir / LICENSE_NAME).write_bytes(licence)
    rc = mpl_data / "matplotlibrc"
    rc.write_text(with_fallback_family(rc.read_text(encoding="utf-8")), encoding="utf-8")
