# The reachability walker: runs INSIDE the worker (scripts/audit-reach hands it to the real
# executable as figure code with Layer 1 bypassed, through `pdfagent internal-prepare-run`),
# so it sees exactly the interpreter, the libraries and the preamble's changes that figure
# code sees. It only reads: Layer 2 confines it like any figure.
#
# It imports every allowlisted module and their public submodules, walks the public attribute
# graph with inspect.getattr_static (no property, lazy import or __getattr__ runs), and
# prints one JSON document between two marker lines: every callable reached, with the paths
# code can write to reach it and what it can do (capabilities), found by
#   * a table of known dangerous callables, compared by identity (builtins.eval, os.system,
#     importlib.import_module, time.clock_settime, ...), and of dangerous C-function names;
#   * scanning Python functions' byte code (names loaded, attributes, IMPORT_NAME), followed
#     transitively through the functions and methods they call (REACH_CALL_DEPTH levels).
# C functions cannot be scanned: each is listed as such, with the capability its name shows.
#
# The orchestrator (audit.py) prepends REACH_MODULES (the allowlist's [[module]] names) and
# REACH_BLOCKED_SUBMODULES; the preamble's names (np, plt, loadmat, srcpath, ...) are this
# script's own globals, as for any figure code.

import builtins
import contextlib
import dis
import importlib
import inspect
import json
import pkgutil
import sys
import types

REACH_MODULES = globals().get("REACH_MODULES", [])
# The allowlist's reviewed private names (`g._legend`): Layer 1 accepts them on any object, so
# the walk follows them like public names and lists every class that has them.
REACH_PRIVATE_NAMES = globals().get("REACH_PRIVATE_NAMES", [])
PREAMBLE_NAMES = ["np", "plt", "loadmat", "srcpath", "listdir", "walkfiles", "load"]
# Hops after the last module: module -> attr -> class attr -> one more (a class found at
# hop 0 walks its attributes at 1 and theirs at 2).
MAX_HOPS = 2
# Levels of callees followed from a scanned function.
REACH_CALL_DEPTH = 4
# Paths kept per object (each one is checked by Layer 1 separately).
MAX_PATHS = 6
WORKER_SCRIPT = getattr(sys.modules.get("__main__"), "__file__", None)

