import pandas as pd
import matplotlib.pyplot as plt

sales = pd.read_csv("sales.csv")
totals = sales.groupby("region")["revenue"].sum().sort_values()

fig, ax = plt.subplots(figsize=(7, 4))
ax.bar(totals.index, totals.values, color=["#4C72B0", "#55A868", "#C44E52"])
ax.set_ylabel("Revenue (k$)")
ax.set_title("Total revenue by region")
for i, v in enumerate(totals.values):
    ax.text(i, v + 5, f"{v:.0f}", ha="center")
plt.tight_layout()
plt.show()
