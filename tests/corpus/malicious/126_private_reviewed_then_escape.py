# expect: private-attribute
# A reviewed private name on any object, then its internals: refused past the reviewed name.
from scipy import stats
kde = stats.gaussian_kde([1.0, 2.0, 3.0])
f = kde._compute_covariance
g = f.__globals__
legend_state = kde._legend._loc
