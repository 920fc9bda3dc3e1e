import pandas as pd
import seaborn as sns
import matplotlib.pyplot as plt

tips = pd.read_csv("tips.csv")
order = ["Thur", "Fri", "Sat", "Sun"]
sns.boxplot(data=tips, x="day", y="tip", order=order, palette="Set2", hue="day", legend=False)
plt.ylabel("Tip ($)")
plt.title("Tips by day")
plt.savefig("tips_by_day.png")
