# expect: blocked-attribute, foreign-module
# dis.Bytecode(f).codeobj.replace(co_names=...) wrapped in typing.types.FunctionType (issue 40).
import pandas as pd
import typing
def f():
    return print('x')
code = pd.core.common.dis.Bytecode(f).codeobj.replace(co_names=('exec',))
g = typing.types.FunctionType(code, {})
