# expect: dataset-name
# seaborn's load_dataset pointed out of the data folder by its name.
import seaborn as sns
secret = sns.load_dataset("../outside/secret")
