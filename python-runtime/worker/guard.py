# PDFAgent run-time guard on the destinations (issue #40), pasted into the worker script
# after the capture (see pipeline/script.rs and README.md's paste order). Layer 1 (the
# checker) refuses roads; this refuses the few destinations every road leads to, where they
# are reached, whatever the road was: running text as code (exec/eval/compile), making code
# or function objects, importing modules by name, frames, ctypes, tracing, the collector's
# object lists, unpickling, sockets, programs, files outside the data folder, and pandas'
# expression evaluator fed anything but column arithmetic.
#
# It is a tripwire between the two walls, not a sandbox: it sees what CPython's audit events
# and the functions patched here see, and memory corruption (or a road to a C function that
# raises no event) passes it. The operating system's confinement (Layer 2) is the wall.
#
# How: one audit hook (sys.addaudithook: no code can remove it), installed unarmed before a
# fork server forks, armed by `arm()` right before the figure code runs (in a fork server:
# in each child). Armed, it decides each event by the innermost Python frame, the one that
# called the C function raising the event: figure code is every code object compiled from
# the file name "<code>"; a library's legitimate `exec`/`compile` is allowed only from code
# objects captured by identity here (namedtuple, ast.parse, the import machinery,
# dataclasses, typing's forward references), each with a check of what it runs. The hook
# keeps no state an event can change: a `sys.audit(...)` the code raises itself is decided
# like any other event, and can only be refused.


def _pdfagent_guard_install(src_real, handout_tops, recorded_modules):
    """Install the guard, unarmed; return `arm(namespace, run_dir, code)`, which arms it
    for good, lets `code` (the figure code, compiled) be run once, and gives the code's
    builtins (in `namespace`) an `__import__` that hands out only the allowed modules.

    `handout_tops`: the top-level modules the code may hold (the allowlist's and the
    runtime's own); `recorded_modules`: every module the allowed libraries import
    (guard_modules.txt): a module outside both is never imported once armed.

    The guard's state (armed, the refusals, the run allowed once, the roots, the table of
    checks, the caches) lives in closures made here and by the stages below, never in a
    global of the worker script nor in an object handed out: the hook is reachable from
    nowhere, the finder on sys.meta_path holds only closures. The stages are top-level
    functions that make those closures, and pure helpers that hold no state at all; each
    closure holds the helpers it calls bound at install time, never looked up in the
    script's globals while the code runs (code that reached those could swap a helper)."""
    import builtins
    import sys

    audit = sys.audit
    armed = [False]
    refusals = []
    first_run = [None]
    roots = []
    exec_why = "figure code may not run text as code; write the code out instead"
    refuse, refuse_import = _pdfagent_guard_refusers(refusals)
    import_allowed, import_checks = _pdfagent_guard_import_checks(
        refuse_import, handout_tops, recorded_modules)
    frame_checks, add_frame_exporters = _pdfagent_guard_frame_checks(refuse)
    checks, prefixed = _pdfagent_guard_checks(
        refuse,
        _pdfagent_guard_exec_check(refuse, refuse_import, import_allowed, first_run, exec_why),
        import_checks, frame_checks, _pdfagent_guard_open_check(refuse, roots))

    # --- imports: a finder first on sys.meta_path, and the import machinery's events -----
    # Bound now: the finder never looks a name up in the script's globals while the code runs.
    spec_then = _pdfagent_spec_then

    class GuardFinder:
        @staticmethod
        def find_spec(name, path=None, target=None):
            if armed[0] and type(name) is str and not import_allowed(name):
                refuse_import(name)
            if name != "pandas" or patched_pandas:
                return None
            # pandas' own loader, then the guard's patches of its evaluator once `import
            # pandas` has run (not before: a cold worker does not import pandas unless the
            # code does); the lookup is harden.py's, shared with the hardening's finder.
            return spec_then(GuardFinder, name, path, target, pandas_loaded)

        @staticmethod
        def invalidate_caches():
            pass

    add_frame_exporters()
    sys.addaudithook(_pdfagent_guard_hook(armed, checks, prefixed, refuse, exec_why))
    sys.meta_path.insert(0, GuardFinder)
    checks["pdfagent.guard.pandas"] = _pdfagent_guard_pandas_check(refuse, _pdfagent_guard_is_user)
    user_import = _pdfagent_guard_importers(audit, builtins)
    patched_pandas = []

    def pandas_loaded(name=None, module=None):
        if not patched_pandas:
            patched_pandas.append(_pdfagent_guard_pandas(audit))
            add_frame_exporters()

    if "pandas" in sys.modules:
        pandas_loaded()

    def arm(namespace, run_dir, code):
        """Arm the guard for good (there is no way back) and give the code's builtins the
        guarded `__import__`. Called right before the code runs; returns the list of
        refusals, which the manifest carries to the provenance record."""
        namespace["__builtins__"]["__import__"] = user_import
        roots[:] = _pdfagent_guard_open_roots(src_real, run_dir)
        first_run[0] = code
        armed[0] = True
        return refusals

    return arm


