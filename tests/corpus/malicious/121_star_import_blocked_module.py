# expect: blocked-submodule
# A star import of a blocked submodule binds nothing: the import itself is refused.
from numpy.ctypeslib import *
lib = load_library("libc", "/lib")
