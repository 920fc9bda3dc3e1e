# expect: private-attribute
# A staticmethod's first parameter named self is whatever the caller passes.
from typing import ForwardRef
class A:
    @staticmethod
    def go(self):
        return self._evaluate({}, {}, recursive_guard=frozenset())
A().go(ForwardRef('1'))