# Modules whose callables are capabilities, by the module's name (top-level or dotted).
CAP_MODULES = {
    "subprocess": "process", "multiprocessing": "process", "pty": "process",
    "webbrowser": "process", "_posixsubprocess": "process", "asyncio": "process",
    "socket": "network", "_socket": "network", "urllib.request": "network",
    "http.client": "network", "http.server": "network", "ftplib": "network", "ssl": "network",
    "smtplib": "network", "requests": "network",
    "importlib": "import", "importlib.util": "import", "importlib.metadata": "import",
    "pkgutil": "import", "runpy": "import",
    "zipimport": "import", "_imp": "import",
    "pickle": "eval", "_pickle": "eval", "marshal": "eval", "shelve": "eval", "code": "eval",
    "codeop": "eval", "dill": "eval", "cloudpickle": "eval",
    "shutil": "file-write", "tempfile": "file-write", "mmap": "file-write",
    "ctypes": "system", "_ctypes": "system", "signal": "system", "_signal": "system",
    "threading": "system", "_thread": "system", "resource": "system", "faulthandler": "system",
    "gc": "system", "sys": "system",
}
# Of these modules only these names count (the rest are locks, identifiers, constants).
CAP_MODULE_ONLY = {
    "threading": {"Thread", "Timer", "settrace", "setprofile", "excepthook"},
    "_thread": {"start_new_thread", "start_new", "interrupt_main"},
    "gc": {"get_objects", "get_referrers", "get_referents"},
    "sys": {"settrace", "setprofile", "addaudithook", "setrecursionlimit", "setswitchinterval",
            "set_int_max_str_digits", "setdlopenflags", "call_tracing"},
    "importlib.metadata": {"entry_points", "EntryPoint"},
}
HARMLESS_IN_CAP_MODULES = {
    "shutil": {"get_terminal_size", "which"},
    "pickle": {"PickleError", "PicklingError", "UnpicklingError"},
}
# Attributes of os/posix by capability (through any alias of the module).
OS_CAPS = {
    "process": """system popen fork forkpty execl execle execlp execlpe execv execve execvp
        execvpe spawnl spawnle spawnlp spawnlpe spawnv spawnve spawnvp spawnvpe posix_spawn
        posix_spawnp startfile kill killpg""",
    "file-write": """remove unlink rmdir removedirs rename renames replace mkdir makedirs
        chmod lchmod fchmod chown lchown fchown symlink link truncate ftruncate mkfifo mknod
        utime write pwrite writev sendfile""",
    "file-read": """open fdopen listdir scandir walk fwalk readlink""",
    "system": """putenv unsetenv chdir fchdir chroot umask setuid setgid seteuid setegid
        setreuid setregid setgroups nice setpriority sched_setaffinity setsid setpgid abort
        _exit""",
}
# Builtins by capability (when a function's global name resolves to them).
BUILTIN_CAPS = {
    "eval": "eval", "exec": "eval", "compile": "eval", "__import__": "import",
    "open": "file-read", "breakpoint": "eval",
}
# Words in a C callable's name that show a capability (C code cannot be scanned).
# Words that begin a `_`-separated part of a C callable's name and show a capability (C code
# cannot be scanned; `eval_legendre`-style special functions are excluded by name below).
C_NAME_CAPS = [
    ("import", "import"), ("eval", "eval"), ("exec", "eval"), ("compile", "eval"),
    ("pickle", "eval"), ("unpickle", "eval"), ("loads", "eval"),
    ("open", "file-read"), ("fromfile", "file-read"), ("load", "file-read"),
    ("tofile", "file-write"), ("save", "file-write"), ("write", "file-write"),
    ("dump", "file-write"), ("remove", "file-write"), ("unlink", "file-write"),
    ("rename", "file-write"), ("mkdir", "file-write"), ("chmod", "file-write"),
    ("system", "process"), ("spawn", "process"), ("fork", "process"), ("popen", "process"),
    ("kill", "process"), ("socket", "network"), ("connect", "network"),
    ("settime", "system"), ("setrlimit", "system"), ("prlimit", "system"),
    ("putenv", "system"), ("chdir", "system"), ("umask", "system"),
    ("settrace", "system"), ("setprofile", "system"), ("addaudithook", "system"),
    ("dlopen", "system"), ("library", "system"), ("setswitchinterval", "system"),
    ("setrecursionlimit", "system"), ("tzset", "system"),
]
# Of those, the words that also count as the beginning of a part (`writelines`, `loadtxt`).
C_NAME_PREFIXES = {"write", "load", "dump", "open", "unlink", "exec", "import", "pickle",
                   "unpickle", "fromfile", "tofile", "popen", "dlopen"}
# Names the scan does not resolve as callees (they are everywhere and say nothing).
IGNORED_GLOBALS = {"self", "cls", "super", "isinstance", "len", "print", "range"}
# Plain-data and builtin container types: their methods are any literal's, not a library's.
BUILTIN_TYPES = (str, bytes, bytearray, int, float, complex, bool, type(None), tuple, list,
                 dict, set, frozenset)
C_CALLABLE_TYPES = (types.BuiltinFunctionType, types.MethodDescriptorType,
                    types.ClassMethodDescriptorType, types.WrapperDescriptorType,
                    types.MethodWrapperType)


def import_everything():
    """Import every allowlisted module and every public submodule under it, as code may."""
    failed = {}
    for top in REACH_MODULES:
        try:
            mod = importlib.import_module(top)
        except Exception as exc:  # noqa: BLE001 - a missing module is reported, not fatal
            failed[top] = repr(exc)
            continue
        paths = getattr(mod, "__path__", None)
        if not paths:
            continue
        import_submodules(paths, top + ".", failed)
    return failed


