# expect: 'date'
import pandas as pd
import seaborn as sns

df = pd.read_csv('measurements.csv')
sns.lineplot(data=df, x='Date', y='temperature')
plt.savefig(OUT)
