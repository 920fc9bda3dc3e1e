# expect: syntax-error
def f(:
    pass
