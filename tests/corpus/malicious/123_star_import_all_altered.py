# expect: private-attribute
# __all__ changed at run time so that Python's own star import would bind a blocked name;
# the checker's expansion is fixed, and __all__ is refused anyway.
import numpy
numpy.__all__.append("ctypeslib")
from numpy import *