def import_submodules(paths, prefix, failed):
    """pkgutil.walk_packages by hand: the worker's hardening refuses walk_packages (it
    imports by name), while iter_modules only lists."""
    for info in sorted(pkgutil.iter_modules(paths, prefix), key=lambda i: i.name):
        parts = info.name.split(".")
        if any(p.startswith("_") for p in parts) or "tests" in parts:
            continue
        try:
            mod = importlib.import_module(info.name)
        except BaseException as exc:  # noqa: BLE001 - optional backends fail to import
            failed[info.name] = type(exc).__name__
            continue
        if info.ispkg:
            import_submodules(getattr(mod, "__path__", []), info.name + ".", failed)


def canonical(obj):
    """`module.qualname` of a function, class or C callable; None when it has none."""
    if isinstance(obj, types.ModuleType):
        return obj.__name__
    if isinstance(obj, (types.MethodDescriptorType, types.ClassMethodDescriptorType,
                        types.WrapperDescriptorType)):
        owner = obj.__objclass__
        return f"{owner.__module__}.{owner.__qualname__}.{obj.__name__}"
    qual = getattr(obj, "__qualname__", None)
    mod = getattr(obj, "__module__", None)
    if not isinstance(qual, str):
        return None
    if not isinstance(mod, str):
        self_ = getattr(obj, "__self__", None)
        if isinstance(self_, types.ModuleType):
            mod = self_.__name__
        elif self_ is not None:
            mod = type(self_).__module__
        else:
            mod = "?"
    return f"{mod}.{qual}"


def kind_of(obj):
    if isinstance(obj, types.ModuleType):
        return "module"
    if isinstance(obj, type):
        return "class" if getattr(obj, "__flags__", 0) & (1 << 9) else "c-class"
    if isinstance(obj, types.FunctionType):
        return "function"
    if isinstance(obj, C_CALLABLE_TYPES):
        return "c-function"
    tname = type(obj).__name__
    if tname == "ufunc":
        return "ufunc"
    if tname == "_ArrayFunctionDispatcher":
        return "function"
    if tname in ("cython_function_or_method", "fused_cython_function", "fortran"):
        return "c-function"
    if isinstance(obj, BUILTIN_TYPES):
        return "value"
    if callable(obj):
        return "callable-object"
    return "object"


def python_function(obj):
    """The Python function behind a callable (unwrapping dispatchers and decorators), or None."""
    for _ in range(5):
        if isinstance(obj, types.FunctionType):
            return obj
        if isinstance(obj, types.MethodType):
            obj = obj.__func__
            continue
        if isinstance(obj, (staticmethod, classmethod)):
            obj = obj.__func__
            continue
        wrapped = inspect.getattr_static(obj, "__wrapped__", None)
        if wrapped is None:
            wrapped = inspect.getattr_static(obj, "_implementation", None)
        if wrapped is None:
            return None
        obj = wrapped
    return None


def public_items(obj):
    """(name, value) of the public attributes code can write after `obj.`, read statically."""
    names = {}
    if isinstance(obj, types.ModuleType):
        for name, value in list(vars(obj).items()):
            if not name.startswith("_"):
                names[name] = value
        return names
    classes = obj.__mro__ if isinstance(obj, type) else type(obj).__mro__
    for klass in reversed(classes):
        if klass is object or klass.__module__ == "builtins":
            continue
        for name in list(vars(klass)):
            if not name.startswith("_") or name in REACH_PRIVATE_NAMES:
                with contextlib.suppress(AttributeError):
                    names[name] = inspect.getattr_static(obj, name)
    if not isinstance(obj, type):
        try:
            inst = object.__getattribute__(obj, "__dict__")
        except AttributeError:
            inst = {}
        if isinstance(inst, dict):
            for name, value in list(inst.items()):
                if isinstance(name, str) and not name.startswith("_"):
                    names[name] = value
    return names


def unwrap_descriptor(value):
    """What `C.name` hands code for a descriptor found in a class dict."""
    if isinstance(value, (staticmethod, classmethod)):
        return [value.__func__]
    if isinstance(value, property):
        return [f for f in (value.fget, value.fset, value.fdel) if f is not None]
    func = inspect.getattr_static(value, "func", None)
    if type(value).__name__ == "cached_property" and func is not None:
        return [func]
    accessor = inspect.getattr_static(value, "_accessor", None)
    if isinstance(accessor, type):  # pandas' df.plot / s.str / s.dt accessors
        return [accessor]
    return [value]


