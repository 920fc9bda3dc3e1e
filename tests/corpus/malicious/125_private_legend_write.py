# expect: private-attribute
# The reviewed private names are readable only: writing one is refused.
import seaborn as sns
g = sns.FacetGrid(sns.load_dataset("tips"))
g._legend = print
del g._legend
