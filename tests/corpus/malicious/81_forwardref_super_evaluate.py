# expect: private-attribute
# The same evaluator through super().
from typing import ForwardRef
class F(ForwardRef):
    def go(self):
        return super()._evaluate({}, {}, recursive_guard=frozenset())
