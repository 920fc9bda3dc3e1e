# expect: blocked-submodule
import numpy.testing as npt
