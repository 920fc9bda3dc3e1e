import pandas as pd
import seaborn as sns
import matplotlib.pyplot as plt

matrix = pd.read_csv("matrix.csv")
corr = matrix.corr()

plt.figure(figsize=(8, 6))
sns.heatmap(corr, annot=True, fmt=".2f", cmap="coolwarm", vmin=-1, vmax=1)
plt.title("Correlation matrix")
plt.tight_layout()
plt.show()
