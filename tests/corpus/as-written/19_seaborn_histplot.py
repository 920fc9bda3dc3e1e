import pandas as pd
import seaborn as sns
import matplotlib.pyplot as plt

tips = pd.read_csv("tips.csv")
sns.set_theme(style="whitegrid")

plt.figure(figsize=(8, 5))
sns.histplot(data=tips, x="total_bill", hue="time", kde=True, bins=20)
plt.title("Distribution of total bill")
plt.show()
