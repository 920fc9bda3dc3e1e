import numpy as np
import matplotlib.pyplot as plt
from scipy import stats

rng = np.random.default_rng(1)
data = np.concatenate([rng.normal(-2, 1, 300), rng.normal(2, 0.5, 200)])
xs = np.linspace(-6, 5, 400)

density = stats.gaussian_kde(data)
plt.plot(xs, density(xs), label="default bandwidth")
# scipy's documentation once showed this: change the factor, then recompute.
density.covariance_factor = lambda: 0.1
density._compute_covariance()
plt.plot(xs, density(xs), label="factor 0.1")
plt.hist(data, bins=40, density=True, alpha=0.3)
plt.legend()
plt.savefig("kde.png", dpi=120)
