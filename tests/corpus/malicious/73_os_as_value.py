# expect: import-not-allowed, blocked-name
import os
f = os
f.remove('/etc/passwd')
