# expect: blocked-attribute
# The same through an alias and another import name.
import seaborn as s2
m = s2
d = m.external.appdirs.user_data_dir('x')
