# expect-ok
# expect: 'bands.csv'
import pandas as pd

df = pd.read_csv('/mnt/data/bands.csv')
plt.plot(df['k'], df['band1_eV'])
plt.xlabel('k')
plt.ylabel('E (eV)')
plt.savefig(OUT)
