# expect: blocked-submodule
from matplotlib.testing.compare import convert
