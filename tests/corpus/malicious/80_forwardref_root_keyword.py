# expect: class-construction, private-attribute
# A subclass of typing.ForwardRef past its guard (_root=True) calls the private evaluator,
# which runs eval with the full builtins.
from typing import ForwardRef
class F(ForwardRef, _root=True):
    def go(self):
        return self._evaluate({}, {}, recursive_guard=frozenset())
F("__import__('os').system('id')").go()
