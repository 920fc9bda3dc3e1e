import pandas as pd
import seaborn as sns
import matplotlib.pyplot as plt

sns.set_style("darkgrid")
df = pd.read_csv("measurements.csv", parse_dates=["date"])
ax = sns.lineplot(data=df, x="date", y="temperature", hue="site")
ax.set(xlabel="Date", ylabel="Temperature (°C)", title="Temperature by site")
plt.xticks(rotation=45)
plt.tight_layout()
plt.savefig("temperature.png", dpi=300, bbox_inches="tight")
plt.show()
