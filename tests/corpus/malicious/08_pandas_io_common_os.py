# expect: blocked-attribute
import pandas as pd
pd.io.common.os.remove(srcpath('a.csv'))
