# expect: pd.concat
import pandas as pd

df = pd.DataFrame({'x': [0, 1], 'y': [0, 1]})
df = df.append({'x': 2, 'y': 4}, ignore_index=True)
plt.plot(df['x'], df['y'])
plt.savefig(OUT)
