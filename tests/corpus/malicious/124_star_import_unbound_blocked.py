# expect: blocked-attribute, blocked-name
# pandas.io.common holds `os`; its star import does not bind it (a blocked attribute), so the
# bare name stays the os module's and is refused.
from pandas.io.common import *
os.system("id")
