# expect: blocked-attribute
# import seaborn.external is refused; the attribute route reaches the same vendored helpers.
import seaborn as sns
doc = sns.external.docscrape.NumpyDocString('x')
home = sns.external.appdirs.user_cache_dir('x')
