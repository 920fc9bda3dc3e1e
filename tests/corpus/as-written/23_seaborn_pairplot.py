import pandas as pd
import seaborn as sns
import matplotlib.pyplot as plt

iris = pd.read_csv("iris.csv")
g = sns.pairplot(iris, hue="species", height=2.0)
g.fig.suptitle("Iris pair plot", y=1.02)
plt.show()
