# expect: items()
import pandas as pd

df = pd.read_csv('bands.csv')
for name, col in df.iteritems():
    if name != 'k':
        plt.plot(df['k'], col, label=name)
plt.legend()
plt.savefig(OUT)
