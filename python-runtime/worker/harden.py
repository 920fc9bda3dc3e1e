# PDFAgent run-time hardening, pasted into the worker script after the reader table (see
# pipeline/script.rs); the preamble calls _pdfagent_harden() once its libraries are
# imported and before anything else runs (in a fork server: before it forks, so every child
# inherits it for free).
#
# Layer 1 refuses the names that reach dangerous functions; this is the depth behind it. A
# route the checker misses (an attribute chain through an alias, a keyword built at run
# time, a registry that imports what it is told) finds here a function that refuses with a
# sentence instead of the one it wanted:
#   - modules imported by name: pydoc's and pkgutil's importers (seaborn's vendored
#     docscrape holds pydoc), importlib.reload, runpy, logging.config; matplotlib's backend
#     registry and its table of canvas classes import only matplotlib's own backends;
#   - downloads: urllib.request's openers (which numpy's DataSource, pandas' and seaborn's
#     readers use); seaborn's example datasets come from the data folder only
#     (`sns.load_dataset('tips')` reads tips.csv there, see _pdfagent_seaborn_datasets);
#   - unpickling: pickle's loaders, pd.read_pickle, and allow_pickle pinned off where numpy
#     reads it (np.load and numpy.lib.format.read_array, which NpzFile calls): no keyword,
#     functools.partial or computed name can turn it on;
#   - LaTeX: matplotlib's TexManager (text.usetex) never runs;
#   - registries (issue 40): tables that map names to modules or callables, which a library
#     imports or calls by name, are read-only (PIL.features' `features`, `modules`, `codecs`;
#     matplotlib's `RcParams.validate`; scipy's lazy `submodules`); pandas' plotting backend loads matplotlib's only,
#     whatever option, keyword or computed key names another; np.info imports no `toplevel`;
#     string.Formatter (matplotlib.ticker holds `string`) walks no private attribute.
# Replaced, not deleted, where the library's own code still refers to the name. A module
# not yet imported is patched the moment its import finishes (a finder first on
# sys.meta_path), so a module the code imports later is no way around. The operating
# system's confinement stays the wall.
#
# In stages: each concern above is a top-level function (`_pdfagent_harden_importers`,
# `_urllib`, `_pickle`, `_datasets`, `_backends`, `_usetex`, `_registries`) giving its rows
# of the table; `_pdfagent_harden` joins them, makes the modules read-only
# (`_pdfagent_harden_read_only`), patches what is imported (`_pdfagent_harden_patch_imported`)
# and puts its finder (`_pdfagent_import_finder`; the lookup `_pdfagent_spec_then` is the
# guard's too) first on sys.meta_path.
# Closures are left only where the code is handed a function that holds state (an
# original, a sentence, a table): their qualified names are rows of the reachability
# snapshot.


def _pdfagent_harden(dataset_file, reader_wraps=None):
    """`dataset_file(file_name)` is the preamble's: (the data folder, the real path of
    `file_name` in it), refusing any path that leaves it (srcpath). `reader_wraps`
    (answers.py): module -> entry putting the readers' path redirect in front of them,
    applied after this file's own entry for the same module (so np.load's redirect calls
    the pinned np.load). Returns `freeze_modules()`, which the preamble calls once the
    worker has patched what it patches, right before the code runs.

    The table: module name -> what to replace in it once it is imported: a dict, or a
    function of the module that returns one (and may patch the module's classes in
    place). Each stage below gives the rows of one concern."""
    import sys

    table = {
        **_pdfagent_harden_importers(),
        **_pdfagent_harden_urllib(),
        **_pdfagent_harden_pickle(),
        **_pdfagent_harden_datasets(dataset_file),
        **_pdfagent_harden_backends(),
        **_pdfagent_harden_usetex(),
        **_pdfagent_harden_registries(),
    }
    for module_name, entry in (reader_wraps or {}).items():
        table[module_name] = (
            _pdfagent_harden_after(table[module_name], entry) if module_name in table else entry
        )
    freeze_if_frozen, freeze_modules = _pdfagent_harden_read_only(table)
    patch = _pdfagent_harden_patch_imported(table, freeze_if_frozen)
    # Modules imported later: patched as their import finishes.
    if table:
        sys.meta_path.insert(0, _pdfagent_import_finder(table.__contains__, patch))
    return freeze_modules


