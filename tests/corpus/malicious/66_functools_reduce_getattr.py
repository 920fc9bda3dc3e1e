# expect: forbidden-builtin
from functools import reduce
g = reduce(getattr, ['f_globals'], plt.gcf)
