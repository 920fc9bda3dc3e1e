# scipy's documented QQ plot: probplot draws onto the pyplot module it is given (plot=plt),
# and onto an Axes the same way.
from scipy import stats

rng = np.random.default_rng(7)
sample = rng.normal(loc=2.0, scale=0.5, size=200)
fig, (left, right) = plt.subplots(1, 2, figsize=(8, 4))
plt.sca(left)
stats.probplot(sample, dist="norm", plot=plt)
stats.probplot(sample, dist="norm", plot=right)
right.set_title("QQ plot on an Axes")
plt.tight_layout()
plt.savefig(OUT)