def _pdfagent_refusal(name, why):
    """A function that refuses with a sentence, named after the last part of `name`: what
    the code finds where the replaced function was (a closure: it carries its sentence)."""

    def refused(*args, **kwargs):
        raise PermissionError(f"{name} is not available in figure code: {why}")

    refused.__name__ = name.rsplit(".", 1)[-1]
    refused.__qualname__ = refused.__name__
    return refused


def _pdfagent_harden_importers():
    """Modules imported by name: pydoc's and pkgutil's importers, importlib.reload, runpy,
    logging.config."""
    why = (
        "figure code cannot import modules by name; import what you need at the top of "
        "the code (numpy, pandas, matplotlib, seaborn, scipy)"
    )

    def importers(module_name, names):
        return {n: _pdfagent_refusal(f"{module_name}.{n}", why) for n in names}

    return {
        "importlib": {"reload": _pdfagent_refusal("importlib.reload", why)},
        "pydoc": importers("pydoc", (
            "locate", "safeimport", "importfile", "resolve", "render_doc", "doc", "writedoc",
            "writedocs", "apropos", "help", "pager", "getpager", "pipepager",
            "tempfilepager", "browse", "cli",
        )),
        "pkgutil": importers("pkgutil", ("resolve_name", "walk_packages", "get_loader", "find_loader")),
        "runpy": importers("runpy", ("run_module", "run_path", "_run_module_as_main")),
        "logging.config": importers("logging.config", ("dictConfig", "fileConfig", "listen", "_resolve")),
    }


def _pdfagent_harden_urllib():
    """Downloads: urllib.request's openers (which numpy's DataSource, pandas' and seaborn's
    readers use)."""
    offline_why = (
        "figure code runs offline and reads only the data folder: read files by name "
        "(e.g. load('data.csv') or pd.read_csv('data.csv'))"
    )

    def urllib_request(module):
        opener = _pdfagent_refusal("opening a URL", offline_why)
        for cls_name in ("OpenerDirector", "URLopener"):
            cls = getattr(module, cls_name, None)
            if isinstance(cls, type):
                cls.open = opener
        return {"urlopen": opener, "urlretrieve": opener}

    return {"urllib.request": urllib_request}


def _pdfagent_harden_pickle():
    """Unpickling: pickle's loaders and unpicklers, pd.read_pickle, pandas' compatibility
    unpickler, and allow_pickle pinned off where numpy reads it."""
    pickle_why = (
        "PDFAgent never unpickles data (a pickle can run any code): save the data as .npy "
        "or .npz without Python objects, .csv, .json or .mat"
    )
    refuse_find_class = _pdfagent_refusal("pickle.Unpickler.find_class", pickle_why)

    def no_unpickling(module):
        # Functions replaced; the classes kept as classes (pandas subclasses pickle's pure
        # Python unpickler at import) with a load and a find_class (which imports any
        # module and hands out any of its names) that refuse.
        patch = {n: _pdfagent_refusal(f"pickle.{n}", pickle_why)
                 for n in ("load", "loads", "_load", "_loads") if hasattr(module, n)}
        refuse_load = _pdfagent_refusal("pickle.Unpickler.load", pickle_why)
        native = getattr(module, "Unpickler", None)
        if isinstance(native, type):
            patch["Unpickler"] = type("Unpickler", (native,), {
                "load": refuse_load, "find_class": refuse_find_class})
        pure = getattr(module, "_Unpickler", None)
        if isinstance(pure, type):
            pure.load = refuse_load
            pure.find_class = refuse_find_class
        return patch

    def pandas_unpickler(module):
        # pandas' compatibility unpickler overrides find_class itself (issue 40: its
        # find_class('builtins', 'exec') handed out exec, and imported ctypes).
        cls = module.Unpickler
        cls.load = _pdfagent_refusal("pandas.compat.pickle_compat.Unpickler.load", pickle_why)
        cls.find_class = refuse_find_class
        return {}

    return {
        "pickle": no_unpickling,
        "_pickle": no_unpickling,
        "pandas.io.pickle": {"read_pickle": _pdfagent_refusal("pd.read_pickle", pickle_why)},
        "numpy.lib._format_impl": _pdfagent_pin_read_array,
        "numpy.lib._npyio_impl": _pdfagent_pin_load,
        "pandas.compat.pickle_compat": pandas_unpickler,
    }


