# expect: dataset-name
# cache=False makes seaborn download the data set instead of reading the data folder.
import seaborn as sns
df = sns.load_dataset("tips", cache=False)
