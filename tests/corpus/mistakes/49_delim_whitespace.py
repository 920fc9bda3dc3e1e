# expect: sep=
import pandas as pd

df = pd.read_csv('bands.csv', delim_whitespace=True)
plt.plot(df.iloc[:, 0])
plt.savefig(OUT)
