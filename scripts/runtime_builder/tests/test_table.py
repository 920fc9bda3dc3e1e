"""The keep/prune table: for given wheel file lists, which files each OS ships."""

import unittest

from runtime_builder import table
from runtime_builder.table import DYNLOAD, LINUX, MACOS, SITE, STDLIB, WINDOWS

OSES = (LINUX, MACOS, WINDOWS)
LINUX_EXT = ".cpython-311-x86_64-linux-gnu.so"
EXTS = {LINUX: LINUX_EXT, MACOS: ".cpython-311-darwin.so", WINDOWS: ".cp311-win_amd64.pyd"}

# A slice of matplotlib's wheel, as pip installs it (files only).
MATPLOTLIB = [
    ("matplotlib/__init__.py", True),
    ("matplotlib/cbook.py", True),
    ("matplotlib/_path{ext}", True),
    ("matplotlib/backends/backend_agg.py", True),
    ("matplotlib/backends/backend_pdf.py", True),
    ("matplotlib/backends/backend_svg.py", True),
    ("matplotlib/backends/backend_ps.py", True),
    ("matplotlib/backends/backend_pgf.py", True),
    ("matplotlib/backends/backend_template.py", True),
    ("matplotlib/backends/_backend_agg{ext}", True),
    ("matplotlib/backends/backend_qtagg.py", False),
    ("matplotlib/backends/qt_compat.py", False),
    ("matplotlib/backends/backend_tkagg.py", False),
    ("matplotlib/backends/_tkagg{ext}", False),
    ("matplotlib/backends/backend_macosx.py", False),
    ("matplotlib/backends/backend_webagg.py", False),
    ("matplotlib/backends/backend_cairo.py", False),
    ("matplotlib/backends/web_backend/all_figures.html", False),
    ("matplotlib/backends/qt_editor/figureoptions.py", False),
    ("matplotlib/mpl-data/matplotlibrc", True),
    ("matplotlib/mpl-data/fonts/ttf/DejaVuSans.ttf", True),
    ("matplotlib/mpl-data/fonts/afm/pagd8a.afm", True),
    ("matplotlib/mpl-data/sample_data/README.txt", True),
    ("matplotlib/mpl-data/sample_data/jacksboro_fault_dem.npz", True),
    ("matplotlib/mpl-data/sample_data/axes_grid/bivariate_normal.npy", True),
    ("matplotlib/mpl-data/sample_data/Stocks.csv", True),
    ("matplotlib/mpl-data/sample_data/grace_hopper.jpg", True),
    ("matplotlib/mpl-data/sample_data/s1045.ima.gz", True),
    ("matplotlib/mpl-data/sample_data/data_x_x2_x3.csv", True),
    ("matplotlib/mpl-data/stylelib/ggplot.mplstyle", True),
    ("matplotlib/tests/test_axes.py", False),
    ("matplotlib/tests/baseline_images/test_axes/a.png", False),
    ("matplotlib/__init__.pyi", False),
    ("matplotlib/py.typed", False),
    ("matplotlib-3.11.2.dist-info/METADATA", True),
    ("matplotlib-3.11.2.dist-info/LICENSE", True),
    ("matplotlib-3.11.2.dist-info/RECORD", False),
    ("matplotlib-3.11.2.dist-info/WHEEL", False),
    ("mpl_toolkits/mplot3d/axes3d.py", True),
    ("mpl_toolkits/mplot3d/tests/test_axes3d.py", False),
]
NUMPY = [
    ("numpy/__init__.py", True),
    ("numpy/_core/_multiarray_umath{ext}", True),
    ("numpy/_core/_simd{ext}", False),
    ("numpy/_core/_umath_tests{ext}", False),
    ("numpy/_core/_rational_tests{ext}", False),
    ("numpy/_core/include/numpy/ndarrayobject.h", False),
    ("numpy/_core/lib/npymath.lib", False),
    ("numpy/_core/lib/libnpymath.a", False),
    ("numpy/_pyinstaller/hook-numpy.py", False),
    ("numpy/f2py/__init__.py", True),
    ("numpy/f2py/src/fortranobject.c", False),
    ("numpy/f2py/tests/test_kind.py", False),
    ("numpy/distutils/__init__.py", True),
    ("numpy/random/_bounded_integers.pxd", False),
    ("numpy/random/_generator{ext}", True),
    ("numpy/conftest.py", False),
    ("numpy.libs/libscipy_openblas64_-fdde5778.so", True),
    ("numpy-2.4.6.dist-info/INSTALLER", False),
    ("numpy-2.4.6.dist-info/entry_points.txt", True),
    ("bin/f2py", False),
]
OTHERS = [
    ("PIL/Image.py", True),
    ("PIL/_imaging{ext}", True),
    ("PIL/_avif{ext}", False),
    ("PIL/_imagingft{ext}", False),
    ("PIL/_tkinter_finder.py", False),
    ("fontTools/ttLib/ttFont.py", True),
    ("fontTools/subset/__init__.py", True),
    ("fontTools/ufoLib/__init__.py", False),
    ("fontTools/t1Lib/__init__.py", False),
    ("tzdata/zoneinfo/Europe/Paris", True),
    ("scipy/_lib/_uarray/_backend.py", True),
    ("scipy/_lib/_uarray/_uarray{ext}", True),
    ("scipy/special/_ufuncs.pyx", False),
    ("scipy/special/_test_internal{ext}", False),
    ("scipy/fft/_pocketfft/tests/test_basic.py", False),
    ("h5py/_conv.pdb", False),
]


