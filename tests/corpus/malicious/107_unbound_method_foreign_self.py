# expect: private-attribute
# A method of the script's own class called through the class with a library object as
# self: inside, self._evaluate is ForwardRef's evaluator.
from typing import ForwardRef
class A:
    def go(self):
        return self._evaluate({}, {}, recursive_guard=frozenset())
A.go(ForwardRef("__import__('os').system('id')"))
