# expect: blocked-attribute
# Another blocked submodule reached by attribute.
import pandas as pd
v = pd.util.version.Version('1')
