# expect: dataset-name, url-reader
# A data set name that is a URL: a download (the run is offline anyway).
import seaborn as sns
df = sns.load_dataset("https://example.com/exfil?x=1")
