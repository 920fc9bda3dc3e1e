import pandas as pd
import matplotlib.pyplot as plt

df = pd.read_csv("sales.csv")
pivot = df.pivot(index="month", columns="region", values="revenue")
pivot = pivot.reindex(["Jan", "Feb", "Mar", "Apr", "May", "Jun"])
ax = pivot.plot(kind="bar", figsize=(9, 5), rot=0)
ax.set_ylabel("Revenue")
ax.set_title("Revenue by month and region")
plt.tight_layout()
plt.show()