def _pdfagent_guard_is_user(code):
    """Whether `code` is the figure code's: every code object compiled from "<code>"."""
    return code.co_filename == "<code>"


def _pdfagent_guard_refusers(refusals):
    """`refuse(rule, what, why, error=, quiet=)` raises a refusal, said on stderr and
    recorded in `refusals`; `refuse_import(name, what=None)` refuses importing `name`."""
    import os
    import sys
    from importlib import _bootstrap_external

    write = os.write

    class GuardRefusal(PermissionError):
        """A destination refused by PDFAgent's run-time guard."""

    class GuardImportRefusal(ModuleNotFoundError):
        """An import refused by the guard: an ImportError, so a library probing for an
        optional module carries on without it."""

    def refuse(rule, what, why, error=GuardRefusal, quiet=False):
        message = f"PDFAgent refused {what}: {why} [{rule}]"
        if quiet:
            raise error(message)
        if len(refusals) < 32:
            refusals.append({"rule": rule, "what": what[:200]})
        try:
            write(2, f"pdfagent: guard: {message}\n".encode("utf-8", "replace"))
        except OSError:
            pass
        raise error(message)

    import_why = (
        "figure code may import only numpy, pandas, matplotlib, seaborn, scipy and the "
        "allowed standard modules, and the modules those import themselves"
    )
    path_finder = _bootstrap_external.PathFinder

    def refuse_import(name, what=None):
        """Refuse importing `name`; said on stderr and recorded only when such a module
        exists (a library probing for an optional one that is not shipped is no news)."""
        top = name.partition(".")[0]
        try:
            exists = top in sys.builtin_module_names or path_finder.find_spec(top) is not None
        except Exception:  # noqa: BLE001 - unknown: say so
            exists = True
        refuse("guard-import", what or f"import of {name!r}", import_why,
               error=GuardImportRefusal, quiet=not exists)

    return refuse, refuse_import


def _pdfagent_guard_import_checks(refuse_import, handout_tops, recorded_modules):
    """`import_allowed(name)`, and the hook's checks of imports: the import machinery's
    event, and the code's own `__import__` (whose functions handed out hold no state of the
    guard: each raises an event of its own and the hook, which no code can reach, decides;
    the code raising the same event with sys.audit can only be refused)."""
    shipped_tops = frozenset(n[:-2] for n in recorded_modules if n.endswith(".*"))

    def import_allowed(name):
        """Recorded, or under an allowed or shipped package, or a submodule of a recorded
        package (the standard library's packages load their parts lazily:
        `importlib.readers`)."""
        top = name.partition(".")[0]
        return (
            name in recorded_modules or top in handout_tops or top in shipped_tops
            or name.rpartition(".")[0] in recorded_modules
        )

    def check_import(event, args, frame):
        name = args[0] if args else None
        if type(name) is str and not import_allowed(name):
            refuse_import(name)

    def check_import_module(event, args, frame):
        name = args[0] if args else None
        if type(name) is not str or name.startswith("."):
            return
        top = name.partition(".")[0]
        if top not in handout_tops:
            refuse_import(name)

    checks = {"import": check_import, "pdfagent.guard.user_import": check_import_module}
    return import_allowed, checks


