# expect: star-import
from numpy import *
