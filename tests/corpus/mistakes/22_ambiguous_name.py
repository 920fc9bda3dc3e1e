# expect: 'runs/a/trace.csv'
# expect: 'runs/b/trace.csv'
import pandas as pd

df = pd.read_csv('/mnt/data/trace.csv')
plt.plot(df['t'], df['v'])
plt.savefig(OUT)
