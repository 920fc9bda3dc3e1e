# expect: module-assignment
# A class defined in a module is read-only too.
from matplotlib.axes import Axes
import pandas as pd
Axes.plot = print
pd.DataFrame.foo = 1
