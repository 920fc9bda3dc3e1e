# expect: dunder-name
def f():
    global __builtins__
    return __builtins__