def on(os_name, paths):
    return [p.replace("{ext}", EXTS[os_name]) for p in paths]


def files(fixture):
    return [p for p, _ in fixture]


def shipped(fixture):
    return [p for p, ships in fixture if ships]


class WheelFileLists(unittest.TestCase):
    def test_matplotlib_keeps_its_data_and_non_gui_backends_on_every_os(self):
        for os_name in OSES:
            with self.subTest(os_name):
                self.assertEqual(table.kept(SITE, os_name, on(os_name, files(MATPLOTLIB))),
                                 on(os_name, shipped(MATPLOTLIB)))

    def test_numpy_keeps_f2py_and_distutils_but_not_their_tests_or_headers(self):
        for os_name in OSES:
            with self.subTest(os_name):
                self.assertEqual(table.kept(SITE, os_name, on(os_name, files(NUMPY))),
                                 on(os_name, shipped(NUMPY)))

    def test_pillow_fonttools_scipy_tzdata(self):
        for os_name in OSES:
            with self.subTest(os_name):
                self.assertEqual(table.kept(SITE, os_name, on(os_name, files(OTHERS))),
                                 on(os_name, shipped(OTHERS)))


class SampleData(unittest.TestCase):
    """The pruning that went unnoticed: gallery examples call cbook.get_sample_data(...)."""

    def test_every_sample_data_file_is_shipped_everywhere(self):
        files_ = [p for p in files(MATPLOTLIB) if "/sample_data/" in p]
        self.assertGreater(len(files_), 5)
        for os_name in OSES:
            for path in files_:
                with self.subTest(os_name=os_name, path=path):
                    decision = table.decide(SITE, os_name, path)
                    self.assertTrue(decision.keep, decision.rule)

    def test_sample_data_folder_is_never_removed_whole(self):
        for os_name in OSES:
            self.assertFalse(table.dropped_folder(SITE, os_name, "matplotlib/mpl-data/sample_data"))
            self.assertFalse(table.dropped_folder(SITE, os_name, "matplotlib/mpl-data"))

    def test_kept_on_purpose_by_a_rule_with_a_reason(self):
        rule = table.decide(SITE, LINUX, "matplotlib/mpl-data/sample_data/goog.npz").rule
        self.assertIsNotNone(rule)
        self.assertEqual(rule.action, "keep")
        self.assertIn("get_sample_data", rule.why)


