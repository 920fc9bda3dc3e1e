# expect: import-not-allowed, blocked-name
# Of os only os.path's string functions may be used.
import os
plt.title(os.environ.get('HOME'))
