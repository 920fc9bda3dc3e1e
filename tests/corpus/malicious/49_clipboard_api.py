# expect: dangerous-api
import pandas as pd
df = pd.read_clipboard()