def _pdfagent_guard_exec_check(refuse, refuse_import, import_allowed, first_run, exec_why):
    """The hook's check of exec / eval / compile (both events): allowed only from code
    objects captured here by identity, each with a check of what it runs, and for the figure
    code itself once (`first_run`)."""
    import ast
    import builtins
    import collections
    import dataclasses
    import dis
    import keyword
    import sys
    import typing
    from importlib import _bootstrap, _bootstrap_external

    get_instructions, stack_effect = dis.get_instructions, dis.stack_effect
    isidentifier, iskeyword = str.isidentifier, keyword.iskeyword
    # --- exec / eval / compile: only from code objects captured here ---------------------
    namedtuple_code = collections.namedtuple.__code__
    ast_parse_code = ast.parse.__code__
    frames_removed_code = _bootstrap._call_with_frames_removed.__code__
    loader_exec_code = _bootstrap_external._LoaderBasics.exec_module.__code__
    source_to_code = _bootstrap_external.SourceLoader.source_to_code.__code__
    frozen_exec_code = _bootstrap.FrozenImporter.exec_module.__code__
    create_fn_code = dataclasses._create_fn.__code__
    process_class_code = dataclasses._process_class.__code__
    field_type = dataclasses.Field
    forward_init_code = typing.ForwardRef.__init__.__code__
    forward_eval_code = typing.ForwardRef._evaluate.__code__
    builtin_runners = {"exec": builtins.exec, "eval": builtins.eval, "compile": builtins.compile}

    def runners_intact(frame):
        """The library frame about to run text calls the real exec/eval/compile, by name,
        at the instruction running now: its module has not shadowed them, the builtins it
        sees are the real ones, and the call there is `exec(...)`/`eval(...)`/
        `compile(...)` written out. A function of a library module that the code swapped
        for a callable ending in exec (`vars(threading)['Lock'] = partial(exec, text)`: the
        guard sees no module attribute write) is called under its own name, so the frame
        calling it is no licence (issue #40 item 4)."""
        names, builtin_names = frame.f_globals, frame.f_builtins
        for name, real in builtin_runners.items():
            if name in names and names[name] is not real:
                return False
            if builtin_names.get(name) is not real:
                return False
        key = (frame.f_code, frame.f_lasti)
        known = call_sites.get(key)
        if known is None:
            known = call_sites[key] = calls_runner_by_name(
                *key, get_instructions, stack_effect)
        return known

    call_sites = {}  # (code, instruction offset) -> whether a runner is called there by name
    # Bound now, like the code objects above: the hook never looks a name up in the worker
    # script's globals at run time (code that reached them could swap one).
    is_user, importing = _pdfagent_guard_is_user, _pdfagent_guard_importing
    calls_runner_by_name = _pdfagent_guard_calls_runner_by_name
    module_being_loaded = _pdfagent_guard_module_being_loaded
    plain_fields, plain_annotation = _pdfagent_guard_plain_fields, _pdfagent_guard_plain_annotation
    plain_code = _pdfagent_guard_plain_code
    module_type = type(sys)
    spec_type = _bootstrap.ModuleSpec
    code_type = type(ast.parse.__code__)

    def check_run(event, args, frame):
        code = frame.f_code
        if event == "exec" and args and first_run[0] is not None and args[0] is first_run[0]:
            first_run[0] = None  # the figure code itself, run once by the preamble
            return
        what = "exec()/eval()" if event == "exec" else "compile()"
        if code is frames_removed_code:
            caller = frame.f_back
            caller_code = caller.f_code if caller is not None else None
            if event == "exec" and caller_code is loader_exec_code:
                name = module_being_loaded(caller, module_type, spec_type)
                if name is not None and not import_allowed(name):
                    refuse_import(name)
                return
            if event == "compile" and caller_code is source_to_code:
                return
        elif code is frozen_exec_code and event == "exec":
            return
        elif code is namedtuple_code or (code is ast_parse_code and event == "compile"):
            if runners_intact(frame):
                return
        elif code is create_fn_code:
            if runners_intact(frame) and (event == "exec" or plain_fields(
                    frame, process_class_code, field_type, isidentifier, iskeyword)):
                return
        elif code is forward_init_code and event == "compile":
            if runners_intact(frame) and args and plain_annotation(args[0], ast):
                return
        elif code is forward_eval_code and event == "exec":
            if runners_intact(frame) and args and plain_code(args[0], code_type):
                return
        elif not is_user(code) and importing(frame, loader_exec_code, is_user) and runners_intact(frame):
            return
        refuse("guard-exec", what, exec_why)

    return check_run


