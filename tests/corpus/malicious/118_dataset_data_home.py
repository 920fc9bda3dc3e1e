# expect: dataset-name
# data_home= names another folder to read NAME.csv from.
import seaborn as sns
df = sns.load_dataset("passwd", data_home="/etc")
