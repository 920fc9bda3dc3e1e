# expect: private-attribute
class A:
    def f(self):
        return super(A, np)._core
