# expect: format-string
def f():
    pass
print('{f.__globals__}'.format_map({'f': f}))
