# expect: private-attribute
import pandas as pd
s = pd.Series([1, 2])
r = s.agg('__reduce_ex__', 2)
