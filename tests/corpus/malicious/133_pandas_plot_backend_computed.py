# expect: dangerous-rcparam
# A computed plotting backend imports any module by name; harden.py loads matplotlib's only
# (issue 40). The literal key is refused here; the computed one at run time.
import pandas as pd
pd.set_option('plotting.backend', 'telnetlib')
df = pd.DataFrame({'a': [1, 2]})
df.plot(**{'back' + 'end': 'telnetlib'})
