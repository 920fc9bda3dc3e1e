# expect: dangerous-api
import pandas as pd
df = pd.read_pickle(srcpath('x.pkl'))
df.to_pickle('y.pkl')
