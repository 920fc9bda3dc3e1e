# expect: dangerous-api
import pandas as pd
pd.eval('1 + 1')