def _pdfagent_numpy_pickle_hint():
    return (
        "the file holds pickled Python objects, which PDFAgent never loads (allow_pickle "
        "stays off: a pickle can run any code): save plain arrays (.npy/.npz without "
        "objects), .csv or .json"
    )


def _pdfagent_pin_read_array(module):
    """numpy.lib.format.read_array (which NpzFile calls) with allow_pickle pinned off: no
    keyword, functools.partial or computed name can turn it on."""
    orig = module.read_array
    hint = _pdfagent_numpy_pickle_hint()

    # A closure: the code calls it in read_array's place, and it calls the original.
    def read_array(fp, allow_pickle=False, pickle_kwargs=None, **kwargs):
        try:
            return orig(fp, False, None, **kwargs)
        except ValueError as exc:
            if "allow_pickle" in str(exc):
                raise ValueError(hint) from None
            raise

    read_array.__doc__ = orig.__doc__
    return {"read_array": read_array}


def _pdfagent_pin_load(module):
    """np.load with allow_pickle pinned off."""
    orig = module.load
    hint = _pdfagent_numpy_pickle_hint()

    # A closure: the code calls it as np.load, and it calls the original.
    def load(file, mmap_mode=None, allow_pickle=False, fix_imports=True,
             encoding="ASCII", **kwargs):
        try:
            return orig(file, mmap_mode, False, fix_imports, encoding, **kwargs)
        except ValueError as exc:
            if "allow_pickle" in str(exc) or "pickled" in str(exc):
                raise ValueError(hint) from None
            raise

    load.__doc__ = orig.__doc__
    return {"load": load}


def _pdfagent_harden_datasets(dataset_file):
    """seaborn's example datasets: NAME.csv from the data folder, never the network."""
    datasets_why = (
        "seaborn's list of example datasets is on the internet and figure code runs "
        "offline: sns.load_dataset('NAME') reads NAME.csv from the data folder (listdir() "
        "shows what is there)"
    )
    return {
        "seaborn.utils": lambda module: {
            **_pdfagent_seaborn_datasets(module, dataset_file),
            "get_dataset_names": _pdfagent_refusal("seaborn.get_dataset_names", datasets_why),
        },
        "seaborn.miscplot": {"dogplot": _pdfagent_refusal("seaborn.dogplot", datasets_why)},
    }


def _pdfagent_seaborn_datasets(module, dataset_file):
    """seaborn's load_dataset and get_data_home on the data folder (closures: the code
    calls them, and they hold the data folder's `dataset_file` and the original)."""
    from os.path import isfile

    original = module.load_dataset

    def get_data_home(data_home=None):
        # seaborn's load_dataset asks this for its cache folder: the data folder only.
        folder, _ = dataset_file("")
        if data_home is not None and data_home != folder:
            raise PermissionError(
                "seaborn.get_data_home: figure code reads data from the data folder "
                "only; leave out data_home"
            )
        return folder

    def load_dataset(name, cache=True, data_home=None, **kws):
        if type(name) is not str:
            raise TypeError(
                f"sns.load_dataset({name!r}): give the data set's name as text, e.g. "
                "sns.load_dataset('tips'), which reads tips.csv from the data folder"
            )
        if cache is not True or data_home is not None:
            raise PermissionError(
                "sns.load_dataset reads NAME.csv from the data folder and nowhere else: "
                "leave out cache= and data_home="
            )
        plain = (name and ".." not in name
                 and not any(c in "/\\:\0" or not c.isprintable() for c in name))
        if not plain:
            raise PermissionError(
                f"sns.load_dataset({name!r}): a data set is named by its file name "
                "alone (no folder, '..', drive or URL), e.g. sns.load_dataset('tips') "
                "for tips.csv in the data folder"
            )
        file_name = name + ".csv"
        folder, path = dataset_file(file_name)
        if not isfile(path):
            raise FileNotFoundError(
                f"sns.load_dataset({name!r}) reads {file_name} from the data folder and "
                f"there is no {file_name} there: put {file_name} into the data folder "
                "(figure code runs offline and never downloads data sets)"
            )
        return original(name, True, folder, **kws)

    load_dataset.__doc__ = original.__doc__
    return {"load_dataset": load_dataset, "get_data_home": get_data_home}


def _pdfagent_harden_backends():
    """Backends: matplotlib's backend registry and its table of canvas classes import only
    matplotlib's own backends; pandas' plotting backend loads matplotlib's only, whatever
    option, keyword or computed key names another."""
    return {
        "matplotlib.backends.registry": _pdfagent_backend_registry,
        "matplotlib.backend_bases": _pdfagent_canvas_classes,
        "pandas.plotting._core": _pdfagent_pandas_plot_backend,
    }


