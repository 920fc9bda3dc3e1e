# expect: none
import pandas as pd

days = pd.date_range("2024-01-01", periods=90, freq="D")
temperature = 10 + 5 * np.sin(np.arange(90) / 14)
fig, ax = plt.subplots(figsize=(7, 3.5), layout="constrained")
ax.plot(days, temperature)
ax.set_ylabel("temperature (C)")
ax.set_title("Daily mean temperature")
fig.autofmt_xdate()
plt.savefig(OUT)
