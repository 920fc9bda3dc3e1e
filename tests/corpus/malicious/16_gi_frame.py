# expect: blocked-attribute, private-attribute
def gen():
    yield 1
g = gen()
b = g.gi_frame.f_back.f_globals['__builtins__']
