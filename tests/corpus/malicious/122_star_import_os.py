# expect: import-not-allowed
# A star import of a module that is not allowed.
from os import *
system("id")