def _pdfagent_guard_calls_runner_by_name(code, offset, get_instructions, stack_effect):
    """Whether the call instruction at `offset` of `code` calls a callable loaded by the
    name exec, eval or compile: walking back from the call over its arguments' stack
    effect (CPython 3.11: PRECALL n, CALL n; the callable and a NULL slot below the n
    arguments) to the instruction that loaded the callable. Anything it cannot read is
    `False`."""
    name_loads = {"LOAD_GLOBAL", "LOAD_NAME"}
    try:
        instructions = list(get_instructions(code))
        at = next(n for n, i in enumerate(instructions) if i.offset == offset)
        call = instructions[at]
        # 3.11's specialised PRECALL calls a builtin itself: the frame stops there.
        if call.opname not in ("CALL", "PRECALL"):
            return False
        needed, depth, n = call.arg + 2, 0, at - 1
        while n >= 0 and instructions[n].opname in ("PRECALL", "KW_NAMES"):
            n -= 1
        while n >= 0:
            ins = instructions[n]
            if ins.opname.startswith(("JUMP", "POP_JUMP")):
                return False  # a branch inside the arguments: not read linearly
            depth += stack_effect(ins.opcode, ins.arg)
            if depth >= needed:
                break
            if ins.is_jump_target:
                return False
            n -= 1
        else:
            return False
        if depth != needed:
            return False
        if ins.opname == "LOAD_GLOBAL" and ins.arg & 1:
            loaded = ins  # NULL + the global
        elif ins.opname == "PUSH_NULL" and n + 1 < at:
            loaded = instructions[n + 1]
        else:
            return False
        return loaded.opname in name_loads and loaded.argval in ("exec", "eval", "compile")
    except Exception:  # noqa: BLE001 - unreadable code is no licence
        return False


def _pdfagent_guard_plain_annotation(text, ast):
    """A forward reference as libraries write them: names, dotted names, subscripts,
    constants and `|`; no call, no dunder, no private attribute."""
    if type(text) is bytes:
        text = text.decode("utf-8", "replace")
    if type(text) is not str or len(text) > 500:
        return False
    try:
        tree = ast.parse(text, mode="eval")
    except (SyntaxError, ValueError):
        return False
    for node in ast.walk(tree):
        kind = type(node)
        if kind is ast.Name:
            if node.id.startswith("__"):
                return False
        elif kind is ast.Attribute:
            if node.attr.startswith("_"):
                return False
        elif kind is ast.BinOp:
            if type(node.op) is not ast.BitOr:
                return False
        elif kind not in (
            ast.Expression, ast.Subscript, ast.Constant, ast.Tuple, ast.List,
            ast.Load, ast.BitOr,
        ):
            return False
    return True


def _pdfagent_guard_plain_fields(frame, process_class_code, field_type, isidentifier,
                                iskeyword):
    """The dataclass being made has only identifier field names: dataclasses writes
    them into the text it compiles."""
    for _ in range(6):
        frame = frame.f_back
        if frame is None:
            return False
        if frame.f_code is process_class_code:
            fields = frame.f_locals.get("fields")
            if type(fields) is not dict:
                return False
            for name, field in dict.items(fields):
                if type(name) is not str or type(field) is not field_type:
                    return False
                if field.name is not name or not isidentifier(name) or iskeyword(name):
                    return False
            return True
    return False


def _pdfagent_guard_module_being_loaded(frame, module_type, spec_type):
    """The name of the module an importlib `exec_module` frame is executing."""
    # Exact types only: nothing the code defined may run inside the hook.
    module = frame.f_locals.get("module")
    if not issubclass(type(module), module_type):
        return "(not a module)"
    spec = module.__dict__.get("__spec__")
    if type(spec) is not spec_type:
        return "(no module spec)"
    name = spec.name
    return name if type(name) is str else "(no module name)"


