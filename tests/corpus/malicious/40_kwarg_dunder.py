# expect: dunder-name
def f(**kw):
    return kw
f(__class__=1)
