# expect: blocked-attribute
def f():
    pass
print(f.func_code, (lambda: 0).co_code)