def walk():
    roots = []
    for name in PREAMBLE_NAMES:
        if name in globals():
            roots.append((name, globals()[name]))
    for name in REACH_MODULES:
        if name in sys.modules:
            roots.append((name, sys.modules[name]))
    nodes = {}  # key -> node dict
    order = []
    frontier = [(path, obj, 0, False) for path, obj in roots]
    while frontier:
        nxt = []
        for path, obj, hops, via_class in frontier:
            key = node_key(obj)
            node = nodes.get(key)
            if node is not None:
                if len(node["paths"]) < MAX_PATHS and path not in node["paths"]:
                    node["paths"].append(path)
                    if via_class:
                        node["class_paths"].append(path)
                continue
            kind = kind_of(obj)
            node = {"obj": obj, "kind": kind, "paths": [path],
                    "class_paths": [path] if via_class else []}
            nodes[key] = node
            order.append(key)
            if kind == "module":
                next_hops = 0
            elif kind in ("class", "c-class", "object", "callable-object"):
                next_hops = hops + 1
            else:
                continue
            if next_hops > MAX_HOPS:
                continue
            try:
                items = public_items(obj)
            except Exception:  # noqa: BLE001 - an odd object is a leaf
                continue
            from_class = kind != "module"
            for name in sorted(items):
                for value in unwrap_descriptor(items[name]):
                    if kind_of(value) == "value":
                        continue
                    nxt.append((f"{path}.{name}", value, next_hops, from_class))
        frontier = nxt
    return nodes, order


# --------------------------------------------------------------------------------------
# registries (issue 40): mutable containers that name modules or callables
# --------------------------------------------------------------------------------------

REGISTRY_SCAN = 5000  # items looked at per container
REGISTRY_EVIDENCE = 3  # examples kept per kind


def registry_hits(container):
    """What a container's values (dict values, elements; one level into tuples and lists)
    name: {"modules": [...], "module-names": [...], "callables": [...]}. Keys are names
    code chooses anyway; the values are what a library imports or calls by them."""
    values = container.values() if isinstance(container, (dict, types.MappingProxyType)) \
        else container
    hits = {}

    def note(kind, text):
        seen = hits.setdefault(kind, [])
        if len(seen) < REGISTRY_EVIDENCE and text not in seen:
            seen.append(text)

    def look(value, depth):
        if isinstance(value, types.ModuleType):
            note("modules", value.__name__)
        elif isinstance(value, str):
            if value.isascii() and value in sys.modules and "." not in value[:1]:
                note("module-names", value)
        elif isinstance(value, (tuple, list)) and depth == 0:
            for v in list(value)[:8]:
                look(v, 1)
        elif callable(value) and not isinstance(value, BUILTIN_TYPES):
            note("callables", canonical(value) or type(value).__name__)

    def stable_key(value):
        # Sets (and dicts filled from them at import) iterate in an order that changes from
        # run to run: the values are looked at in a sorted order, so the evidence the
        # snapshot records is the same every run.
        try:
            if isinstance(value, types.ModuleType):
                return "m:" + value.__name__
            if isinstance(value, str):
                return "s:" + value
            if callable(value):
                return "c:" + (canonical(value) or type(value).__name__)
            return "o:" + type(value).__name__
        except Exception:  # noqa: BLE001 - an odd value sorts last
            return "~"

    try:
        for n, value in enumerate(sorted(list(values), key=stable_key)):
            if n >= REGISTRY_SCAN:
                break
            look(value, 0)
    except Exception:  # noqa: BLE001, S110 - an odd container is no registry
        pass
    return hits


