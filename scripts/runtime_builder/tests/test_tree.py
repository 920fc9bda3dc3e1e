"""The table applied to folders on disk agrees with the pure decision, and the staged
runtime's helpers (environment, compileall arguments, sources removed)."""

import tempfile
import unittest
from pathlib import Path

from runtime_builder import prune, staged, table
from runtime_builder.table import LINUX, SITE, STDLIB, WINDOWS

from .test_table import MATPLOTLIB, NUMPY, files, on


def make(root, paths):
    for p in paths:
        f = root / p
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_bytes(b"x" * 10)


def files_under(root):
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())


class OnDisk(unittest.TestCase):
    def test_prune_area_removes_exactly_what_the_table_drops(self):
        paths = on(LINUX, files(MATPLOTLIB) + files(NUMPY))
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            make(root, paths)
            removed = prune.prune_area(root, SITE, LINUX)
            self.assertEqual(files_under(root), sorted(table.kept(SITE, LINUX, paths)))
            self.assertEqual(removed, 10 * (len(paths) - len(files_under(root))))

    def test_copy_area_skips_the_areas_of_their_own(self):
        paths = ["os.py", "tkinter/__init__.py", "lib-dynload/_json.so", "site-packages/x.py",
                 "zoneinfo/__init__.py"]
        with tempfile.TemporaryDirectory() as tmp:
            src, dest = Path(tmp, "src"), Path(tmp, "dest")
            make(src, paths)
            prune.copy_area(src, dest, STDLIB, LINUX, frozenset({"lib-dynload", "site-packages"}))
            self.assertEqual(files_under(dest), ["os.py", "zoneinfo/__init__.py"])


class Staged(unittest.TestCase):
    def test_environment_is_built_from_scratch(self):
        host = {"PATH": "/evil", "PYTHONPATH": "/evil", "HOME": "/root", "SYSTEMROOT": r"C:\Windows"}
        env = staged.staged_env(LINUX, host, Path("/s"), {"MPLCONFIGDIR": "/m"})
        self.assertEqual(env["PATH"], "/usr/bin:/bin")
        self.assertEqual(env["PYTHONHOME"], "/s")
        self.assertEqual(env["MPLCONFIGDIR"], "/m")
        self.assertNotIn("PYTHONPATH", env)
        self.assertNotIn("HOME", env)
        win = staged.staged_env(WINDOWS, host, Path("/s"), {})
        self.assertEqual(win["PATH"], r"C:\Windows\System32")
        self.assertEqual(win["SYSTEMROOT"], r"C:\Windows")

    def test_compileall_arguments(self):
        args = staged.compileall_args(Path("/s"), Path("/s/Lib"), sourceless=True, strip_docstrings=True)
        self.assertEqual(args[-1], "/s/Lib")
        self.assertIn("-b", args)
        self.assertEqual(args[args.index("-o") + 1], "2")
        self.assertEqual(args[args.index("--invalidation-mode") + 1], "unchecked-hash")
        args = staged.compileall_args(Path("/s"), Path("/s/Lib"), sourceless=False, strip_docstrings=False)
        self.assertNotIn("-b", args)
        self.assertNotIn("-o", args)

    def test_remove_sources_only_where_a_pyc_is_beside(self):
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            make(root, ["a.py", "a.pyc", "b.py"])
            self.assertEqual(staged.remove_sources(root), 1)
            self.assertEqual(files_under(root), ["a.pyc", "b.py"])


if __name__ == "__main__":
    unittest.main()
