# expect: dangerous-api
# register() evaluates a string annotation as code.
from functools import singledispatch
@singledispatch
def f(x):
    pass
def g(x: "print('ran') or int"):
    pass
f.register(g)
