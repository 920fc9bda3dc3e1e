"""The keep/prune table: for given wheel file lists, which files each OS ships."""

import unittest

from runtime_builder import table
from runtime_builder.table import DYNLOAD, LINUX, MACOS, SITE, STDLIB, WINDOWS

OSES = (LINUX, MACOS, WINDOWS)
LINUX_EXT = ".cpython-311-x86_64-linux-gnu.so"
EXTS = {LINUX: LINUX_EXT, MACOS: ".cpython-311-darwin.so", WINDOWS: ".cp311-win_amd64.pyd"}

# A slice of matplotlib's wheel, as pip installs it (files only).
MATPLOTLIB = [
    "matplotlib/__init__.py",
    "matplotlib/cbook.py",
    "matplotlib/_path{ext}",
    "matplotlib/backends/backend_agg.py",
    "matplotlib/backends/backend_pdf.py",
    "matplotlib/backends/backend_svg.py",
    "matplotlib/backends/backend_ps.py",
    "matplotlib/backends/backend_pgf.py",
    "matplotlib/backends/backend_template.py",
    "matplotlib/backends/_backend_agg{ext}",
    "matplotlib/backends/backend_qtagg.py",
    "matplotlib/backends/qt_compat.py",
    "matplotlib/backends/backend_tkagg.py",
    "matplotlib/backends/_tkagg{ext}",
    "matplotlib/backends/backend_macosx.py",
    "matplotlib/backends/backend_webagg.py",
    "matplotlib/backends/backend_cairo.py",
    "matplotlib/backends/web_backend/all_figures.html",
    "matplotlib/backends/qt_editor/figureoptions.py",
    "matplotlib/mpl-data/matplotlibrc",
    "matplotlib/mpl-data/fonts/ttf/DejaVuSans.ttf",
    "matplotlib/mpl-data/fonts/afm/pagd8a.afm",
    "matplotlib/mpl-data/sample_data/README.txt",
    "matplotlib/mpl-data/sample_data/jacksboro_fault_dem.npz",
    "matplotlib/mpl-data/sample_data/axes_grid/bivariate_normal.npy",
    "matplotlib/mpl-data/sample_data/Stocks.csv",
    "matplotlib/mpl-data/sample_data/grace_hopper.jpg",
    "matplotlib/mpl-data/sample_data/s1045.ima.gz",
    "matplotlib/mpl-data/sample_data/data_x_x2_x3.csv",
    "matplotlib/mpl-data/stylelib/ggplot.mplstyle",
    "matplotlib/tests/test_axes.py",
    "matplotlib/tests/baseline_images/test_axes/a.png",
    "matplotlib/__init__.pyi",
    "matplotlib/py.typed",
    "matplotlib-3.11.2.dist-info/METADATA",
    "matplotlib-3.11.2.dist-info/LICENSE",
    "matplotlib-3.11.2.dist-info/RECORD",
    "matplotlib-3.11.2.dist-info/WHEEL",
    "mpl_toolkits/mplot3d/axes3d.py",
    "mpl_toolkits/mplot3d/tests/test_axes3d.py",
]
MATPLOTLIB_SHIPPED = [
    "matplotlib/__init__.py",
    "matplotlib/cbook.py",
    "matplotlib/_path{ext}",
    "matplotlib/backends/backend_agg.py",
    "matplotlib/backends/backend_pdf.py",
    "matplotlib/backends/backend_svg.py",
    "matplotlib/backends/backend_ps.py",
    "matplotlib/backends/backend_pgf.py",
    "matplotlib/backends/backend_template.py",
    "matplotlib/backends/_backend_agg{ext}",
    "matplotlib/mpl-data/matplotlibrc",
    "matplotlib/mpl-data/fonts/ttf/DejaVuSans.ttf",
    "matplotlib/mpl-data/fonts/afm/pagd8a.afm",
    "matplotlib/mpl-data/sample_data/README.txt",
    "matplotlib/mpl-data/sample_data/jacksboro_fault_dem.npz",
    "matplotlib/mpl-data/sample_data/axes_grid/bivariate_normal.npy",
    "matplotlib/mpl-data/sample_data/Stocks.csv",
    "matplotlib/mpl-data/sample_data/grace_hopper.jpg",
    "matplotlib/mpl-data/sample_data/s1045.ima.gz",
    "matplotlib/mpl-data/sample_data/data_x_x2_x3.csv",
    "matplotlib/mpl-data/stylelib/ggplot.mplstyle",
    "matplotlib-3.11.2.dist-info/METADATA",
    "matplotlib-3.11.2.dist-info/LICENSE",
    "mpl_toolkits/mplot3d/axes3d.py",
]
NUMPY = [
    "numpy/__init__.py",
    "numpy/_core/_multiarray_umath{ext}",
    "numpy/_core/_simd{ext}",
    "numpy/_core/_umath_tests{ext}",
    "numpy/_core/_rational_tests{ext}",
    "numpy/_core/include/numpy/ndarrayobject.h",
    "numpy/_core/lib/npymath.lib",
    "numpy/_core/lib/libnpymath.a",
    "numpy/_pyinstaller/hook-numpy.py",
    "numpy/f2py/__init__.py",
    "numpy/f2py/src/fortranobject.c",
    "numpy/f2py/tests/test_kind.py",
    "numpy/distutils/__init__.py",
    "numpy/random/_bounded_integers.pxd",
    "numpy/random/_generator{ext}",
    "numpy/conftest.py",
    "numpy.libs/libscipy_openblas64_-fdde5778.so",
    "numpy-2.4.6.dist-info/INSTALLER",
    "numpy-2.4.6.dist-info/entry_points.txt",
    "bin/f2py",
]
NUMPY_SHIPPED = [
    "numpy/__init__.py",
    "numpy/_core/_multiarray_umath{ext}",
    "numpy/f2py/__init__.py",
    "numpy/distutils/__init__.py",
    "numpy/random/_generator{ext}",
    "numpy.libs/libscipy_openblas64_-fdde5778.so",
    "numpy-2.4.6.dist-info/entry_points.txt",
]
OTHERS = [
    "PIL/Image.py",
    "PIL/_imaging{ext}",
    "PIL/_avif{ext}",
    "PIL/_imagingft{ext}",
    "PIL/_tkinter_finder.py",
    "fontTools/ttLib/ttFont.py",
    "fontTools/subset/__init__.py",
    "fontTools/ufoLib/__init__.py",
    "fontTools/t1Lib/__init__.py",
    "tzdata/zoneinfo/Europe/Paris",
    "scipy/_lib/_uarray/_backend.py",
    "scipy/_lib/_uarray/_uarray{ext}",
    "scipy/special/_ufuncs.pyx",
    "scipy/special/_test_internal{ext}",
    "scipy/fft/_pocketfft/tests/test_basic.py",
    "h5py/_conv.pdb",
]
OTHERS_SHIPPED = [
    "PIL/Image.py",
    "PIL/_imaging{ext}",
    "fontTools/ttLib/ttFont.py",
    "fontTools/subset/__init__.py",
    "tzdata/zoneinfo/Europe/Paris",
    "scipy/_lib/_uarray/_backend.py",
    "scipy/_lib/_uarray/_uarray{ext}",
]