def registries(nodes, order):
    """Every container held by a module or class code reaches, under a public name, that is
    mutable (dict, list, set and their subclasses; a read-only mapping proxy is listed as
    such) and whose values name modules or callables."""
    rows = {}
    for key in order:
        node = nodes[key]
        if node["kind"] not in ("module", "class"):
            continue
        obj = node["obj"]
        # The library's own path (`matplotlib.cm`), not the preamble's name for it (`plt.cm`).
        base = next((p for p in node["paths"] if p.split(".")[0] not in PREAMBLE_NAMES),
                    node["paths"][0])
        try:
            namespace = dict(vars(obj))
        except TypeError:
            continue
        for name, value in namespace.items():
            if not isinstance(name, str) or name.startswith("_"):
                continue
            mutable = isinstance(value, (dict, list, set))
            if not mutable and not isinstance(value, types.MappingProxyType):
                continue
            ident = id(value)
            if ident in rows:
                continue
            hits = registry_hits(value)
            if not hits:
                continue
            rows[ident] = {
                "path": f"{base}.{name}",
                "type": type(value).__name__,
                "mutable": mutable,
                "size": len(value),
                "hits": hits,
            }
    return sorted(rows.values(), key=lambda r: r["path"])


def node_key(obj):
    if isinstance(obj, types.MethodType):
        return ("m", id(obj.__func__))
    if isinstance(obj, types.BuiltinMethodType) and not isinstance(
            getattr(obj, "__self__", None), types.ModuleType) and obj.__self__ is not None:
        return ("b", canonical(obj))
    return ("o", id(obj))


# --------------------------------------------------------------------------------------
# capabilities
# --------------------------------------------------------------------------------------

def danger_table():
    """Known dangerous callables, by identity: {id: (capability, name)}."""
    table = {}

    def add(cap, obj, where=""):
        if obj is None or (isinstance(obj, type) and issubclass(obj, BaseException)):
            return
        # ctypes' memmove/memset have no __qualname__: named by where they were found.
        table.setdefault(id(obj), (cap, canonical(obj) or where or type(obj).__name__))

    for name, cap in BUILTIN_CAPS.items():
        add(cap, getattr(builtins, name, None))
    import io
    import os
    import time
    for name in ("open", "open_code", "FileIO"):
        add("file-read", getattr(io, name, None))
    posix = sys.modules.get("posix") or sys.modules.get("nt")
    for cap, names in OS_CAPS.items():
        for name in names.split():
            add(cap, getattr(os, name, None))
            add(cap, getattr(posix, name, None))
    for name in ("clock_settime", "clock_settime_ns", "tzset"):
        add("system", getattr(time, name, None))
    for modname, cap in CAP_MODULES.items():
        mod = sys.modules.get(modname)
        if mod is None:
            continue
        only = CAP_MODULE_ONLY.get(modname)
        for name, value in list(vars(mod).items()):
            if name.startswith("__") or not callable(value) or isinstance(value, types.ModuleType):
                continue
            if only is not None and name not in only:
                continue
            if name in HARMLESS_IN_CAP_MODULES.get(modname, ()):
                continue
            # Its own callables, not what it imported from elsewhere (urllib.request's
            # urlparse is urllib.parse's): `_pickle` serves `pickle`, `_socket` `socket`.
            home = (getattr(value, "__module__", None) or modname).lstrip("_")
            own = modname.lstrip("_")
            if only is not None or home == own or home.startswith(own + "."):
                add(cap, value, f"{modname}.{name}")
    return table


def module_caps(name):
    """The capability a module of this dotted name gives when it cannot be resolved."""
    while name:
        if name in CAP_MODULES and name not in CAP_MODULE_ONLY:
            return CAP_MODULES[name]
        name = name.rpartition(".")[0]
    return None


def code_objects(code):
    yield code
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield from code_objects(const)


def static_attr(obj, attr):
    if isinstance(obj, types.ModuleType):
        return vars(obj).get(attr)
    try:
        return inspect.getattr_static(obj, attr)
    except Exception:  # noqa: BLE001 - an odd object: the chain stops
        return None


LOADS = {"LOAD_GLOBAL", "LOAD_NAME", "LOAD_DEREF", "LOAD_FAST", "LOAD_CLOSURE",
         "LOAD_CLASSDEREF"}
STORES = {"STORE_FAST", "STORE_NAME", "STORE_DEREF", "STORE_GLOBAL"}