def _pdfagent_backend_registry(module):
    import importlib

    cls = module.BackendRegistry
    import_module = importlib.import_module
    builtin = {name.lower() for name in module.backend_registry.list_builtin()}

    # A closure: matplotlib calls it as a method, and it holds the built-in backends' names.
    def load_backend_module(self, backend):
        # matplotlib's own backend modules only (PdfPages and savefig(backend='pdf')
        # load them by name); never `module://...`, an entry point or any other name.
        name = backend.lower() if type(backend) is str else None
        if name in builtin:
            return import_module(f"matplotlib.backends.backend_{name}")
        raise PermissionError(
            f"loading the matplotlib backend {backend!r} is not available in figure "
            "code: PDFAgent draws with Agg, so leave the backend as it is"
        )

    cls.load_backend_module = load_backend_module
    return {}


def _pdfagent_canvas_classes(module):
    import importlib

    table = module._default_backends
    trusted = {v for v in table.values() if type(v) is str and v.startswith("matplotlib.backends.")}
    import_module = importlib.import_module

    # A closure: the code can call it, and it holds the table and its trusted modules.
    def get_registered_canvas_class(format):
        backend = table.get(format)
        if backend is None or not isinstance(backend, str):
            return backend
        if type(backend) is not str or backend not in trusted:
            raise PermissionError(
                f"saving as {format!r} through the module {backend!r} is not available "
                "in figure code: PDFAgent saves figures as PNG, SVG, PDF or JPEG"
            )
        canvas = import_module(backend).FigureCanvas
        table[format] = canvas
        return canvas

    return {"get_registered_canvas_class": get_registered_canvas_class}


def _pdfagent_pandas_plot_backend(module):
    # set_option('plotting.backend', NAME), option_context with a computed key and
    # df.plot(backend=NAME) all reach this loader, which imports the module NAME.
    original = module._load_backend
    backend_why = (
        "pandas draws with matplotlib in PDFAgent: leave plotting.backend and backend= "
        "alone (any other name is a module pandas would import)"
    )

    # A closure: pandas calls it in the original's place, and it calls the original.
    def _load_backend(backend):
        if type(backend) is str and backend == "matplotlib":
            return original("matplotlib")
        raise PermissionError(f"the pandas plotting backend {backend!r} is not available "
                              f"in figure code: {backend_why}")

    return {"_load_backend": _load_backend}


def _pdfagent_harden_usetex():
    """LaTeX: matplotlib's TexManager (text.usetex) never runs."""
    tex_why = (
        "PDFAgent draws text with matplotlib's own mathtext and never runs LaTeX: leave "
        "text.usetex off and write math as '$x^2$'"
    )

    def no_tex(module):
        cls = module.TexManager
        for name in ("make_tex", "make_dvi", "make_png", "get_grey", "get_rgba",
                     "get_text_width_height_descent", "_run_checked_subprocess"):
            if name in vars(cls):
                setattr(cls, name, classmethod(_pdfagent_refusal(f"TexManager.{name}", tex_why)))
        return {}

    return {"matplotlib.texmanager": no_tex}


def _pdfagent_harden_registries():
    """Registries (issue 40): tables that map names to modules or callables, which a
    library imports or calls by name, are read-only (PIL.features' `features`, `modules`,
    `codecs`; matplotlib's `RcParams.validate`; scipy's lazy `submodules`); np.info imports
    no `toplevel`; string.Formatter (matplotlib.ticker holds `string`) walks no private
    attribute."""
    from types import MappingProxyType

    def read_only_tables(*names):
        def freeze_tables(module):
            return {n: MappingProxyType(dict(vars(module)[n])) for n in names
                    if isinstance(vars(module).get(n), dict)}
        return freeze_tables

    def matplotlib_validators(module):
        # rcParams validates every key through RcParams.validate; a writable table would
        # let code swap a validator (`plt.rcParams.validate['backend'] = str`).
        cls = module.RcParams
        if isinstance(vars(cls).get("validate"), dict):
            cls.validate = MappingProxyType(dict(cls.validate))
        return {}

    return {
        "PIL.features": read_only_tables("features", "modules", "codecs"),
        "matplotlib": matplotlib_validators,
        "numpy.lib._utils_impl": _pdfagent_numpy_info,
        "string": _pdfagent_string_formatter,
        # scipy's lazy __getattr__ imports `scipy.NAME` for every NAME in this list.
        "scipy": lambda module: {"submodules": tuple(module.submodules)},
    }


