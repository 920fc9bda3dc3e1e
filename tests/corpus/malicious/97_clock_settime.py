# expect: blocked-attribute
# A C function that changes the system: sets the clock (as root).
import time
time.clock_settime(time.CLOCK_REALTIME, 0.0)
