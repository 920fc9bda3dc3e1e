import seaborn as sns
import matplotlib.pyplot as plt

sns.set_theme(style="whitegrid")
tips = sns.load_dataset("tips")
ax = sns.boxplot(data=tips, x="day", y="total_bill", hue="smoker")
ax.set_title("Total bill by day")
plt.show()
