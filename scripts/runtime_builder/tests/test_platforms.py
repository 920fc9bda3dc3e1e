"""macOS and Windows layout rules, and finding the interpreter tree."""

import json
import unittest
from pathlib import Path, PurePosixPath

from runtime_builder import interpreter, macho, pe
from runtime_builder.table import LINUX, MACOS, WINDOWS

REPO = Path(__file__).resolve().parents[3]


class MachO(unittest.TestCase):
    def test_libpython_is_named_through_rpath(self):
        self.assertEqual(macho.install_name("lib/libpython3.11.dylib"), "@rpath/libpython3.11.dylib")

    def test_magic_numbers(self):
        self.assertTrue(macho.is_macho(b"\xcf\xfa\xed\xfe\x07\x00"))
        self.assertTrue(macho.is_macho(b"\xca\xfe\xba\xbe"))
        self.assertFalse(macho.is_macho(b"\x7fELF"))
        self.assertFalse(macho.is_macho(b"MZ\x90\x00"))

    def test_the_rewritten_file_is_re_signed_after_the_change(self):
        cmds = macho.commands(Path("/s/lib/libpython3.11.dylib"), "lib/libpython3.11.dylib")
        self.assertEqual([c[0] for c in cmds], ["install_name_tool", "codesign"])
        self.assertEqual(cmds[0][1:3], ["-id", "@rpath/libpython3.11.dylib"])


class PE(unittest.TestCase):
    def test_dlls_beside_the_executable(self):
        self.assertEqual(pe.beside_exe(), ("python311.dll", "python3.dll", "vcruntime140.dll",
                                           "vcruntime140_1.dll"))
        self.assertEqual(pe.missing_beside_exe(["Python311.dll", "python3.dll", "Lib"]),
                         ["vcruntime140.dll", "vcruntime140_1.dll"])

    def test_tauri_windows_overlay_copies_exactly_those(self):
        conf = json.loads((REPO / "src-tauri/tauri.bundle.windows.conf.json").read_text())
        resources = conf["bundle"]["resources"]
        self.assertEqual(sorted(PurePosixPath(k).name for k in resources), sorted(pe.beside_exe()))
        self.assertEqual(sorted(resources.values()), sorted(pe.beside_exe()))


class Layouts(unittest.TestCase):
    def test_unix_layouts_share_a_shape_and_keep_the_stdlib_a_folder(self):
        lin, mac = interpreter.layout(LINUX), interpreter.layout(MACOS)
        self.assertEqual(lin.libpython, "lib/libpython3.11.so.1.0")
        self.assertEqual(mac.libpython, "lib/libpython3.11.dylib")
        for lay in (lin, mac):
            self.assertEqual(lay.python, "bin/python3.11")
            self.assertEqual(lay.site, "lib/python3.11/site-packages")
            self.assertEqual(lay.stdlib, "lib/python3.11")

    def test_windows_keeps_the_stdlib_a_folder(self):
        win = interpreter.layout(WINDOWS)
        self.assertEqual((win.python, win.stdlib, win.dynload, win.site),
                         ("python.exe", "Lib", "DLLs", "Lib/site-packages"))
        self.assertEqual(win.interpreter_files, pe.beside_exe())

    def test_os_of(self):
        self.assertEqual(interpreter.os_of("linux"), LINUX)
        self.assertEqual(interpreter.os_of("darwin"), MACOS)
        self.assertEqual(interpreter.os_of("win32"), WINDOWS)
        with self.assertRaises(ValueError):
            interpreter.os_of("freebsd14")


class Discovery(unittest.TestCase):
    def test_pyenv_versions_newest_patch_first_only_3_11(self):
        names = ["3.10.13", "3.11.7", "3.11.10", "3.11-dev", "3.11.7t", "3.12.1", "system"]
        self.assertEqual(interpreter.pyenv_homes(Path("/p"), names),
                         [Path("/p/3.11.10"), Path("/p/3.11.7")])

    def test_candidates_honour_pyenv_root_then_the_running_interpreter(self):
        listing = {Path("/opt/pyenv/versions"): ["3.11.7"]}
        got = interpreter.candidate_homes({"PYENV_ROOT": "/opt/pyenv"}, Path("/home/u"),
                                          Path("/usr"), lambda p: listing.get(p, []))
        self.assertEqual(got, [Path("/opt/pyenv/versions/3.11.7"), Path("/usr")])
        got = interpreter.candidate_homes({}, Path("/home/u"), Path("/usr"), lambda p: [])
        self.assertEqual(got, [Path("/usr")])

    def test_first_complete_tree_wins_and_the_others_say_why(self):
        lay = interpreter.layout(LINUX)
        present = {Path("/a/bin/python3.11"), Path("/b/bin/python3.11"),
                   Path("/b/lib/libpython3.11.so.1.0"), Path("/b/lib/python3.11/os.py")}
        home, why = interpreter.choose_home([Path("/a"), Path("/b")], lay, present.__contains__)
        self.assertEqual(home, Path("/b"))
        self.assertEqual(len(why), 1)
        self.assertIn("lib/libpython3.11.so.1.0", why[0])
        home, why = interpreter.choose_home([Path("/a")], lay, present.__contains__)
        self.assertIsNone(home)


if __name__ == "__main__":
    unittest.main()