class Scanner:
    """Byte-code scan of Python functions: what each does itself (its direct capabilities,
    which make it a "sink") and which functions it calls (followed transitively)."""

    def __init__(self, owners):
        self.table = danger_table()
        self.owners = owners  # id(function) -> the class it was found on (for self.x)
        self.direct = {}
        self.sinks = {}  # sink name -> {cap: [evidence]}

    def chains(self, func):
        """Every `root.attr.attr` the function's code loads: [(root, [attrs], label)]."""
        glb = func.__globals__
        closure = {}
        if func.__closure__:
            for var, cell in zip(func.__code__.co_freevars, func.__closure__, strict=False):
                with contextlib.suppress(ValueError):  # an empty cell
                    closure[var] = cell.cell_contents
        owner = self.owners.get(id(func))
        out, loose, unresolved_imports = [], set(), []
        for co in code_objects(func.__code__):
            local = {}
            last = None  # ("import", name) / ("from", obj)
            chain = None
            for ins in list(dis.get_instructions(co)) + [None]:
                op = ins.opname if ins is not None else "END"
                if op in ("LOAD_ATTR", "LOAD_METHOD") and chain is not None:
                    chain[1].append(ins.argval)
                    continue
                if op in ("LOAD_ATTR", "LOAD_METHOD"):
                    loose.add(ins.argval)
                    continue
                if chain is not None:
                    out.append(chain)
                    chain = None
                if op == "IMPORT_NAME":
                    name = ins.argval
                    if sys.modules.get(name) is None and module_caps(name):
                        unresolved_imports.append(name)
                    last = ("import", name)
                    continue
                if op == "IMPORT_FROM" and last is not None:
                    base = sys.modules.get(last[1]) if last[0] == "import" else last[2]
                    sub = sys.modules.get(f"{last[1]}.{ins.argval}")
                    value = sub if sub is not None else static_attr(base, ins.argval)
                    last = ("from", last[1], value)
                    continue
                if op in STORES and last is not None:
                    if last[0] == "import":
                        name = last[1]
                        mod = sys.modules.get(name if ins.argval == name.rpartition(".")[2]
                                              else name.split(".")[0])
                        local[ins.argval] = mod
                    else:
                        local[ins.argval] = last[2]
                    last = None
                    continue
                if op not in ("POP_TOP", "SWAP", "COPY"):
                    last = None if op != "IMPORT_FROM" else last
                if op in LOADS:
                    name = ins.argval
                    if name in local:
                        root = local[name]
                    elif op == "LOAD_FAST":
                        root = owner if name in ("self", "cls") else None
                    elif name in closure:
                        root = closure[name]
                    elif name in glb:
                        root = glb[name]
                    elif hasattr(builtins, name) and name not in IGNORED_GLOBALS:
                        root = getattr(builtins, name)
                    else:
                        root = None
                    chain = (root, [], name)
        return out, loose, unresolved_imports

    def scan(self, func):
        """(direct caps {cap: [evidence]}, callees [(function, owner)]) of one function."""
        key = id(func)
        if key in self.direct:
            return self.direct[key]
        caps, callees = {}, []
        self.direct[key] = (caps, callees)
        if not hasattr(func, "__code__"):
            return caps, callees
        chains, loose, unresolved = self.chains(func)
        for name in unresolved:
            caps.setdefault(module_caps(name), []).append(f"import {name}")
        classes = []
        for root, attrs, label in chains:
            obj, path = root, label
            if obj is None:
                loose.update(attrs)
                continue
            if not (label in ("self", "cls") and obj is self.owners.get(id(func))):
                self.consider(path, obj, caps, callees, classes, owner=None)
            for attr in attrs:
                if attr.startswith("__") and attr not in ("__init__", "__new__", "__call__"):
                    break
                nxt = static_attr(obj, attr)
                path = f"{path}.{attr}"
                if nxt is None:
                    loose.update(attrs)
                    break
                owner = obj if isinstance(obj, type) else None
                for v in unwrap_descriptor(nxt):
                    self.consider(path, v, caps, callees, classes, owner=owner)
                obj = nxt
        # `C(...).method()` and `x = C(); x.method()`: methods of the classes this function
        # names, by the attribute names it loads on receivers the scan cannot resolve.
        for klass in classes:
            for attr in sorted(loose):
                value = static_attr(klass, attr)
                if value is None:
                    continue
                for v in unwrap_descriptor(value):
                    f = python_function(v)
                    if f is not None:
                        callees.append((f, klass))
        if caps:
            entry = self.sinks.setdefault(fname(func), {})
            for cap, ev in caps.items():
                entry.setdefault(cap, sorted(set(ev))[:3])
        return caps, callees

    def consider(self, label, value, caps, callees, classes, owner):
        try:
            hit = self.table.get(id(value))
        except TypeError:
            hit = None
        if hit is not None:
            caps.setdefault(hit[0], []).append(f"{label} ({hit[1]})")
            return
        if isinstance(value, types.ModuleType):
            return
        if isinstance(value, type):
            if value.__module__ == "builtins" or issubclass(value, BaseException):
                return
            classes.append(value)
            for dunder in ("__init__", "__new__", "__post_init__"):
                f = python_function(static_attr(value, dunder))
                if f is not None:
                    callees.append((f, value))
            return
        func = python_function(value)
        if func is not None:
            callees.append((func, owner))

    def caps(self, func, depth=REACH_CALL_DEPTH):
        """{cap: (sorted sink names, one evidence chain)} of `func` and its callees."""
        found = {}
        seen = {id(func)}
        level = [(func, [])]
        for _ in range(depth + 1):
            nxt = []
            for f, chain in level:
                direct, callees = self.scan(f)
                here = chain + [fname(f)]
                for cap, ev in direct.items():
                    sinks, first = found.setdefault(cap, (set(), " -> ".join(here[1:] + [ev[0]])))
                    sinks.add(fname(f))
                for callee, owner in callees:
                    if id(callee) in seen:
                        continue
                    seen.add(id(callee))
                    if owner is not None:
                        self.owners.setdefault(id(callee), owner)
                    nxt.append((callee, here))
            level = nxt
        return {cap: (sorted(s), ev) for cap, (s, ev) in found.items()}


