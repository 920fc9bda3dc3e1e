# expect: relative-import
from . import secrets
from .. import x
