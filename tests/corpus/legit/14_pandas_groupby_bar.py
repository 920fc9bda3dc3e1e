import pandas as pd

df = pd.read_csv(srcpath("sales.csv"))
summary = df.groupby("region")["revenue"].agg(["mean", "std"])
ax = summary["mean"].plot(kind="bar", yerr=summary["std"], capsize=4, color="tab:blue")
ax.set_ylabel("revenue")
plt.tight_layout()
plt.savefig(OUT)