def fname(f):
    return f"{f.__module__}.{f.__qualname__}"


def c_name_caps(name):
    if name.startswith("eval_"):
        return []
    tokens = [t for t in name.lower().split("_") if t]
    return sorted({cap for word, cap in C_NAME_CAPS for t in tokens
                   if t == word or (t.startswith(word) and word in C_NAME_PREFIXES)})


def private_routes(nodes, order, scanner):
    """Private methods a subclass reaches (`self._x`, `super()._x`, `Base._x(self)`) that can
    do more than read files: each function once, under the first class the walk found it on
    (issue 28, route 1: ForwardRef._evaluate ran eval)."""
    seen = set()
    found = []
    for key in order:
        node = nodes[key]
        if node["kind"] != "class":
            continue
        cls = node["obj"]
        for klass in cls.__mro__:
            if klass.__module__ == "builtins":
                continue
            for attr in sorted(vars(klass)):
                if not attr.startswith("_") or attr.startswith("__"):
                    continue
                for v in unwrap_descriptor(vars(klass)[attr]):
                    f = python_function(v)
                    if f is None or id(f) in seen:
                        continue
                    seen.add(id(f))
                    scanner.owners.setdefault(id(f), cls)
                    caps = {c: v for c, v in scanner.caps(f).items() if c != "file-read"}
                    if caps:
                        found.append({
                            "name": fname(f), "class_path": node["paths"][0], "attr": attr,
                            "caps": {c: caps[c][1] for c in sorted(caps)},
                            "sinks": {c: caps[c][0] for c in sorted(caps)},
                        })
    found.sort(key=lambda r: (r["name"], r["class_path"]))
    return found


