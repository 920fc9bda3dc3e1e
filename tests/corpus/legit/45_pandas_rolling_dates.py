import pandas as pd

idx = pd.date_range("2024-01-01", periods=365, freq="D")
s = pd.Series(np.random.default_rng(2).normal(size=365).cumsum(), index=idx)
ax = s.plot(alpha=0.4, label="daily")
s.rolling(30, center=True).mean().plot(ax=ax, label="30-day mean")
ax.legend()
ax.set_title("Random walk")
plt.savefig(OUT)