def _pdfagent_guard_importing(frame, loader_exec_code, is_user):
    """A library module's own import-time code (fontTools building its tables, scipy
    cloning a namespace, ...): a module body run by the import machinery is on the
    stack, with no frame of the figure code between it and `frame`."""
    depth = 0
    while frame is not None and depth < 200:
        code = frame.f_code
        if code is loader_exec_code:
            return True
        if is_user(code):
            return False
        frame = frame.f_back
        depth += 1
    return False


def _pdfagent_guard_plain_code(code, code_type):
    """A forward reference's compiled code: names only, no nested code, no dunder."""
    if type(code) is not code_type:
        return False
    consts, names = code.co_consts, code.co_names
    if any(type(c) is code_type for c in consts):
        return False
    return not any(type(n) is not str or n.startswith("__") for n in names)


def _pdfagent_guard_frame_checks(refuse):
    """The hook's checks of frames: libraries may read them, the code may not receive one;
    and `add_frame_exporters()`, which records the library functions that hand frames out
    (again once pandas is imported)."""
    import sys

    # Bound now, like the code objects above: the hook never looks a name up in the worker
    # script's globals at run time (code that reached them could swap one).
    is_user = _pdfagent_guard_is_user
    # --- frames: libraries may read them, the code may not receive one -------------------
    frames_why = "figure code may not hold interpreter frames (they reach every module)"
    frame_exporters = set()

    def add_frame_exporters():
        for owner, attr in (
            ("inspect", "currentframe"), ("inspect", "stack"), ("inspect", "getouterframes"),
            ("inspect", "trace"), ("traceback", "walk_stack"), ("traceback", "walk_tb"),
            ("pandas.core.computation.scope", "Scope.__init__"),
        ):
            found = sys.modules.get(owner)
            for part in attr.split("."):
                found = getattr(found, part, None)
            code = getattr(found, "__code__", None)
            if code is not None:
                frame_exporters.add(code)

    def check_getframe(event, args, frame):
        code = frame.f_code
        if is_user(code):
            refuse("guard-frame", "sys._getframe()", frames_why)
        if code in frame_exporters:
            caller = frame.f_back
            if caller is not None and is_user(caller.f_code):
                refuse("guard-frame", f"{code.co_qualname}()", frames_why)

    frame_attributes = {"tb_frame", "gi_frame", "cr_frame", "ag_frame", "f_code", "gi_code"}

    def check_getattr(event, args, frame):
        if len(args) < 2:
            return
        name = args[1]
        if name in frame_attributes and is_user(frame.f_code):
            refuse("guard-frame", f"reading .{name}", frames_why)

    checks = {
        "sys._getframe": check_getframe,
        "object.__getattr__": check_getattr,
        "sys._current_frames": _pdfagent_guard_refuse_always(
            refuse, "guard-frame", "sys._current_frames()", frames_why),
    }
    return checks, add_frame_exporters


def _pdfagent_guard_open_check(refuse, roots):
    """The hook's check of `open` by absolute path: the data folder, the run directory and
    the runtime (`roots`, filled when the guard is armed), and system data read-only."""
    import os
    import pathlib

    # Bound now, like the code objects above: the hook never looks a name up in the worker
    # script's globals at run time (code that reached them could swap one).
    reading = _pdfagent_guard_reading
    path_types = {pathlib.PosixPath, pathlib.PurePosixPath, pathlib.WindowsPath, pathlib.PureWindowsPath}
    open_why = "figure code may read only the data folder (and write figures)"
    # Read-only system data the libraries read: the time-zone database (zoneinfo, pandas'
    # dates), the CPU quota (pandas/compat/_cpu.py).
    system_reads = ("/usr/share/zoneinfo/", "/usr/lib/zoneinfo/", "/etc/localtime", "/sys/fs/cgroup/")

    def check_open(event, args, frame):
        path = args[0] if args else None
        kind = type(path)
        if path is None or kind is int:
            return
        # Exact types only: a path object's __fspath__ could be the code's, and nothing
        # the code defined may run inside the hook.
        if kind in path_types:
            path = str(path)
        elif kind is bytes:
            path = os.fsdecode(path)
        elif kind is not str:
            refuse("guard-open", f"opening a {kind.__name__} as a path", open_why)
        if not path.startswith("/"):
            return  # relative: inside the working directory (SRC), or refused by the OS
        if path.startswith(system_reads) and reading(args, os):
            return
        real = os.path.normpath(path)
        for root in roots:
            if real == root or real.startswith(root + "/"):
                return
        refuse("guard-open", f"opening {path!r}", open_why)

    return check_open


