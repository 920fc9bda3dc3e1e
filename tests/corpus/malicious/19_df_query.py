# expect: dangerous-api
import pandas as pd
df = pd.read_csv(srcpath('a.csv'))
d = df.query('a > @x')
