# expect: private-attribute, module-value
class A:
    def leak(self):
        self = np
        return self._core
