# expect: 'k'
# expect: 'band1_eV'
import pandas as pd

df = pd.read_csv('bands.csv')
df.plot(x='kx', y='band1_eV')
plt.savefig(OUT)
