"""Regenerate library_classes.txt (the private names library classes carry),
library_modules.txt (every module path under the allowed modules, and public attributes that
are modules: `matplotlib.pyplot.np`) and library_star.txt (what `from M import *` binds for
every importable module M under the allowed modules: its `__all__`, or without one the
public names of its namespace, as Python's star import would; the checker drops the names
it refuses and runs the rest as an explicit import list) and library_values.txt (what a
public dotted path that is not its own module's name stands for: `M path module` for every
attribute whose value is a module, `matplotlib.cbook.types` -> `types`, and `O path
module.name` for every attribute whose value is a class or function defined in a module the
policy blocks by name, `matplotlib.Path` -> `pathlib.Path`; the checker refuses a path whose
value is a module or object that is not allowed, issue 40).

The checker lets a script's class use `self._x` / `super()._x` when the name cannot reach a
library's own private method, evaluator or class attribute. Whether it can is read from
library_classes.txt: `C key bases names...` gives the direct bases (comma-separated, `-` for
none but `object`) and the single-underscore names in the `__dict__` (and `__slots__`) of
every class that an allowed module, any of its importable public submodules, or the builtins
expose (found with `inspect.getattr_static`: no property or lazy import runs), and
`P path key` the class each public dotted path a script can write stands for
(`matplotlib.axes.Axes`, `int`).
Instance attributes that library code sets (`self._usetex` in `Text.__init__`) are in no
class `__dict__`: a script's class that assigns such a name first owns its value. Run it with the bundled
runtime's packages on the path, and review the diff:

    PYTHONPATH=python-runtime/dist/lib/python3.11/site-packages MPLBACKEND=agg \
        python3 python-runtime/src/check/library_privates.py
"""

import builtins
import importlib
import inspect
import pkgutil
import re
import sys
import tomllib
import types
import warnings
from pathlib import Path

POLICY = Path(__file__).resolve().parents[2] / "allowlist.toml"
OUT = Path(__file__).resolve().with_name("library_classes.txt")
MODULES_OUT = Path(__file__).resolve().with_name("library_modules.txt")
STAR_OUT = Path(__file__).resolve().with_name("library_star.txt")
VALUES_OUT = Path(__file__).resolve().with_name("library_values.txt")
SKIP_PARTS = ("tests", "testing", "conftest", "setup", "__main__")


def allowed_modules():
    policy = tomllib.loads(POLICY.read_text())
    blocked = [b["path"] for b in policy["blocked_submodule"]]
    return [m["name"] for m in policy["module"]], blocked


def importable(top, blocked):
    """The top-level module and every public submodule that imports cleanly."""
    mods = []
    try:
        root = importlib.import_module(top)
    except Exception:  # noqa: BLE001 - a module that does not import is no base
        return mods
    mods.append(root)
    path = getattr(root, "__path__", None)
    if not path:
        return mods
    for info in pkgutil.walk_packages(path, top + ".", onerror=lambda _: None):
        parts = info.name.split(".")
        if any(p.startswith("_") or p in SKIP_PARTS for p in parts[1:]):
            continue
        if any(info.name == b or info.name.startswith(b + ".") for b in blocked):
            continue
        try:
            mods.append(importlib.import_module(info.name))
        except Exception:  # noqa: BLE001, S112 - optional GUI/toolkit submodules
            continue
    return mods


def classes_of(obj, seen, depth=0):
    """Public classes reachable from a module or class (nested classes too)."""
    if depth > 3:
        return
    for name in dir(obj):
        if name.startswith("_"):
            continue
        try:
            value = inspect.getattr_static(obj, name)
        except Exception:  # noqa: BLE001, S112
            continue
        if isinstance(value, type) and id(value) not in seen:
            seen[id(value)] = value
            classes_of(value, seen, depth + 1)


def star_names(mod):
    """The names `from mod import *` binds, read without running any module `__getattr__`."""
    names = vars(mod).get("__all__")
    if isinstance(names, (list, tuple)) and all(isinstance(n, str) for n in names):
        return sorted(set(names))
    return sorted(n for n in vars(mod) if isinstance(n, str) and not n.startswith("_"))


def star_table(tops, blocked):
    """`S module names...` for every imported module under the allowed modules that code
    may import by that name (no `_` part, not blocked)."""
    lines = []
    for name, mod in sorted(sys.modules.items()):
        if not isinstance(mod, types.ModuleType) or name.split(".")[0] not in tops:
            continue
        parts = name.split(".")
        if any(p.startswith("_") or p in SKIP_PARTS for p in parts[1:]):
            continue
        if any(name == b or name.startswith(b + ".") for b in blocked):
            continue
        names = [n for n in star_names(mod) if n.isidentifier()]
        lines.append(f"S {name} {' '.join(names)}".rstrip())
    return lines