def _pdfagent_guard_reading(args, os):
    """Whether `open`'s arguments (path, mode, flags) open for reading only."""
    mode = args[1] if len(args) > 1 else "r"
    flags = args[2] if len(args) > 2 else 0
    if type(mode) is str:
        return not any(c in mode for c in "wax+")
    return type(flags) is int and flags & os.O_ACCMODE == os.O_RDONLY


def _pdfagent_guard_checks(refuse, check_run, import_checks, frame_checks, check_open):
    """The hook's table (event -> check(event, args, frame)) and the prefixes of the events
    refused outright ((prefix, rule, why))."""
    import sys
    from functools import partial
    from importlib import _bootstrap_external

    module_type = type(sys)
    refuse_always = partial(_pdfagent_guard_refuse_always, refuse)

    # --- code and function objects ------------------------------------------------------
    def check_new_code(event, args, frame):
        what = "making a code object" if event == "code.__new__" else "making a function"
        refuse("guard-code", f"{what} ({event})", "figure code may not build code at run time")

    # --- the rest: refused outright once armed -------------------------------------------
    native_why = "figure code may not call native code or read memory (ctypes)"
    program_why = "figure code may not start programs, signal processes or fork"

    def check_marshal(event, args, frame):
        if frame.f_code is not _bootstrap_external._compile_bytecode.__code__:
            refuse("guard-exec", event, "figure code may not load compiled code")

    def check_class_change(event, args, frame):
        # A module made read-only (harden.py) stays read-only: no `__class__` swap away
        # from it (making a plain module read-only, as harden.py does on import, passes).
        if len(args) >= 2 and args[1] == "__class__" and issubclass(type(args[0]), module_type):
            if type(args[0]) is not module_type:
                refuse("guard-modules", "changing a module's class", "modules are read-only")

    checks = {
        "exec": check_run,
        "compile": check_run,
        "open": check_open,
        "code.__new__": check_new_code,
        "function.__new__": check_new_code,
        "object.__setattr__": check_class_change,
        "sys.settrace": refuse_always("guard-trace", "sys.settrace()", "figure code may not trace"),
        "sys.setprofile": refuse_always("guard-trace", "sys.setprofile()", "figure code may not trace"),
        "sys.addaudithook": refuse_always("guard-hook", "sys.addaudithook()", "the guard's hook is the only one"),
        "gc.get_objects": refuse_always("guard-gc", None, "figure code may not list the interpreter's objects"),
        "gc.get_referrers": refuse_always("guard-gc", None, "figure code may not list the interpreter's objects"),
        "gc.get_referents": refuse_always("guard-gc", None, "figure code may not list the interpreter's objects"),
        "marshal.loads": check_marshal,
        "marshal.load": check_marshal,
        "pickle.find_class": refuse_always("guard-pickle", "unpickling", "PDFAgent never unpickles data"),
        "subprocess.Popen": refuse_always("guard-program", "subprocess.Popen", program_why),
        "os.system": refuse_always("guard-program", None, program_why),
        "os.exec": refuse_always("guard-program", None, program_why),
        "os.fork": refuse_always("guard-program", None, program_why),
        "os.forkpty": refuse_always("guard-program", None, program_why),
        "os.posix_spawn": refuse_always("guard-program", None, program_why),
        "os.spawn": refuse_always("guard-program", None, program_why),
        "os.kill": refuse_always("guard-program", None, program_why),
        "os.killpg": refuse_always("guard-program", None, program_why),
        "signal.pthread_kill": refuse_always("guard-program", None, program_why),
        "resource.setrlimit": refuse_always("guard-program", None, program_why),
        "resource.prlimit": refuse_always("guard-program", None, program_why),
        "os.chdir": refuse_always("guard-open", "os.chdir()", "figure code runs in the data folder"),
    }
    prefixed = (
        ("ctypes.", "guard-native", native_why),
        ("socket.", "guard-network", "figure code runs offline"),
        ("urllib.", "guard-network", "figure code runs offline"),
        ("webbrowser.", "guard-program", program_why),
        ("syslog.", "guard-program", program_why),
    )
    checks.update(import_checks)
    checks.update(frame_checks)
    return checks, prefixed


