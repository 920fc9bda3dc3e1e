# expect: dunder-name
# A name object that says one thing as text and another as a path.
import seaborn as sns
class Name(str):
    def __fspath__(self):
        return "/etc/passwd"
df = sns.load_dataset(Name("tips"))
