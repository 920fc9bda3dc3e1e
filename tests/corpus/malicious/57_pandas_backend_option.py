# expect: dangerous-api
import pandas as pd
pd.options.plotting.backend = 'pickle'