def reviewed_private_classes(nodes, order):
    """Every walked class that has a reviewed private name: in a class `__dict__` along its
    MRO, or stored as `self.NAME = ...` by one of its methods: [{name, class, how}]."""
    found = {}
    for key in order:
        node = nodes[key]
        if node["kind"] not in ("class", "c-class"):
            continue
        cls = node["obj"]
        for klass in getattr(cls, "__mro__", ()):
            if klass.__module__ == "builtins":
                continue
            for name in REACH_PRIVATE_NAMES:
                if name in vars(klass):
                    value = vars(klass)[name]
                    found[(name, canonical(klass))] = f"class attribute ({kind_of(value)})"
            for attr, value in list(vars(klass).items()):
                for v in unwrap_descriptor(value):
                    f = python_function(v)
                    if f is None:
                        continue
                    for co in code_objects(f.__code__):
                        stored = {ins.argval for ins in dis.get_instructions(co)
                                  if ins.opname == "STORE_ATTR"}
                        for name in REACH_PRIVATE_NAMES:
                            if name in stored:
                                how = f"instance attribute set by {klass.__qualname__}.{attr}"
                                found.setdefault((name, canonical(klass)), how)
    return [{"name": n, "class": c, "how": h} for (n, c), h in sorted(found.items())]


def main():
    failed = import_everything()
    nodes, order = walk()
    # Owners: the class each function was found on (for self.x resolution).
    owners = {}
    for key in order:
        node = nodes[key]
        if node["kind"] == "class":
            for klass in node["obj"].__mro__:
                if klass.__module__ == "builtins":
                    continue
                for value in list(vars(klass).values()):
                    for v in unwrap_descriptor(value):
                        f = python_function(v)
                        if f is not None:
                            owners.setdefault(id(f), node["obj"])
    scanner = Scanner(owners)
    table = scanner.table
    out = []
    counts = {}
    for key in order:
        node = nodes[key]
        obj, kind = node["obj"], node["kind"]
        counts[kind] = counts.get(kind, 0) + 1
        if kind in ("module", "value", "object", "ufunc"):
            continue
        name = canonical(obj) or node["paths"][0]
        caps = {}  # cap -> [sinks, evidence]
        preamble = False
        hit = table.get(id(obj))
        if hit is not None:
            caps[hit[0]] = [[name], f"known: {hit[1]}"]
        func = python_function(obj)
        if kind == "class":
            for dunder in ("__init__", "__new__", "__call__", "__post_init__"):
                f = python_function(vars(obj).get(dunder))
                if f is not None:
                    owners.setdefault(id(f), obj)
                    for cap, (sinks, ev) in scanner.caps(f).items():
                        entry = caps.setdefault(cap, [[], f"{dunder}: {ev}"])
                        entry[0] = sorted(set(entry[0]) | set(sinks))
        elif func is not None:
            code_file = func.__code__.co_filename
            if WORKER_SCRIPT and code_file == WORKER_SCRIPT:
                preamble = True
            for cap, (sinks, ev) in scanner.caps(func).items():
                entry = caps.setdefault(cap, [[], ev])
                entry[0] = sorted(set(entry[0]) | set(sinks))
        elif kind in ("c-function", "c-class") and hit is None:
            short = name.rpartition(".")[2]
            for cap in c_name_caps(short):
                caps.setdefault(cap, [[name], f"C name `{short}`"])
        out.append({
            "name": name,
            "kind": kind,
            "paths": node["paths"],
            "attr": node["paths"][0].rpartition(".")[2],
            # Reached as an attribute of a class or an instance: code holding an instance
            # reaches it as `obj.name`, whatever the receiver.
            "class_paths": node["class_paths"],
            "preamble": preamble,
            "caps": {k: caps[k][1] for k in sorted(caps)},
            "sinks": {k: caps[k][0] for k in sorted(caps)},
        })
    out.sort(key=lambda r: r["name"])
    private = private_routes(nodes, order, scanner)
    reviewed = reviewed_private_classes(nodes, order)
    found_registries = registries(nodes, order)
    print("PDFAGENT-REACH-BEGIN")
    print(json.dumps({"callables": out, "private": private, "counts": counts,
                      "registries": found_registries,
                      "reviewed_private": reviewed,
                      "import_failures": failed, "sinks": scanner.sinks,
                      "modules": REACH_MODULES}))
    print("PDFAGENT-REACH-END")


main()