def blocked_names():
    policy = tomllib.loads(POLICY.read_text())
    return {b["name"] for b in policy["blocked_name"]}


def values_table(tops):
    """`M path module` and `O path module.name` (see the module docstring), for every public
    dotted path under an imported allowed module (no `_` part: what a script can write)."""
    blocked = blocked_names() - {"builtins"}
    lines = []
    for name, mod in sorted(sys.modules.items()):
        if not isinstance(mod, types.ModuleType) or name.split(".")[0] not in tops:
            continue
        if any(p.startswith("_") for p in name.split(".")[1:]):
            continue
        for attr in sorted(vars(mod)):
            if not isinstance(attr, str) or attr.startswith("_") or not attr.isidentifier():
                continue
            value = inspect.getattr_static(mod, attr, None)
            path = f"{name}.{attr}"
            if isinstance(value, types.ModuleType):
                real = getattr(value, "__name__", None)
                if isinstance(real, str) and real != path:
                    lines.append(f"M {path} {real}")
            elif isinstance(value, type) or callable(value):
                owner = getattr(value, "__module__", None)
                qual = getattr(value, "__qualname__", None)
                if (isinstance(owner, str) and isinstance(qual, str)
                        and owner.split(".")[0] in blocked):
                    lines.append(f"O {path} {owner}.{qual}")
    return lines


def key(klass):
    return f"{klass.__module__}.{klass.__qualname__}".replace(" ", "_")


def main():
    warnings.simplefilter("ignore")
    # As the worker does before pyplot is imported (preamble.py): pyplot's namespace depends
    # on it (without, its backend fallback leaves `available_backends` there), and what a
    # star import binds is read from that namespace.
    import matplotlib

    matplotlib.use("Agg")
    tops, blocked = allowed_modules()
    seen = {}
    modules = set()
    for top in tops:
        for mod in importable(top, blocked):
            classes_of(mod, seen)
    for name, mod in list(sys.modules.items()):
        if not isinstance(mod, types.ModuleType) or name.split(".")[0] not in tops:
            continue
        modules.add(name)
        # A module's public attributes that are modules (`matplotlib.pyplot.np`, `sns.mpl`).
        for attr in dir(mod):
            if not attr.startswith("_"):
                value = inspect.getattr_static(mod, attr, None)
                if isinstance(value, types.ModuleType):
                    modules.add(f"{name}.{attr}")
    classes_of(builtins, seen)
    for t in vars(types).values():
        if isinstance(t, type):
            seen[id(t)] = t
    public = {}
    for name, mod in list(sys.modules.items()):
        if not isinstance(mod, types.ModuleType) or name.split(".")[0] not in tops:
            continue
        for attr in dir(mod):
            value = inspect.getattr_static(mod, attr, None)
            if not attr.startswith("_") and isinstance(value, type):
                public[f"{name}.{attr}"] = value
    for attr in dir(builtins):
        value = getattr(builtins, attr)
        if isinstance(value, type):
            public[attr] = value
    single = re.compile(r"^_[A-Za-z0-9]")
    own, bases = {}, {}
    for cls in list(seen.values()) + list(public.values()):
        for klass in getattr(cls, "__mro__", (cls,)):
            if klass is object:
                continue
            names = list(getattr(klass, "__dict__", {})) + list(
                getattr(klass, "__slots__", ()) or ()
            )
            own[key(klass)] = sorted(
                {
                    n
                    for n in names
                    if isinstance(n, str) and single.match(n) and not n.startswith("__")
                }
            )
            bases[key(klass)] = [key(b) for b in klass.__bases__ if b is not object]
    lines = [
        f"# {len(own)} library classes and {len(public)} public paths; see library_privates.py"
    ]
    lines += [
        f"C {k} {','.join(bases[k]) or '-'} {' '.join(v)}".rstrip() for k, v in sorted(own.items())
    ]
    lines += [f"P {path} {key(cls)}" for path, cls in sorted(public.items()) if cls is not object]
    OUT.write_text("\n".join(lines) + "\n")
    print(lines[0], file=sys.stderr)
    header = f"# {len(modules)} module paths under the allowed modules; see library_privates.py"
    MODULES_OUT.write_text("\n".join([header, *sorted(modules)]) + "\n")
    print(header, file=sys.stderr)
    star = star_table(tops, blocked)
    star_header = f"# {len(star)} modules' star-import names; see library_privates.py"
    STAR_OUT.write_text("\n".join([star_header, *star]) + "\n")
    print(star_header, file=sys.stderr)
    values = values_table(tops)
    values_header = (f"# {len(values)} public paths whose value is another module or a blocked "
                     "module's object; see library_privates.py")
    VALUES_OUT.write_text("\n".join([values_header, *values]) + "\n")
    print(values_header, file=sys.stderr)


if __name__ == "__main__":
    main()
