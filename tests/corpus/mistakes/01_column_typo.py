# expect: 'band2_eV'
import pandas as pd

df = pd.read_csv('bands.csv')
plt.plot(df['k'], df['band2'])
plt.savefig(OUT)
