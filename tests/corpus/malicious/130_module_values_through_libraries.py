# expect: foreign-module
# Modules that are not allowed, reached as attributes of allowed ones (issue 40).
import re
import matplotlib
import matplotlib.ticker
import matplotlib.cbook
import matplotlib.font_manager
import matplotlib.backend_bases
b = re.enum.bltns
fmt = matplotlib.ticker.string.Formatter()
frames = matplotlib.cbook.traceback.walk_stack(None)
matplotlib.atexit.register(print)
d = matplotlib.font_manager.dataclasses
s = matplotlib.backend_bases.signal
p = matplotlib.Path('/tmp/x')