def _pdfagent_guard_refuse_always(refuse, rule, what, why):
    """A check that refuses its event outright."""

    def check(event, args, frame):
        refuse(rule, what or event, why)

    return check


def _pdfagent_guard_hook(armed, checks, prefixed, refuse, exec_why):
    """The one audit hook (sys.addaudithook: no code can remove it): nothing until armed,
    then each event decided by its check and the innermost Python frame."""
    import _thread
    import sys

    getframe, get_ident = sys._getframe, _thread.get_ident
    refuse_always = _pdfagent_guard_refuse_always  # bound now, as in the checks
    busy = set()  # threads inside the hook: its own events (sys._getframe, ast.parse) pass
    frameless_refused = {"exec", "compile", "code.__new__", "function.__new__", "import"}

    def hook(event, args):
        if not armed[0]:
            return
        check = checks.get(event)
        if check is None:
            for prefix, rule, why in prefixed:
                if event.startswith(prefix):
                    check = refuse_always(refuse, rule, None, why)
                    break
            else:
                return
        thread = get_ident()
        if thread in busy:
            return
        busy.add(thread)
        try:
            try:
                frame = getframe(1)
            except ValueError:
                # Called from C with no Python frame at all (an atexit callback, a
                # finalizer): nothing vouches for it.
                if event in frameless_refused:
                    refuse("guard-exec", f"{event} with no caller", exec_why)
                return
            check(event, args, frame)
        finally:
            busy.discard(thread)

    return hook


def _pdfagent_guard_importers(audit, builtins):
    """The code's own `__import__`, asking the guard's hook first. (Not a replacement of
    importlib.import_module for everyone: the reachability audit would no longer see the
    libraries' roads to it; a new module is refused by the finder and the import events
    whatever imports it.)"""
    import sys

    real_import = builtins.__import__
    loaded = sys.modules

    def user_import(name, globals=None, locals=None, fromlist=(), level=0):
        """The code's `import` statement: the allowed modules only."""
        # C code a library runs for the figure code (ndarray.tofile's PyImport_Import("os"))
        # finds this `__import__` in the calling frame's builtins and calls it with an empty
        # *list* as fromlist (an `import` statement passes None or a tuple): a module
        # already loaded is handed back to that C code, not refused. The code itself gains
        # nothing new this way: only a module already loaded, and the destinations it leads
        # to (programs, sockets, exec, ctypes, files) are refused by the hook all the same.
        if level == 0 and not (type(fromlist) is list and not fromlist and name in loaded):
            audit("pdfagent.guard.user_import", name)
        return real_import(name, globals, locals, fromlist, level)

    return user_import


def _pdfagent_guard_open_roots(src_real, run_dir):
    """Where the code may open files by absolute path: the data folder, the run directory,
    the runtime (the import path as it is when the guard is armed: the libraries' own
    data, fonts) and matplotlib's cache."""
    import os
    import sys

    import matplotlib

    roots = {src_real, run_dir, os.path.realpath(run_dir), sys.prefix, sys.exec_prefix,
             os.path.dirname(os.path.dirname(os.__file__ or "/nonexistent")),
             matplotlib.get_data_path(), os.devnull, *sys.path}
    for getter in ("get_cachedir", "get_configdir"):
        try:
            roots.add(getattr(matplotlib, getter)())
        except Exception:  # noqa: BLE001 - no cache folder is no root
            pass
    return tuple(os.path.normpath(r) for r in roots if isinstance(r, str) and r.startswith("/"))