def _pdfagent_numpy_info(module):
    original = module.info

    # A closure: the code calls it as np.info, and it calls the original.
    def info(object=None, maxwidth=76, output=None, toplevel="numpy"):
        # np.info(x, toplevel=NAME) imports the module NAME; only numpy's own.
        if type(toplevel) is not str or toplevel != "numpy":
            raise PermissionError(
                "np.info: toplevel= names a module numpy would import; leave it out")
        return original(object, maxwidth, output, "numpy")

    info.__doc__ = original.__doc__
    return {"info": info}


def _pdfagent_string_formatter(module):
    # string.Formatter().get_field('0.__globals__[sys]', ...) walks any attribute of
    # any object (matplotlib.ticker holds `string`); private and dunder names refused.
    from _string import formatter_field_name_split

    # A closure: the code's format strings call it, and it holds the field splitter.
    def get_field(self, field_name, args, kwargs):
        first, rest = formatter_field_name_split(field_name)
        obj = self.get_value(first, args, kwargs)
        for is_attr, name in rest:
            if is_attr:
                if name.startswith("_"):
                    raise PermissionError(
                        f"format field {field_name!r} reaches the private attribute "
                        f"{name!r}: format values, not their internals")
                obj = getattr(obj, name)
            else:
                obj = obj[name]
        return obj, first

    module.Formatter.get_field = get_field
    return {}


def _pdfagent_harden_after(first, second):
    """A table entry that applies `first`, then `second` on the module as `first` left it
    (a reader's path redirect in front of a pinned reader)."""

    def both(module):
        new = first(module) if callable(first) else dict(first)
        view = type("View", (), {})()
        view.__dict__.update(vars(module))
        view.__dict__.update(new)
        new.update(second(view))
        return new

    return both


def _pdfagent_harden_read_only(table):
    """Modules read-only to the code: returns `(freeze_if_frozen(module), freeze_modules())`.

    Layer 1 refuses `os.path.commonpath = ...`, `np.load = ...`; here the modules the
    worker's own helpers and checks compute with (and every module `table` patches) refuse
    it too, so a route the checker misses cannot change what srcpath() or the capture
    decide, nor undo a refusal. Only the import system may still bind a submodule."""
    import sys
    import types

    module_type = types.ModuleType
    modules = sys.modules

    # A class of the stage: its methods run when anything sets a module's attribute, and
    # they hold sys.modules as it was bound here.
    class ReadOnlyModule(module_type):
        def __setattr__(self, name, value):
            if isinstance(value, module_type) and modules.get(f"{self.__name__}.{name}") is value:
                return module_type.__setattr__(self, name, value)
            read_only(self, name)

        def __delattr__(self, name):
            read_only(self, name)

    def read_only(module, name):
        raise AttributeError(
            f"{module.__name__}.{name} cannot be changed: modules are read-only in figure "
            "code; define a function of your own under another name instead"
        )

    read_only_names = {
        "os", "posixpath", "ntpath", "genericpath", "stat", "io", "json", "math",
        "numpy", "numpy.lib.format", "numpy.lib._format_impl", "numpy.lib._npyio_impl",
        "matplotlib", "matplotlib.pyplot", "matplotlib.style", "matplotlib.image",
        "matplotlib.figure", "matplotlib.backend_bases", "matplotlib.backends.registry",
        "matplotlib.texmanager", "matplotlib._pylab_helpers", "pandas",
        *table,
    }
    frozen = {"on": False}

    def freeze(module):
        if type(module) is module_type:
            module.__class__ = ReadOnlyModule

    def freeze_if_frozen(module):
        if frozen["on"]:
            freeze(module)

    def freeze_modules():
        """Called once the worker has patched what it patches, before the code runs."""
        frozen["on"] = True
        for name in read_only_names:
            module = modules.get(name)
            if module is not None:
                freeze(module)

    return freeze_if_frozen, freeze_modules