def on(os_name, paths):
    return [p.replace("{ext}", EXTS[os_name]) for p in paths]


class WheelFileLists(unittest.TestCase):
    def test_matplotlib_keeps_its_data_and_non_gui_backends_on_every_os(self):
        for os_name in OSES:
            with self.subTest(os_name):
                self.assertEqual(table.kept(SITE, os_name, on(os_name, MATPLOTLIB)),
                                 on(os_name, MATPLOTLIB_SHIPPED))

    def test_numpy_keeps_f2py_and_distutils_but_not_their_tests_or_headers(self):
        for os_name in OSES:
            with self.subTest(os_name):
                self.assertEqual(table.kept(SITE, os_name, on(os_name, NUMPY)),
                                 on(os_name, NUMPY_SHIPPED))

    def test_pillow_fonttools_scipy_tzdata(self):
        for os_name in OSES:
            with self.subTest(os_name):
                self.assertEqual(table.kept(SITE, os_name, on(os_name, OTHERS)),
                                 on(os_name, OTHERS_SHIPPED))


class SampleData(unittest.TestCase):
    """The pruning that went unnoticed: gallery examples call cbook.get_sample_data(...)."""

    def test_every_sample_data_file_is_shipped_everywhere(self):
        files = [p for p in MATPLOTLIB if "/sample_data/" in p]
        self.assertGreater(len(files), 5)
        for os_name in OSES:
            for path in files:
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
