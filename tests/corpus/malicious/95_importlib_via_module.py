# expect: blocked-attribute
# importlib re-exported by a matplotlib module, and the loader behind it.
import matplotlib.backends.registry as reg
reg.importlib.import_module('os')
