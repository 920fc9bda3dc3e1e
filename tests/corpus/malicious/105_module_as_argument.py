# expect: module-value
# A module passed to a function: the blocked submodule would be reached as m.external.
import seaborn as sns
def f(m, name):
    return m
g = f(sns, 'external')