def _pdfagent_harden_patch_imported(table, freeze_if_frozen):
    """Apply `table` to every module already imported; return `patch(name, module)`, which
    applies (and removes) its row for a module whose import has just finished. Every other
    module that imported an original before it was replaced gets the replacement too."""
    import sys

    # original object (by id) -> (original, replacement)
    replaced = {}

    def patch(name, module):
        entry = table.pop(name, None)
        if entry is None:
            return
        new = entry(module) if callable(entry) else entry
        for attr, value in new.items():
            old = vars(module).get(attr)
            if old is not None:
                replaced[id(old)] = (old, value)
            setattr(module, attr, value)
        freeze_if_frozen(module)

    def sweep(modules):
        originals = replaced.keys()
        for module in modules:
            try:
                namespace = vars(module)
            except TypeError:
                continue
            # Most modules hold none of them: one pass in C says so (≈ 1 ms for ~800
            # modules, measured; the loop below for every module would be ≈ 8 ms).
            if originals.isdisjoint(map(id, namespace.values())):
                continue
            for attr, value in list(namespace.items()):
                hit = replaced.get(id(value))
                if hit is not None and hit[0] is value:
                    namespace[attr] = hit[1]

    for name in list(table):
        module = sys.modules.get(name)
        if module is not None:
            patch(name, module)
    if replaced:
        sweep(list(sys.modules.values()))
    return patch


def _pdfagent_import_finder(wants, then):
    """The hardening's finder for the front of sys.meta_path: for a module `wants(name)`
    says yes to, the spec the finders after it give, its import finishing with
    `then(name, module)` (`_pdfagent_spec_then`); None for any other name, so the next
    finder looks."""

    class Finder:
        @staticmethod
        def find_spec(name, path=None, target=None):
            if not wants(name):
                return None
            return _pdfagent_spec_then(Finder, name, path, target, then)

        @staticmethod
        def invalidate_caches():
            pass

    return Finder


def _pdfagent_loader_then(real, name, then):
    """`real`, a module's loader, with `then(name, module)` after its `exec_module`."""

    class Loader:
        def create_module(self, spec):
            return real.create_module(spec)

        def exec_module(self, module):
            # The module keeps its own loader (resources, source lookups); only the end of
            # its execution passes here.
            module.__loader__ = real
            if module.__spec__ is not None:
                module.__spec__.loader = real
            real.exec_module(module)
            then(name, module)

        def __getattr__(self, attr):
            return getattr(real, attr)

    return Loader()


def _pdfagent_spec_then(skip, name, path, target, then, *, _loader_then=_pdfagent_loader_then):
    """The spec of `name` the finders on sys.meta_path other than `skip` give, with a
    loader that runs `then(name, module)` as the module's import finishes (the module keeps
    its own loader); None when none finds it. Shared by the hardening's finder and the
    guard's (guard.py), which each decide first which names are theirs. The loader maker is
    bound when this is defined, so a finder never looks a name up in the worker script's
    globals while the code runs."""
    import sys

    for finder in sys.meta_path:
        if finder is skip:
            continue
        find = getattr(finder, "find_spec", None)
        spec = find(name, path, target) if find is not None else None
        if spec is not None:
            break
    else:
        return None
    if spec.loader is not None and hasattr(spec.loader, "exec_module"):
        spec.loader = _loader_then(spec.loader, name, then)
    return spec


def _pdfagent_private_path():
    """A private copy of os.path for the worker's own checks (srcpath(), the capture).

    Binding `os.path.realpath` once is not enough: realpath calls join, islink, os.lstat
    and stat.S_ISLNK by their module-level names at every call, so a module dict written
    past the read-only modules (`vars(os.path)['isabs'] = ...`) would still change what it
    computes. Here every os.path function is rebuilt on a snapshot of its module's names,
    with os, stat and genericpath as snapshots too: nothing the code can reach changes what
    these compute."""
    import genericpath
    import os
    import stat
    import types

    path = os.path

    def snapshot(module):
        return types.SimpleNamespace(**vars(module))

    names = dict(vars(path))
    names.update(os=snapshot(os), stat=snapshot(stat), genericpath=snapshot(genericpath))
    owners = (vars(path), vars(genericpath))
    for name, value in list(names.items()):
        if isinstance(value, types.FunctionType) and any(value.__globals__ is o for o in owners):
            copy = types.FunctionType(
                value.__code__, names, value.__name__, value.__defaults__, value.__closure__
            )
            copy.__kwdefaults__ = value.__kwdefaults__
            names[name] = copy
    return types.SimpleNamespace(**names)
