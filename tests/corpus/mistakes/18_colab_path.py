# expect-ok
# expect: 'measurements.csv'
import pandas as pd

df = pd.read_csv('/content/measurements.csv')
df.plot(x='date', y='temperature')
plt.savefig(OUT)
