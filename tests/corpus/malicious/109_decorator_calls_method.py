# expect: private-attribute
# A decorator can call the method with any first argument while the class is made.
from typing import ForwardRef
class A:
    @(lambda f: f(ForwardRef('1')))
    def go(self):
        return self._evaluate({}, {}, recursive_guard=frozenset())
