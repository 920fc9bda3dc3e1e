# expect: 'bands.csv'
import pandas as pd

df = pd.read_csv('band.csv')
plt.plot(df['k'], df['band1_eV'])
plt.savefig(OUT)
