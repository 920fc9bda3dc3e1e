# expect: private-attribute
# The same evaluator through the explicit base call.
import typing
class F(typing.ForwardRef):
    def go(self):
        return typing.ForwardRef._evaluate(self, {}, {}, recursive_guard=frozenset())
