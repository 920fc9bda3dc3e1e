# expect: blocked-attribute
# pandas' csv reader module holds concurrent.futures' ThreadPoolExecutor.
import pandas as pd
pool = pd.io.parsers.readers.ThreadPoolExecutor(2)
