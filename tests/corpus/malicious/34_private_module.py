# expect: blocked-submodule
from numpy._core import multiarray
import scipy._lib._ccallback as cb
