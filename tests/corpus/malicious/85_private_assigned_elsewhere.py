# expect: private-attribute
# Assigning the name in a method that never runs does not make the library's method the
# script's own: the read finds ForwardRef._evaluate.
from typing import ForwardRef
class F(ForwardRef):
    def go(self):
        return self._evaluate({}, {}, recursive_guard=frozenset())
    def never(self):
        self._evaluate = None
