# expect: class-construction
# 3-argument type() makes the subclass with the guard's keyword, no class statement.
from typing import ForwardRef
F = type('F', (ForwardRef,), {}, _root=True)
G = type('G', (ForwardRef,), {}, **{'_root': True})