def _pdfagent_guard_pandas(audit):
    """pandas' expression evaluator (pd.eval, DataFrame.eval/query, and the same reached
    by name through apply/agg/transform, computation.expr.Expr): every text it is handed
    passes the guard's hook first (_pdfagent_guard_pandas_check). Returns the functions
    installed."""
    import sys

    try:
        import pandas
        from pandas.core import frame as pd_frame
        from pandas.core.computation import eval as pd_eval
        from pandas.core.computation import expr as pd_expr
    except ImportError:
        return []

    scope_keywords = ("local_dict", "global_dict", "resolvers", "level")
    real_eval = pd_eval.eval

    def guarded_eval(expr, *args, **kwargs):
        audit("pdfagent.guard.pandas", "pandas.eval", expr, any(k in kwargs for k in scope_keywords))
        return real_eval(expr, *args, **kwargs)

    real_df_eval = pd_frame.DataFrame.eval

    def df_eval(self, expr, *args, **kwargs):
        audit("pdfagent.guard.pandas", "DataFrame.eval", expr, any(k in kwargs for k in scope_keywords))
        return real_df_eval(self, expr, *args, **kwargs)

    real_df_query = pd_frame.DataFrame.query

    def df_query(self, expr, *args, **kwargs):
        audit("pdfagent.guard.pandas", "DataFrame.query", expr, any(k in kwargs for k in scope_keywords))
        return real_df_query(self, expr, *args, **kwargs)

    real_expr_init = pd_expr.Expr.__init__

    def expr_init(self, expr, *args, **kwargs):
        audit("pdfagent.guard.pandas", "pandas Expr", expr, "env" in kwargs or len(args) >= 3)
        return real_expr_init(self, expr, *args, **kwargs)

    df_eval.__doc__, df_query.__doc__ = real_df_eval.__doc__, real_df_query.__doc__
    guarded_eval.__doc__ = real_eval.__doc__
    pd_eval.eval = guarded_eval
    pd_frame.DataFrame.eval = df_eval
    pd_frame.DataFrame.query = df_query
    pd_expr.Expr.__init__ = expr_init
    for module in (pandas, sys.modules.get("pandas.core.computation.api")):
        if module is not None and getattr(module, "eval", None) is real_eval:
            module.eval = guarded_eval
    return [guarded_eval, df_eval, df_query, expr_init]


def _pdfagent_guard_pandas_check(refuse, is_user):
    """The hook's check of a pandas expression (event `pdfagent.guard.pandas`: the call,
    the text, whether scopes were passed): column names, literals, arithmetic,
    comparison and boolean operators only, parsed with `ast` before pandas sees the text;
    scopes (`local_dict`, `level`, ...) only from pandas itself, never from the code."""
    import ast
    import re

    why = (
        "pandas expressions in figure code may use only column names, numbers, strings, "
        "arithmetic, comparisons and and/or/not; no @ references, attributes or calls "
        "(filter with df[df['a'] > 1] for anything else)"
    )
    allowed_nodes = (
        ast.Module, ast.Expression, ast.Expr, ast.Assign, ast.Name, ast.Constant, ast.Load,
        ast.Store, ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.Compare, ast.Tuple, ast.List,
        ast.operator, ast.unaryop, ast.boolop, ast.cmpop,
    )
    backticked = re.compile(r"`[^`]*`")

    def check(event, args, frame):
        if len(args) < 3:
            refuse("guard-pandas-eval", "a pandas expression", why)
        call, text, scoped = args[0], args[1], args[2]
        call = call if type(call) is str else "pandas"
        # `frame` is the patched function's; its caller is who called pandas.
        caller = frame.f_back
        if scoped and caller is not None and is_user(caller.f_code):
            refuse("guard-pandas-eval", f"{call} with its own scope", why)
        if type(text) is not str:
            if caller is not None and is_user(caller.f_code):
                refuse("guard-pandas-eval", f"{call} of a {type(text).__name__}", why)
            return  # pandas' own term objects, made from text checked here
        shown = f"{call}({text[:80]!r})"
        # `a b` column names (pandas' backticks) stand for plain names here.
        try:
            tree = ast.parse(backticked.sub("_bt", text).strip())
        except (SyntaxError, ValueError):
            refuse("guard-pandas-eval", shown, why)
        for node in ast.walk(tree):
            kind = type(node)
            if not isinstance(node, allowed_nodes):
                refuse("guard-pandas-eval", shown, why)
            if kind is ast.Name and node.id.startswith("__"):
                refuse("guard-pandas-eval", shown, why)
            if kind is ast.Assign and not all(type(t) is ast.Name for t in node.targets):
                refuse("guard-pandas-eval", shown, why)

    return check
