# PDFAgent issue #40: roads to the destinations the run-time guard refuses. Each route, if
# it reaches its destination, writes a marker `m-<label>` into the run directory (OUT's
# folder); the tests prove the markers absent with the guard on, present with it off.
import matplotlib
import numpy as np
import pandas as pd

SYS = matplotlib.sys
io = SYS.modules['io']
RUN = OUT.rsplit('/', 1)[0]


def text(label):
    return f"open({RUN + '/m-' + label!r}, 'w').write('reached')"


def mark(label):
    with open(RUN + '/m-' + label, 'w') as f:
        f.write('reached')


def attempt(label, fn):
    try:
        fn()
        print('RAN', label, flush=True)
    except BaseException as e:  # noqa: BLE001
        print('BLOCKED', label, type(e).__name__, str(e).replace('\n', ' '), flush=True)


def r_pil_features():
    from PIL import features
    features.features.update({'x': ('builtins', 'exec', None)})
    features.check_feature('x')(text('pil_features'))


def r_pil_modules():
    from PIL import features
    features.modules.update({'y': ('builtins', 'eval')})
    features.version_module('y')(text('pil_modules'))


def r_code_replace():
    import typing

    def f():
        return print(T)
    code = pd.core.common.dis.Bytecode(f).codeobj.replace(co_names=('exec', 'T'))
    typing.types.FunctionType(code, {'T': text('code_replace'), '__builtins__': __builtins__})()


def r_find_class():
    from pandas.compat import pickle_compat
    pickle_compat.Unpickler(io.BytesIO(b'')).find_class('builtins', 'exec')(text('find_class'))


def r_cbook_types():
    from matplotlib.cbook import types

    def f():
        return print(T)
    types.FunctionType(f.__code__, {'T': text('cbook_types'), 'print': __builtins__['exec']})()


def r_np_info():
    np.info('system', output=io.StringIO(), **{'top' + 'level': 'telnetlib'})
    if 'telnetlib' in SYS.modules:
        mark('np_info')


def r_import_by_name():
    # importlib by name, not the code's own `import`: the guard's finder refuses a module
    # the allowed libraries never import (harden.py does not stand in front of this one).
    SYS.modules['importlib'].import_module('telnetlib')
    if 'telnetlib' in SYS.modules:
        mark('import_by_name')


def r_plot_backend():
    try:
        pd.DataFrame({'a': [1, 2]}).plot(**{'back' + 'end': 'nntplib'})
    finally:
        if 'nntplib' in SYS.modules:
            mark('plot_backend')


def r_option_backend():
    try:
        with pd.option_context('plotting.' + 'backend', 'imp'):
            pass
    finally:
        if 'imp' in SYS.modules:
            mark('option_backend')


def r_apply_eval():
    df = pd.DataFrame({'a': [1]})
    df.apply('eval', args=(f'@self.apply.__globals__["com"].builtins.exec({text("apply_eval")!r})',))


def r_agg_query():
    df = pd.DataFrame({'a': [1]})
    df.agg('que' + 'ry', 0, f'@self.apply.__globals__["com"].builtins.exec({text("agg_query")!r})')


def r_expr():
    from pandas.core.computation import expr, scope
    env = scope.Scope(level=0, local_dict={'bl': SYS.modules['builtins']})
    expr.Expr(f'@bl.exec({text("expr")!r})', env=env, engine='python').terms()


def r_scope():
    from pandas.core.computation import scope
    s = scope.Scope(level=4)
    if 'sys' in s.scope or '_pdfagent_run' in s.scope:
        mark('scope')


def r_re_bltns():
    import re
    re.enum.bltns.exec(text('re_bltns'))


def r_formatter_hints():
    sys = matplotlib.ticker.string.Formatter().get_field('0.__globals__[sys]', (plt.plot,), {})[0]

    class C:
        pass
    C.__annotations__ = {'x': f'exec({text("formatter_hints")!r})'}
    sys.modules['typing'].get_type_hints(C)


def r_walk_stack():
    frame, _ = next(matplotlib.cbook.traceback.walk_stack(None))
    if frame is not None:
        mark('walk_stack')


def r_ctypes():
    np.ctypeslib.ctypes.CDLL(None).getpid()
    mark('ctypes')


def r_environ():
    lines = matplotlib.cbook.traceback.linecache.getlines('/proc/self/environ')
    if lines:
        mark('environ')


def r_thread_exec():
    import re
    t = SYS.modules['threading'].Thread(target=re.enum.bltns.exec, args=(text('thread_exec'),))
    t.start()
    t.join()


def r_spoofed_audit():
    for event in ('exec', 'import', 'pdfagent.guard.user_import', 'compile'):
        try:
            SYS.audit(event, 'x')
        except BaseException:  # noqa: BLE001
            pass
    SYS.modules['builtins'].exec(text('spoofed_audit'))


def r_own_hook():
    SYS.addaudithook(lambda *a: None)
    SYS.modules['builtins'].exec(text('own_hook'))


def r_settrace():
    SYS.settrace(lambda *a: None)
    SYS.settrace(None)
    mark('settrace')


def r_marshal():
    code = SYS.modules['marshal'].loads(SYS.modules['marshal'].dumps(compile(text('marshal'), 'm', 'exec')))
    mark('marshal')
    return code


def r_atexit():
    matplotlib.atexit.register(SYS.modules['builtins'].exec, text('atexit'), {'__builtins__': SYS.modules['builtins']})


def r_module_swap():
    # A library module's function swapped for exec behind the checker's back (the module's
    # dict written directly; no audit event sees it), then called by the import-time code
    # of a module imported lazily: the guard lets import-time code run text only where it
    # calls exec/eval/compile by name (issue #40 item 4).
    import functools
    threading = SYS.modules['threading']
    real = vars(threading)['local']
    vars(threading)['local'] = functools.partial(SYS.modules['builtins'].exec, text('module_swap'), {})
    try:
        import scipy.stats  # noqa: F401
    finally:
        vars(threading)['local'] = real


for name, fn in list(globals().items()):
    if name.startswith('r_') and callable(fn):
        attempt(name[2:], fn)
plt.plot([1, 2], [3, 4])
plt.savefig(OUT)
