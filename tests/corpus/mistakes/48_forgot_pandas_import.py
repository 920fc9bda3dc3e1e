# expect: import pandas as pd
df = pd.read_csv('bands.csv')
plt.plot(df['k'], df['band1_eV'])
plt.savefig(OUT)
