# expect: 'band3_eV'
import pandas as pd

df = pd.read_csv('bands.csv')
sub = df[['k', 'band4_eV']]
sub.plot(x='k')
plt.savefig(OUT)
