import pandas as pd
import matplotlib.dates as mdates

df = pd.read_csv(srcpath("weather.csv"), parse_dates=["date"])
df = df.sort_values("date").set_index("date")
weekly = df["temperature"].resample("W").mean()
fig, ax = plt.subplots(figsize=(10, 4))
ax.plot(df.index, df["temperature"], alpha=0.3)
ax.plot(weekly.index, weekly.values, lw=2)
ax.xaxis.set_major_locator(mdates.MonthLocator())
ax.xaxis.set_major_formatter(mdates.DateFormatter("%b %Y"))
fig.autofmt_xdate()
fig.savefig(OUT)
