# expect: private-attribute, module-value
class A:
    def f(self):
        return super(A, np)._core
