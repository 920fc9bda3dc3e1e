# expect: blocked-attribute
# pandas.compat holds the platform module, which runs `uname -p` through subprocess.
import pandas as pd
print(pd.compat.platform.processor())
