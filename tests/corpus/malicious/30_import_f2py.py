# expect: blocked-submodule
from numpy.f2py import main
