# expect: blocked-submodule
# The same, imported by name.
from time import clock_settime_ns
clock_settime_ns(0, 0)
