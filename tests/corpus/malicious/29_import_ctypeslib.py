# expect: blocked-submodule
import numpy.ctypeslib
from numpy import ctypeslib as c
