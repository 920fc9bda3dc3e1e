"""Reading the CJK font out of a Debian package, and the matplotlibrc edit."""

import io
import lzma
import tarfile
import unittest

from runtime_builder import fonts


def ar(members):
    out = b"!<arch>\n"
    for name, body in members:
        out += f"{name + '/':<16}{0:<12}{0:<6}{0:<6}{'100644':<8}{len(body):<10}`\n".encode() + body
        if len(body) % 2:
            out += b"\n"
    return out


def data_tar(files):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tar:
        for name, body in files.items():
            info = tarfile.TarInfo("./" + name)
            info.size = len(body)
            tar.addfile(info, io.BytesIO(body))
    return lzma.compress(buf.getvalue())


class DebianPackage(unittest.TestCase):
    def test_members_and_files_from_an_xz_data_tar(self):
        files = {fonts.TTF_MEMBER: b"ttf!", fonts.COPYRIGHT_MEMBER: b"Apache-2.0"}
        blob = ar([("debian-binary", b"2.0\n"), ("control.tar.xz", b"x"), ("data.tar.xz", data_tar(files))])
        self.assertEqual(list(fonts.ar_members(blob)), ["debian-binary", "control.tar.xz", "data.tar.xz"])
        got = fonts.deb_files(blob, (fonts.TTF_MEMBER, fonts.COPYRIGHT_MEMBER))
        self.assertEqual(got, files)

    def test_missing_member_and_not_a_package(self):
        blob = ar([("data.tar.xz", data_tar({"x": b""}))])
        with self.assertRaisesRegex(fonts.FontError, "has no"):
            fonts.deb_files(blob, (fonts.TTF_MEMBER,))
        with self.assertRaises(fonts.FontError):
            fonts.ar_members(b"PK\x03\x04")


class Matplotlibrc(unittest.TestCase):
    def test_commented_family_line_becomes_the_fallback_list_once(self):
        rc = "#font.style: normal\n#font.family:  sans-serif\n#font.size: 10\n"
        new = fonts.with_fallback_family(rc)
        self.assertIn("\nfont.family: sans-serif, Droid Sans Fallback\n", new)
        self.assertEqual(fonts.with_fallback_family(new), new)

    def test_no_family_line_is_an_error(self):
        with self.assertRaises(fonts.FontError):
            fonts.with_fallback_family("#font.size: 10\n")


if __name__ == "__main__":
    unittest.main()
