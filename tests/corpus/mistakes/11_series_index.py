# expect: 'north'
import pandas as pd

df = pd.read_csv('measurements.csv')
per_site = df.groupby('site')['temperature'].mean()
plt.bar(['east'], [per_site['east']])
plt.savefig(OUT)
