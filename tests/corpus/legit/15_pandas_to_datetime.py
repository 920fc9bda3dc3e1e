import pandas as pd
from datetime import datetime, timedelta

df = pd.read_csv(srcpath("log.csv"))
df["when"] = pd.to_datetime(df["timestamp"], unit="s")
start = datetime(2024, 1, 1)
df = df[df["when"] >= start - timedelta(days=1)]
counts = df.set_index("when").resample("1h").size()
counts.plot()
plt.tight_layout()
plt.savefig(OUT)
