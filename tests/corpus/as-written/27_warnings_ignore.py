import warnings
warnings.filterwarnings("ignore")

import numpy as np
import pandas as pd
import matplotlib.pyplot as plt

df = pd.read_csv("measurements.csv")
df["rolling"] = df["temperature"].rolling(7, min_periods=1).mean()

plt.figure(figsize=(10, 4))
plt.plot(df.index, df["temperature"], alpha=0.4, label="daily")
plt.plot(df.index, df["rolling"], label="7-day mean")
plt.legend()
plt.xlabel("day")
plt.ylabel("temperature")
plt.title("Temperature with rolling mean")
plt.savefig("rolling.png", dpi=300, bbox_inches="tight")
plt.show()
