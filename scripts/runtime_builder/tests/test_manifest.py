"""The manifest writer and the size table."""

import unittest

from runtime_builder import interpreter, manifest, policy
from runtime_builder.table import LINUX, WINDOWS

DISTS = policy.Distributions(("matplotlib", "numpy"), ("h5py",))
LOCKED = {"numpy": ("numpy", "2.4.6"), "h5py": ("h5py", "3.16.0"), "matplotlib": ("matplotlib", "3.11.2")}
SIZES = {"raw": 3 << 20, "pruned": 2 << 20, "with_pyc": 5 << 20, "final": 1 << 20, "zstd": 1000,
         "zstd_level": 10, "keep_sources": False, "strip_docstrings": True}


def build(sourceless=True):
    return manifest.Build(python="3.11.7", platform="linux-x86_64", built_at="2026-12-01T00:00:00Z",
                          stamp="ab" * 32, sourceless=sourceless, strip_docstrings=False,
                          font_cache="mplconfig/fontlist-v3.11.0.json")


class Manifest(unittest.TestCase):
    def test_linux_sourceless_names_the_stdlib_folder_and_the_carried_libraries(self):
        doc = manifest.manifest(build(), interpreter.layout(LINUX), DISTS, LOCKED,
                                {"libz.so.1": "/lib/libz.so.1"}, SIZES, {"files": 3}, "lib/deps")
        self.assertEqual(doc["format"], 1)
        self.assertEqual(doc["abi"], "cp311")
        self.assertEqual(doc["layout"]["stdlib"], "lib/python3.11")
        self.assertEqual(doc["layout"]["libpython"], "lib/libpython3.11.so.1.0")
        self.assertEqual(doc["layout"]["host_libs"], "lib/deps")
        self.assertEqual(doc["layout"]["font_cache"], "mplconfig/fontlist-v3.11.0.json")
        self.assertEqual(list(doc["distributions"]), ["h5py", "matplotlib", "numpy"])
        self.assertEqual(doc["policy_distributions"], ["matplotlib", "numpy"])
        self.assertEqual(doc["runtime_extra"], ["h5py"])
        self.assertEqual(doc["bundled_host_libs"], {"libz.so.1": "/lib/libz.so.1"})

    def test_sources_kept_means_the_stdlib_folder(self):
        doc = manifest.manifest(build(sourceless=False), interpreter.layout(LINUX), DISTS, LOCKED,
                                {}, SIZES, {}, "lib/deps")
        self.assertEqual(doc["layout"]["stdlib"], "lib/python3.11")
        self.assertFalse(doc["sourceless"])

    def test_windows_has_no_host_libs(self):
        doc = manifest.manifest(build(), interpreter.layout(WINDOWS), DISTS, LOCKED, {}, SIZES, {}, None)
        self.assertEqual(doc["layout"]["stdlib"], "Lib")
        self.assertEqual(doc["layout"]["libpython"], "python311.dll")
        self.assertEqual(doc["layout"]["lib_dynload"], "DLLs")
        self.assertNotIn("host_libs", doc["layout"])


class SizeTable(unittest.TestCase):
    def test_rows_and_the_final_build_described(self):
        text = manifest.sizes_table(SIZES)
        lines = text.splitlines()
        self.assertEqual(lines[0], "| stage | size | bytes |")
        self.assertEqual(len(lines), 2 + 5)
        self.assertIn("| final (sourceless .pyc, no .py, -OO) | 1.0 MiB | 1,048,576 |", text)
        self.assertIn("zstd -10 tarball", text)

    def test_no_zstd_no_row(self):
        text = manifest.sizes_table({**SIZES, "zstd": None, "keep_sources": True, "strip_docstrings": False})
        self.assertNotIn("zstd", text)
        self.assertIn("final (sources kept)", text)


if __name__ == "__main__":
    unittest.main()
