# expect: 'temperature'
import pandas as pd

df = pd.read_csv('measurements.csv')
plt.plot(df.temp)
plt.savefig(OUT)
