import seaborn as sns
import matplotlib.pyplot as plt

iris = sns.load_dataset("iris")
g = sns.pairplot(iris, hue="species", height=1.8)
# Move the legend out of the way (a common answer; sns.move_legend is the public way).
g._legend.set_bbox_to_anchor((0.5, 1.02))
g._legend.set_title("Species")
plt.show()

g2 = sns.FacetGrid(iris, col="species", hue="species")
g2.map(plt.scatter, "sepal_length", "sepal_width")
g2.add_legend()
g2._legend.remove()
plt.show()
