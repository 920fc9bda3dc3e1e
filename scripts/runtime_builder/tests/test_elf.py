"""Linux layout rules, on the tools' text output."""

import unittest

from runtime_builder import elf

LDD = """\
\tlinux-vdso.so.1 (0x00007ffc1b9f5000)
\tlibz.so.1 => /lib/x86_64-linux-gnu/libz.so.1 (0x00007f0e5c9a0000)
\tlibquadmath-96973f99.so.0.0.0 => not found
\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x00007f0e5c7bf000)
\t/lib64/ld-linux-x86-64.so.2 (0x00007f0e5ca1c000)
"""
READELF_D = """\
 0x0000000000000001 (NEEDED)             Shared library: [libgfortran-040039e1.so.5.0.0]
 0x0000000000000001 (NEEDED)             Shared library: [libc.so.6]
 0x000000000000000f (RPATH)              Library rpath: [$ORIGIN/../scipy.libs:/root/.pyenv/lib]
"""
READELF_L_OK = """\
  Type           Offset   VirtAddr           PhysAddr           FileSiz  MemSiz   Flg Align
  LOAD           0x000000 0x0000000000000000 0x0000000000000000 0x0a1234 0x0a1234 R   0x1000
  LOAD           0x0a2000 0x00000000000a2000 0x00000000000a2000 0x100000 0x100000 R E 0x1000
"""
READELF_L_BAD = READELF_L_OK.replace("0x0a2000 0x00000000000a2000", "0x0a2010 0x00000000000a2000")


class Parsing(unittest.TestCase):
    def test_ldd_resolved_missing_and_loader(self):
        self.assertEqual(elf.parse_ldd(LDD), {
            "linux-vdso.so.1": "linux-vdso.so.1",
            "libz.so.1": "/lib/x86_64-linux-gnu/libz.so.1",
            "libquadmath-96973f99.so.0.0.0": None,
            "libc.so.6": "/lib/x86_64-linux-gnu/libc.so.6",
            "ld-linux-x86-64.so.2": "/lib64/ld-linux-x86-64.so.2",
        })

    def test_dynamic_entries_by_tag(self):
        self.assertEqual(elf.dynamic_entries(READELF_D, "NEEDED"),
                         ["libgfortran-040039e1.so.5.0.0", "libc.so.6"])
        self.assertEqual(elf.dynamic_entries(READELF_D, "RPATH"), ["$ORIGIN/../scipy.libs:/root/.pyenv/lib"])
        self.assertEqual(elf.dynamic_entries(READELF_D, "RUNPATH"), [])

    def test_load_segment_alignment(self):
        self.assertTrue(elf.load_segments_aligned(READELF_L_OK))
        self.assertFalse(elf.load_segments_aligned(READELF_L_BAD))


class Rpaths(unittest.TestCase):
    def test_origin_entry_is_relative(self):
        self.assertEqual(elf.origin_entry("/r/lib/deps", "/r/lib/deps"), "$ORIGIN")
        self.assertEqual(elf.origin_entry("/r/lib/deps", "/r/lib/python3.11/lib-dynload"),
                         "$ORIGIN/../../deps")

    def test_with_entry_appends_once(self):
        self.assertEqual(elf.with_entry("", "$ORIGIN"), "$ORIGIN")
        self.assertEqual(elf.with_entry("$ORIGIN/../a.libs", "$ORIGIN"), "$ORIGIN/../a.libs:$ORIGIN")
        self.assertIsNone(elf.with_entry("$ORIGIN:$ORIGIN/x", "$ORIGIN"))

    def test_absolute_build_paths_are_scrubbed(self):
        self.assertEqual(elf.relative_entries("$ORIGIN/../scipy.libs:/root/.pyenv/lib"),
                         ["$ORIGIN/../scipy.libs"])
        self.assertEqual(elf.relative_entries("/usr/local/lib"), [])


class Needs(unittest.TestCase):
    ROOT = "/stage"

    def test_glibc_and_inside_are_fine(self):
        self.assertEqual(elf.judge_need("libc.so.6", "/lib/libc.so.6", self.ROOT, False).action, "ok")
        self.assertEqual(elf.judge_need("libx.so", "/stage/lib/deps/libx.so", self.ROOT, False).action, "ok")

    def test_host_libraries_are_carried_gcc_runtime_apart(self):
        self.assertEqual(elf.judge_need("libz.so.1", "/lib/libz.so.1", self.ROOT, False),
                         elf.Need("carry", "lib/deps"))
        self.assertEqual(elf.judge_need("libstdc++.so.6", "/lib/libstdc++.so.6", self.ROOT, False),
                         elf.Need("carry", "lib/deps/compat"))

    def test_a_prefix_of_the_root_is_not_inside_it(self):
        self.assertEqual(elf.judge_need("liby.so", "/stage2/liby.so", self.ROOT, False).action, "carry")

    def test_not_found_is_a_sibling_or_an_error(self):
        self.assertEqual(elf.judge_need("libq.so", None, self.ROOT, True).action, "sibling")
        self.assertEqual(elf.judge_need("libq.so", None, self.ROOT, False).action, "missing")


class WheelLibraries(unittest.TestCase):
    def test_reachability_follows_cycles_and_drops_orphans(self):
        needed = {"libfreetype.so": ["libharfbuzz.so"], "libharfbuzz.so": ["libfreetype.so"],
                  "libavif.so": ["libdav1d.so"], "libdav1d.so": []}
        self.assertEqual(elf.reachable(needed, ["libfreetype.so", "libc.so.6"]),
                         {"libfreetype.so", "libharfbuzz.so"})

    def test_later_identical_copies_point_at_the_first(self):
        files = [("/sp/scipy.libs", "libgfortran.so", "aa"), ("/sp/numpy.libs", "libgfortran.so", "aa"),
                 ("/sp/scipy.libs", "libopenblas.so", "bb"), ("/sp/numpy.libs", "libopenblas.so", "cc")]
        self.assertEqual(elf.first_copies(files), {
            ("/sp/scipy.libs", "libgfortran.so", "aa"): ("/sp/numpy.libs", "libgfortran.so", "aa")})


if __name__ == "__main__":
    unittest.main()