class StandardLibrary(unittest.TestCase):
    STDLIB = ("os.py", "json/__init__.py", "json/__pycache__/decoder.cpython-311.pyc",
              "tkinter/__init__.py", "idlelib/idle.py", "turtle.py", "this.py",
              "test/test_os.py", "unittest/test/test_case.py", "ctypes/test/test_x.py",
              "ensurepip/__init__.py", "venv/__init__.py", "lib2to3/main.py",
              "sqlite3/__init__.py", "curses/__init__.py", "zoneinfo/__init__.py",
              "config-3.11-x86_64-linux-gnu/Makefile", "site-packages/README.txt",
              "encodings/utf_8.py", "email/parser.py")
    SHIPPED = ("os.py", "json/__init__.py", "zoneinfo/__init__.py", "encodings/utf_8.py",
               "email/parser.py")

    def test_stdlib_is_the_same_everywhere(self):
        for os_name in OSES:
            self.assertEqual(table.kept(STDLIB, os_name, self.STDLIB), list(self.SHIPPED))

    def test_extension_modules_and_windows_dlls(self):
        names = {
            LINUX: ["_ssl{ext}", "_hashlib{ext}", "_json{ext}", "_ctypes{ext}", "_testcapi{ext}",
                    "readline{ext}", "_curses_panel{ext}", "_uuid{ext}", "_lzma{ext}"],
            WINDOWS: ["_ssl{ext}", "_json{ext}", "_ctypes{ext}", "libcrypto-3.dll",
                      "libssl-3.dll", "sqlite3.dll", "tcl86t.dll", "tk86t.dll", "libffi-8.dll",
                      "_tkinter{ext}", "_lzma{ext}"],
        }
        shipped = {LINUX: ["_json{ext}", "_ctypes{ext}", "_lzma{ext}"],
                   WINDOWS: ["_json{ext}", "_ctypes{ext}", "libffi-8.dll", "_lzma{ext}"]}
        for os_name, files in names.items():
            with self.subTest(os_name):
                self.assertEqual(table.kept(DYNLOAD, os_name, on(os_name, files)),
                                 on(os_name, shipped[os_name]))


class Patterns(unittest.TestCase):
    def test_double_star_matches_at_any_depth_including_the_top(self):
        self.assertTrue(table.matches("**/tests", "tests"))
        self.assertTrue(table.matches("**/tests", "a/b/tests"))
        self.assertFalse(table.matches("**/tests", "a/tests2"))

    def test_star_stays_within_one_component(self):
        self.assertTrue(table.matches("matplotlib/backends/backend_qt*",
                                      "matplotlib/backends/backend_qtagg.py"))
        self.assertFalse(table.matches("config-*", "a/config-3.11"))
        self.assertFalse(table.matches("*.dist-info/RECORD", "x/y.dist-info/RECORD"))

    def test_ext_is_an_extension_module_suffix_only(self):
        for name in ("_avif.cpython-311-x86_64-linux-gnu.so", "_avif.cpython-311-darwin.so",
                     "_avif.abi3.so", "_avif.cp311-win_amd64.pyd", "_avif.pyd"):
            self.assertTrue(table.matches("PIL/_avif{ext}", f"PIL/{name}"), name)
        self.assertFalse(table.matches("PIL/_avif{ext}", "PIL/_avif.py"))

    def test_deeper_rule_wins_and_keep_wins_a_tie(self):
        rules = [table.Rule(SITE, "a", "drop", "x"), table.Rule(SITE, "a/b", "keep", "y"),
                 table.Rule(SITE, "a/b/c", "drop", "z"), table.Rule(SITE, "d", "drop", "x"),
                 table.Rule(SITE, "d", "keep", "y")]
        self.assertFalse(table.decide(SITE, LINUX, "a/x", rules).keep)
        self.assertTrue(table.decide(SITE, LINUX, "a/b/x", rules).keep)
        self.assertFalse(table.decide(SITE, LINUX, "a/b/c/x", rules).keep)
        self.assertTrue(table.decide(SITE, LINUX, "d/x", rules).keep)
        self.assertTrue(table.decide(SITE, LINUX, "e/x", rules).keep)

    def test_a_rule_for_one_os_leaves_the_others_alone(self):
        rules = [table.Rule(SITE, "a", "drop", "x", frozenset({WINDOWS}))]
        self.assertFalse(table.decide(SITE, WINDOWS, "a/f", rules).keep)
        self.assertTrue(table.decide(SITE, LINUX, "a/f", rules).keep)


class TheTableItself(unittest.TestCase):
    def test_every_rule_is_well_formed(self):
        for rule in table.TABLE:
            with self.subTest(rule.pattern):
                self.assertIn(rule.action, ("drop", "keep"))
                self.assertIn(rule.area, (STDLIB, DYNLOAD, SITE))
                self.assertTrue(rule.why.strip())
                self.assertTrue(rule.oses <= table.ALL_OS and rule.oses)
                self.assertFalse(rule.pattern.startswith("/") or rule.pattern.endswith("/"))

    def test_no_pattern_is_listed_twice(self):
        seen = [(r.area, r.pattern) for r in table.TABLE]
        self.assertEqual(len(seen), len(set(seen)))


if __name__ == "__main__":
    unittest.main()
