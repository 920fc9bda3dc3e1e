# expect: df.map
import pandas as pd

df = pd.read_csv('bands.csv')
scaled = df.applymap(lambda v: v * 1000)
plt.plot(scaled['k'], scaled['band1_eV'])
plt.savefig(OUT)
