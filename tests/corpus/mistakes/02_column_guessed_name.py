# expect: 'band1_eV'
import pandas as pd

df = pd.read_csv('bands.csv')
plt.plot(df['k'], df['energy'], label='energy')
plt.xlabel('k')
plt.savefig(OUT)
