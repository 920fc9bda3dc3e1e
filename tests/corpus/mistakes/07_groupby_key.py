# expect: 'site'
import pandas as pd

df = pd.read_csv('measurements.csv')
means = df.groupby('location')['temperature'].mean()
means.plot(kind='bar')
plt.savefig(OUT)
