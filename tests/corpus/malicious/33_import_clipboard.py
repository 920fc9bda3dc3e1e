# expect: blocked-submodule
from pandas.io import clipboard
import pandas.io.clipboard
