# expect-ok
# expect: 'bands.csv'
import pandas as pd

df = pd.read_csv(r'C:\Users\me\Desktop\bands.csv')
plt.plot(df['k'], df['band3_eV'])
plt.savefig(OUT)
