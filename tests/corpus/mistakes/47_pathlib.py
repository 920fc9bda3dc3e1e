# expect: srcpath(
from pathlib import Path
import pandas as pd

df = pd.read_csv(Path('bands.csv'))
plt.plot(df['k'], df['band1_eV'])
plt.savefig(OUT)
