import pandas as pd
import seaborn as sns
import matplotlib.pyplot as plt

df = pd.read_csv("iris.csv")
fig, ax = plt.subplots(figsize=(7, 5))
sns.scatterplot(data=df, x="sepal_length", y="petal_length", hue="species", style="species", ax=ax)
ax.set_title("Iris: sepal vs petal length")
plt.savefig("iris_scatter.png", dpi=300, bbox_inches="tight")
