# expect-ok
# expect: 'bands.csv'
import pandas as pd

df = pd.read_csv(srcpath('/home/user/project/bands.csv'))
plt.plot(df['k'], df['band2_eV'])
plt.savefig(OUT)
