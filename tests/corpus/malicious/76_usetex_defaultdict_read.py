# expect: dangerous-rcparam
# A read inserts the key into a defaultdict: only matplotlib's rcParams may be read so.
import collections
d = collections.defaultdict(lambda: True)
d['text.usetex']
plt.rcParams.update(d)
