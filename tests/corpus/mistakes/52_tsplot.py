# expect: sns.lineplot
import seaborn as sns

sns.tsplot(data=np.random.default_rng(2).normal(size=(5, 20)))
plt.savefig(OUT)
