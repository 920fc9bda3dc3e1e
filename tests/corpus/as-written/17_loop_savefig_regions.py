import pandas as pd
import matplotlib.pyplot as plt

df = pd.read_csv("sales.csv")
for region, group in df.groupby("region"):
    plt.figure(figsize=(6, 4))
    plt.plot(group["month"], group["revenue"], marker="o")
    plt.title(f"Monthly revenue - {region}")
    plt.xlabel("Month")
    plt.ylabel("Revenue")
    plt.tight_layout()
    plt.savefig(f"revenue_{region.lower()}.png")
    plt.close()
