# expect: format-string
from matplotlib.ticker import StrMethodFormatter
plt.gca().xaxis.set_major_formatter(StrMethodFormatter('{x.__class__.__init__.__globals__}'))
