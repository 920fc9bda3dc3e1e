# expect: foreign-module, blocked-name
# `from matplotlib.cbook import *` would bind `types` (the star list leaves it out); written
# out it is refused (issue 40).
from matplotlib.cbook import *
from matplotlib.cbook import types
F = types.FunctionType
