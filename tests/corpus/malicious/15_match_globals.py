# expect: private-attribute
def f():
    pass
match f:
    case object(__globals__=g):
        print(g)
