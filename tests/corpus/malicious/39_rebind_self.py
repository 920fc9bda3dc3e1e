# expect: private-attribute
class A:
    def leak(self):
        self = np
        return self._core
